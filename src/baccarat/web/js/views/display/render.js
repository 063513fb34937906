// @ts-check
// Drawing the road display board from the table's state: each function draws one part of the frame
// (layout.js) and writes the data attributes the tests wait on.

import { cardElement, hiddenCard } from "../../cards.js";
import { h, replace } from "../../dom.js";
import { money } from "../../format.js";
import { betName, lang, t } from "../../i18n.js";
import { beadPlate, bigRoad, derivedRoad } from "../../roads.js";
import { canBet, secondsLeft } from "../../state.js";
import { ROADS } from "./layout.js";
import { alertText, currentAlerts } from "../../alerts.js";
import { boardStats, limitsOf, liveHands, POSITIONS, roadColumns, share, wholeAmount } from "./model.js";

/** The head: the table's name, the shoe and the round. @param {import("./layout.js").Board} el @param {import("../../state.js").TableState} state */
export function renderTitle(el, state) {
  const table = state.table;
  el.name.textContent = table ? table.name : state.status === "missing" ? t("not_found") : t("loading");
  const parts = [];
  if (table && table.shoe) parts.push(t("shoe_n", { n: table.shoe.number }));
  if (state.round) parts.push(t("round_n", { n: state.round.number }));
  el.sub.textContent = parts.join(" · ");
  el.sub.dataset.shoe = table && table.shoe ? String(table.shoe.number) : "";
  for (const button of el.langs.querySelectorAll("button")) {
    const mine = /** @type {HTMLElement} */ (button).dataset.lang === lang();
    button.setAttribute("aria-pressed", String(mine));
  }
  el.langs.setAttribute("aria-label", t("board_lang"));
}

/** The round's phase and the betting countdown. @param {import("./layout.js").Board} el @param {import("../../state.js").TableState} state @param {number} now */
export function renderPhase(el, state, now) {
  const round = state.round;
  const status = !state.open ? "table_closed" : round ? round.status : "waiting";
  const open = canBet(state);
  const left = secondsLeft(state, now);
  el.phase.dataset.status = status;
  el.phaseLabel.textContent = {
    table_closed: t("table_closed"), waiting: t("phase_waiting"), betting: t("phase_betting"), closed: t("board_dealing"),
    settled: t("board_settled"), voided: t("phase_voided"),
  }[status] || status;
  el.seconds.textContent = open ? String(left) : "";
  el.seconds.dataset.seconds = String(left);
  el.seconds.setAttribute("aria-label", `${t("countdown")} ${left}`);
  const total = (state.table && state.table.betting_seconds) || 1;
  const exact = open ? Math.max(0, (state.deadline - now) / 1000) : 0;
  el.bar.style.width = `${Math.min(100, (exact / total) * 100)}%`;
}

/** The connection, shown only while it is down. @param {import("./layout.js").Board} el @param {import("../../state.js").TableState} state @param {number} now */
export function renderConnection(el, state, now) {
  el.board.dataset.conn = state.connection;
  if (state.connection === "closed") {
    const s = Math.max(0, Math.ceil((state.retryAt - now) / 1000));
    el.conn.textContent = state.retryAt ? t("reconnecting_in", { s }) : t("reconnecting");
  } else el.conn.textContent = state.connection === "connecting" ? t("connecting") : "";
}

/** A missing or closed table, over the board. @param {import("./layout.js").Board} el @param {import("../../state.js").TableState} state @param {string} tableId */
export function renderNotice(el, state, tableId) {
  const text = state.status === "missing" ? t("table_missing", { id: tableId }) : state.status === "ready" && !state.open ? t("table_closed") : "";
  el.notice.textContent = text;
  el.notice.hidden = !text;
}

/** The five roads, each as many columns as fill its box. @param {import("./layout.js").Board} el @param {any} roads */
export function renderRoads(el, roads) {
  for (const key of ROADS) el.roads[key].caption.textContent = t(key);
  if (!roads) return;
  for (const key of ROADS) {
    const { figure, box } = el.roads[key];
    const keep = roadColumns(box.clientWidth, box.clientHeight);
    let svg;
    if (key === "bead_plate") svg = beadPlate(roads, keep);
    else if (key === "big_road") svg = bigRoad(roads, keep, 16);
    else svg = derivedRoad(roads, key, keep, 11);
    svg.setAttribute("preserveAspectRatio", "none"); // its cells are within half a column of square
    box.replaceChildren(svg);
    figure.dataset.columns = String(keep);
  }
  const results = roads.results || "";
  for (const key of ["bead_plate", "big_road"]) {
    const figure = el.roads[key].figure;
    figure.dataset.results = results;
    figure.dataset.coups = String(results.length);
  }
  const grid = (roads.big_road && roads.big_road.grid) || [];
  el.roads.big_road.figure.dataset.rings = String(grid.reduce((n, column) => n + column.filter(Boolean).length, 0));
}

/** One hand: the side, its points and its cards (null: face down). @param {string} side @param {{cards: (string|null)[], total: number}} hand @param {boolean} won */
function handBox(side, hand, won) {
  return h(
    "div",
    { class: `board-hand ${side}${won ? " won" : ""}`, "data-side": side, "data-total": hand.total, "data-cards": hand.cards.map((c) => c || "?").join(" ") },
    h("div", { class: "board-hand-head" }, h("span", { class: "board-hand-side" }, t(side)), h("span", { class: "board-points", "aria-label": t("board_points", { n: hand.total }) }, String(hand.total))),
    h("div", { class: "board-cards" }, ...hand.cards.map((code) => (code ? cardElement(code, { up: true }) : hiddenCard()))),
  );
}

/**
 * The coup being dealt, in place of the last result while its cards come out (a live table's dealer
 * turning them one by one); false when no card of it is out.
 * @param {import("./layout.js").Board} el @param {import("./model.js").Live|null} live @param {number|null} number
 */
