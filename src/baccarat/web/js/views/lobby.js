// @ts-check
// The lobby (大廳): every table with its variant, limits, main rules and players, the round and the
// seconds of betting left, the shoe's Banker / Player / Tie counts, its good roads, and a live bead
// plate and Big Road. Each card follows its table's websocket (lobby/model.js keeps the data).

import { alertText } from "../alerts.js";
import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { money } from "../format.js";
import { t, onLangChange } from "../i18n.js";
import { beadPlate, bigRoad } from "../roads.js";
import { TableSocket } from "../socket.js";
import { variantName } from "../variants.js";
import { applyLobby, lobbyEntry, secondsLeft, shoeFacts } from "./lobby/model.js";
import "./lobby/texts.js";

const TICK_MS = 500;

/** @typedef {import("./lobby/model.js").LobbyEntry} LobbyEntry */

/** The round's phase in words. @param {LobbyEntry} entry */
function phase(entry) {
  if (entry.table.open === false) return t("closed");
  if (!entry.round) return t("phase_waiting");
  return `${t("round_n", { n: entry.round.number })} · ${t(`phase_${entry.round.status}`)}`;
}

/** The table's main rules in words. @param {any} table @returns {string[]} */
function mainRules(table) {
  const rules = table.rules || {};
  const list = [];
  if (rules.seats) list.push(t("rule_seats", { n: rules.seats }));
  if (rules.standing_bettors !== undefined) list.push(t(rules.standing_bettors ? "rule_standing" : "rule_no_standing"));
  if (rules.squeeze !== undefined) list.push(rules.squeeze ? t("rule_squeeze", { s: Math.round(rules.squeeze_seconds) }) : t("rule_no_squeeze"));
  if (rules.commission) list.push(t(`rule_commission_${rules.commission}`));
  if (rules.on_tie) list.push(t(`rule_tie_${rules.on_tie}`));
  if (rules.banker_multiple_of_minimum) list.push(t("rule_banker_multiple"));
  if (rules.banker_player_limit) list.push(t("rule_exposure", { v: money(rules.banker_player_limit) }));
  return list;
}

/** The countdown of a card: the seconds of betting left, empty when betting is not open. @param {HTMLElement} el @param {LobbyEntry} entry @param {number} now */
function showCountdown(el, entry, now) {
  const s = secondsLeft(entry, now);
  el.dataset.seconds = String(s);
  el.textContent = s > 0 ? t("seconds_left", { s }) : "";
  el.classList.toggle("urgent", s > 0 && s <= 5);
}

/** The shoe's counts and good roads. @param {LobbyEntry} entry */
function shoeRow(entry) {
  const { counts, alerts } = shoeFacts(entry);
  const count = (/** @type {string} */ cls, /** @type {string} */ label, /** @type {number} */ n) =>
    h("span", { class: `count ${cls}`, "data-count": cls }, h("b", {}, label), ` ${n}`);
  return [
    h(
      "p",
      { class: "lobby-counts", "data-testid": "lobby-counts", "aria-label": t("shoe_stats") },
      count("banker", t("banker"), counts.banker),
      count("player", t("player"), counts.player),
      count("tie", t("tie"), counts.tie),
      h("span", { class: "count hands muted" }, t("hands_n", { n: counts.coups })),
    ),
    h(
      "ul",
      { class: "lobby-alerts", "data-testid": "lobby-alerts", "aria-label": t("alerts_title") },
      ...alerts.map((alert) => h("li", { class: `road-badge ${alert.side || "jump"}`, "data-pattern": alert.pattern }, alertText(alert))),
    ),
  ];
}

/** One table's card. @param {LobbyEntry} entry @param {number} now */
function tableCard(entry, now) {
  const { table, roads } = entry;
  const href = `#/table/${encodeURIComponent(table.id)}`;
  const countdown = h("span", { class: "lobby-countdown", "data-testid": "lobby-countdown", role: "timer" });
  showCountdown(countdown, entry, now);
  const closed = table.open === false;
  return h(
    "li",
    { class: `table-card${closed ? " closed" : ""}`, "data-table": table.id, "data-status": entry.round ? entry.round.status : "waiting" },
    h("div", { class: "card-head" }, h("h2", {}, h("a", { href, class: "join" }, table.name)), countdown),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, t("variant")), h("dd", { class: "variant" }, variantName(table.variant)),
      h("dt", {}, t("limits")), h("dd", {}, `${money(table.min_bet)} – ${money(table.max_bet)}`),
      h("dt", {}, t("dealing")), h("dd", {}, `${t(`dealing_${table.dealing}`)} · ${table.decks} ${t("decks")}`),
      h("dt", {}, t("status")), h("dd", { class: "table-phase" }, phase(entry)),
      h("dt", {}, t("players")), h("dd", { class: "players", "data-players": entry.players }, String(entry.players)),
    ),
    h("ul", { class: "rules small", "aria-label": t("rules") }, ...mainRules(table).map((rule) => h("li", {}, rule))),
    ...(roads ? shoeRow(entry) : []),
    h(
      "div",
      { class: "thumb" },
      roads
        ? [h("div", { class: "thumb-bead" }, beadPlate(roads, 6)), h("div", { class: "thumb-big" }, bigRoad(roads, 14, 11))]
        : h("span", { class: "muted" }, t("loading")),
    ),
    closed
      ? h("span", { class: "button disabled", "aria-disabled": "true" }, t("closed"))
      : h("a", { class: "button", href, "aria-label": `${t("join")} ${table.name}` }, t("join")),
  );
}

/** Show the lobby in `view`; returns a function that leaves it. @param {HTMLElement} view */
export function mountLobby(view) {
  /** @type {Map<string, {entry: LobbyEntry, el: HTMLElement|null}>} */
  const cards = new Map();
  const sockets = [];
  const list = h("ul", { class: "lobby", id: "lobby", "aria-label": t("tables") });
  replace(view, h("h1", {}, t("tables")), list);

  /** @param {string} id */
  function draw(id) {
    const card = cards.get(id);
    if (!card) return;
    const item = tableCard(card.entry, Date.now());
    if (card.el) card.el.replaceWith(item);
    else list.append(item);
    card.el = item;
  }

  /** @param {any} table */
  function follow(table) {
    const socket = new TableSocket(table.id, {
      onMessage(/** @type {any} */ message) {
        const card = cards.get(table.id);
        if (!card) return;
        const before = card.entry;
        card.entry = applyLobby(before, message, Date.now());
        if (card.entry === before) return;
        if (message.type === "countdown" && card.entry.players === before.players) return; // the tick shows it
        draw(table.id);
      },
    });
    sockets.push(socket);
  }

  let alive = true;
  api("/api/tables").then(({ tables }) => {
    if (!alive) return;
    for (const table of tables) {
      cards.set(table.id, { entry: lobbyEntry(table), el: null });
      draw(table.id);
      follow(table);
    }
  });

  const ticker = window.setInterval(() => {
    const now = Date.now();
    for (const card of cards.values()) {
      const el = card.el && card.el.querySelector(".lobby-countdown");
      if (el instanceof HTMLElement) showCountdown(el, card.entry, now);
    }
  }, TICK_MS);

  const off = onLangChange(() => {
    list.setAttribute("aria-label", t("tables"));
    const title = view.querySelector("h1");
    if (title) title.textContent = t("tables");
    for (const id of cards.keys()) draw(id);
  });
  return () => {
    alive = false;
    window.clearInterval(ticker);
    off();
    for (const socket of sockets) socket.close();
  };
}
