// @ts-check
// The road display board's decisions, as pure functions of the table's JSON: which table and language
// the address asks for, how many road columns fit a box, the shoe's counts, the good-road alerts (the
// server's own pattern detection, baccarat.road_stats), the limits of each bet and the last result.

/** The board's languages, as `?lang=` takes them. */
const LANGS = { "zh-hant": "zh-Hant", "zh-tw": "zh-Hant", hant: "zh-Hant", "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", hans: "zh-Hans", en: "en" };

/**
 * The table id and the language asked for by the route's argument ("web-macau?lang=en") or the page's
 * query string ("?lang=zh-Hans"); `lang` is null when none (or an unknown one) is asked for.
 * @param {string} arg @param {string} [search] @returns {{tableId: string, lang: string|null}}
 */
export function parseBoardArg(arg, search = "") {
  const [tableId, query = ""] = String(arg).split("?");
  const asked = new URLSearchParams(query).get("lang") || new URLSearchParams(search).get("lang");
  return { tableId, lang: (asked && LANGS[asked.toLowerCase()]) || null };
}

/**
 * How many columns of (nearly) square cells fill a box `width` × `height` (px) with `rows` rows: the
 * nearest whole number, so the road fills the box with its cells stretched or squeezed by at most half
 * a column; at least `least`, so an empty or hidden box still draws a road.
 * @param {number} width @param {number} height @param {number} [rows] @param {number} [least]
 */
export function roadColumns(width, height, rows = 6, least = 6) {
  if (!(width > 0) || !(height > 0)) return least;
  return Math.max(least, Math.round(width / (height / rows)));
}

/** "portrait" when the screen is taller than wide, else "landscape". @param {number} width @param {number} height */
export function orientation(width, height) {
  return height > width ? "portrait" : "landscape";
}


export { boardStats, share } from "../../counts.js";
export { currentAlerts } from "../../alerts.js";

/**
 * The limits of each bet on the table's menu (`bets` of GET /api/tables/{id}), in the menu's order.
 * @param {any} table @returns {{bet: string, name: any, min: number, max: number}[]}
 */
export function limitsOf(table) {
  const menu = (table && table.bets) || [];
  return menu
    .filter((/** @type {any} */ b) => typeof b.min === "number" && typeof b.max === "number")
    .map((/** @type {any} */ b) => ({ bet: b.bet, name: b, min: b.min, max: b.max }));
}

/**
 * @typedef {{round_id: number, number: number|null, result: any}} LastResult
 */

/**
 * The newer of two last results (by round id; a round of another shoe counts by its id too).
 * @param {LastResult|null} current @param {LastResult|null|undefined} candidate @returns {LastResult|null}
 */
export function newerResult(current, candidate) {
  if (!candidate || !candidate.result) return current;
  if (!current || candidate.round_id >= current.round_id) return candidate;
  return current;
}

/**
 * The round ids to ask GET /api/rounds/{id} for this table's last settled round, when the page
 * comes in between rounds: the ids just below the current round's (ids are shared by every table),
 * newest first, at most `tries`.
 * @param {number|null|undefined} currentId @param {number} [tries] @returns {number[]}
 */
export function lookBack(currentId, tries = 12) {
  if (!currentId || currentId < 1) return [];
  const ids = [];
  for (let id = currentId - 1; id >= 1 && ids.length < tries; id -= 1) ids.push(id);
  return ids;
}

/**
 * Whether a round of GET /api/rounds/{id} is this table's last result to show.
 * @param {any} round @param {string} tableId
 */
export function isShownRound(round, tableId) {
  return Boolean(round && round.table === tableId && round.status === "settled" && round.result && round.result.player);
}

/** A limit as the board shows it: whole amounts without cents ("50,000"), else with them. @param {string} text */
export function wholeAmount(text) {
  return text.replace(/\.00$/, "");
}

/** The card positions of a coup, in deal order. */
export const POSITIONS = ["player_1", "banker_1", "player_2", "banker_2", "player_3", "banker_3"];

/** A card's points in baccarat: A 1, 2–9 their pips, 10 and the faces 0. @param {string} code */
export function cardPoints(code) {
  const rank = String(code).toUpperCase().slice(0, -1);
  if (rank === "A") return 1;
  const n = Number(rank);
  return Number.isInteger(n) && n >= 2 && n <= 9 ? n : 0;
}

/**
 * @typedef {{round_id: number, cards: Record<string, string|null>}} Live
 * @typedef {{cards: (string|null)[], total: number}} LiveHand
 */

/**
 * The coup being dealt, from the table's messages: the cards as each is dealt (`card_dealt`, null while
 * it lies face down for its squeezer), corrected (`card_corrected`) or turned (`card_revealed`); gone
 * when the round ends or the next opens. Pure.
 * @param {Live|null} live @param {any} message @returns {Live|null}
 */
export function liveStep(live, message) {
  const type = message && message.type;
  if (type === "betting_opened" || type === "round_settled" || type === "round_voided" || type === "shoe_started") return null;
  if (type !== "card_dealt" && type !== "card_corrected" && type !== "card_revealed") return live;
  if (!POSITIONS.includes(message.position) || typeof message.round_id !== "number") return live;
  const base = live && live.round_id === message.round_id ? live.cards : {};
  const card = type !== "card_revealed" && message.face_down ? null : message.card ?? null;
  return { round_id: message.round_id, cards: { ...base, [message.position]: card } };
}

/**
 * Both hands of the coup being dealt: their cards in order (null: face down) and the points of the
 * face-up ones; null when no card is out yet.
 * @param {Live|null} live @returns {{player: LiveHand, banker: LiveHand}|null}
 */
export function liveHands(live) {
  if (!live || !Object.keys(live.cards).length) return null;
  const hand = (/** @type {string} */ side) => {
    const cards = POSITIONS.filter((p) => p.startsWith(side) && p in live.cards).map((p) => live.cards[p]);
    const total = cards.reduce((sum, code) => (code ? (sum + cardPoints(code)) % 10 : sum), 0);
    return { cards, total };
  };
  return { player: hand("player"), banker: hand("banker") };
}