function renderLive(el, live, number) {
  const hands = liveHands(live);
  if (!live || !hands) return false;
  const box = el.result;
  const dealt = POSITIONS.filter((p) => p in live.cards).map((p) => live.cards[p] || "?");
  Object.assign(box.dataset, { round: "", winner: "", cards: dealt.join(" "), live: String(live.round_id) });
  replace(
    box,
    h("h2", { class: "board-section-title" }, h("span", {}, number ? t("round_n", { n: number }) : t("board_last"))),
    h("p", { class: "board-winner dealing", "data-testid": "board-winner" }, t("board_dealing")),
    h("div", { class: "board-hands" }, handBox("player", hands.player, false), handBox("banker", hands.banker, false)),
  );
  return true;
}

/**
 * The last result: the winner, both hands with their cards and points, pairs and natural; or, while a
 * coup is being dealt, its cards so far.
 * @param {import("./layout.js").Board} el @param {import("./model.js").LastResult|null} last
 * @param {import("./model.js").Live|null} [live] @param {number|null} [liveNumber]
 */
export function renderResult(el, last, live = null, liveNumber = null) {
  if (renderLive(el, live, liveNumber)) return;
  const box = el.result;
  box.dataset.live = "";
  if (!last || !last.result || !last.result.player) {
    box.dataset.round = "";
    box.dataset.winner = "";
    replace(box, h("h2", { class: "board-section-title" }, t("board_last")), h("p", { class: "board-empty" }, t("board_no_result")));
    return;
  }
  const r = last.result;
  Object.assign(box.dataset, { round: String(last.round_id), number: String(last.number ?? ""), winner: r.winner, cards: (r.cards || []).join(" ") });
  const badges = [r.natural && t("natural"), r.banker_pair && t("banker_pair"), r.player_pair && t("player_pair")].filter(Boolean);
  replace(
    box,
    h(
      "h2",
      { class: "board-section-title" },
      h("span", {}, last.number ? `${t("board_last")} · ${t("round_n", { n: last.number })}` : t("board_last")),
      badges.length ? h("span", { class: "board-badges" }, ...badges.map((b) => h("span", { class: "board-badge" }, b))) : null,
    ),
    h("p", { class: `board-winner ${r.winner}`, "data-testid": "board-winner" }, t(`win_${r.winner}`)),
    h("div", { class: "board-hands" }, handBox("player", r.player, r.winner === "player"), handBox("banker", r.banker, r.winner === "banker")),
  );
}

/** One count: a label and a number (with its share). @param {string} cls @param {string} label @param {string|number} value @param {string} [extra] */
function stat(cls, label, value, extra) {
  return h("div", { class: `board-stat ${cls}`, "data-stat": cls }, h("dt", {}, label), h("dd", {}, h("span", { class: "board-stat-n" }, String(value)), extra ? h("small", {}, extra) : null));
}

/** The shoe's counts: Banker / Player / Tie with their shares, pairs, naturals, hands, longest runs. @param {import("./layout.js").Board} el @param {any} roads @param {any} stats */
export function renderStats(el, roads, stats) {
  const c = boardStats(roads, stats);
  el.stats.dataset.coups = String(c.coups);
  replace(
    el.stats,
    h("h2", { class: "board-section-title" }, `${t("board_stats")} · ${handsText(c.coups)}`),
    h(
      "dl",
      { class: "board-stat-list" },
      stat("banker", t("banker"), c.banker, share(c.banker, c.coups)),
      stat("player", t("player"), c.player, share(c.player, c.coups)),
      stat("tie", t("tie"), c.tie, share(c.tie, c.coups)),
      stat("banker-pair", t("banker_pair"), c.banker_pairs),
      stat("player-pair", t("player_pair"), c.player_pairs),
      stat("naturals", t("board_naturals"), c.naturals),
      stat("longest-banker", t("board_longest_banker"), c.longest_banker),
      stat("longest-player", t("board_longest_player"), c.longest_player),
    ),
  );
}

/** A number of hands in words ("1 hand", "5 hands"; "5 局"). @param {number} n */
export function handsText(n) {
  return n === 1 ? t("board_hands_one") : t("board_hands_n", { n });
}

/** The good roads the big road ends with (the server's patterns). @param {import("./layout.js").Board} el @param {any} roads @param {any} stats */
export function renderAlerts(el, roads, stats) {
  const alerts = currentAlerts(roads, stats);
  el.alerts.dataset.patterns = alerts.map((a) => a.pattern).join(" ");
  replace(
    el.alerts,
    h("h2", { class: "board-section-title" }, t("board_alerts")),
    alerts.length
      ? h("ul", { class: "board-alert-list" }, ...alerts.map((a) => h("li", { class: `board-alert ${a.side || ""}`, "data-pattern": a.pattern, "data-coups": a.coups }, alertText(a))))
      : h("p", { class: "board-empty" }, t("board_no_alerts")),
  );
}

/** The limits of each bet on the table's menu. @param {import("./layout.js").Board} el @param {any} table */
export function renderLimits(el, table) {
  const rows = limitsOf(table);
  replace(
    el.limits,
    h("h2", { class: "board-section-title" }, t("board_limits")),
    h(
      "ul",
      { class: "board-limit-list" },
      ...rows.map((row) =>
        h(
          "li",
          { "data-bet": row.bet, "data-min": row.min, "data-max": row.max, class: `board-limit ${row.bet}` },
          h("span", { class: "board-limit-name" }, betName(row.name)),
          h("span", { class: "board-limit-range" }, `${wholeAmount(money(row.min))} – ${wholeAmount(money(row.max))}`),
        ),
      ),
    ),
  );
}
