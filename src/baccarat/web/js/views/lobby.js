// The lobby (大廳): every table with its variant, limits, main rules, players, state and a live Big Road.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { money } from "../format.js";
import { t, onLangChange } from "../i18n.js";
import { bigRoad } from "../roads.js";
import { TableSocket } from "../socket.js";
import { variantName } from "../variants.js";

/** Show the lobby in `view`; returns a function that leaves it. */
export function mountLobby(view) {
  const state = new Map();
  const sockets = [];
  const list = h("ul", { class: "lobby", id: "lobby", "aria-label": t("tables") });
  replace(view, h("h1", {}, t("tables")), list);

  function phase(table) {
    const round = table.round;
    if (!table.open) return t("closed");
    if (!round) return t("phase_waiting");
    return t(`phase_${round.status}`);
  }

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

  function draw(id) {
    const entry = state.get(id);
    const { table, roads, players } = entry;
    const item = h(
      "li",
      { class: "table-card", "data-table": table.id },
      h("h2", {}, h("a", { href: `#/table/${encodeURIComponent(table.id)}`, class: "join" }, table.name)),
      h(
        "dl",
        { class: "facts" },
        h("dt", {}, t("variant")), h("dd", { class: "variant" }, variantName(table.variant)),
        h("dt", {}, t("limits")), h("dd", {}, `${money(table.min_bet)} – ${money(table.max_bet)}`),
        h("dt", {}, t("dealing")), h("dd", {}, `${t(`dealing_${table.dealing}`)} · ${table.decks} ${t("decks")}`),
        h("dt", {}, t("status")), h("dd", { class: "table-phase" }, table.round ? `${t("round_n", { n: table.round.number })} · ${phase(table)}` : phase(table)),
        h("dt", {}, t("players")), h("dd", { class: "players", "data-players": players }, String(players)),
      ),
      h("ul", { class: "rules small", "aria-label": t("rules") }, ...mainRules(table).map((rule) => h("li", {}, rule))),
      h("div", { class: "thumb" }, roads ? bigRoad(roads, 18, 11) : h("span", { class: "muted" }, t("loading"))),
      h("a", { class: "button", href: `#/table/${encodeURIComponent(table.id)}`, "aria-label": `${t("join")} ${table.name}` }, t("join")),
    );
    if (entry.el) entry.el.replaceWith(item);
    else list.append(item);
    entry.el = item;
  }

  function follow(table) {
    const socket = new TableSocket(table.id, {
      onMessage(message) {
        const entry = state.get(table.id);
        if (!entry) return;
        if (message.type === "snapshot") {
          entry.table = message.state;
          entry.roads = message.state.roads;
          entry.players = message.state.players ?? entry.players;
        } else if (message.type === "round_settled" && message.roads) {
          entry.roads = message.roads;
          if (entry.table.round) entry.table.round.status = "settled";
        } else if (message.type === "betting_opened") {
          entry.table.round = { id: message.round_id, number: message.number, status: "betting" };
        } else if (message.type === "betting_closed") {
          if (entry.table.round) entry.table.round.status = "closed";
        } else if (message.type === "countdown") {
          if (message.players === undefined || message.players === entry.players) return;
          entry.players = message.players;
        } else if (["BettorJoined", "BettorLeft"].includes(message.type)) {
          entry.players = Math.max(0, entry.players + (message.type === "BettorJoined" ? 1 : -1));
        } else if (message.type === "shoe_started") {
          entry.roads = null;
        } else {
          return;
        }
        draw(table.id);
      },
    });
    sockets.push(socket);
  }

  let alive = true;
  api("/api/tables").then(({ tables }) => {
    if (!alive) return;
    for (const table of tables) {
      state.set(table.id, { table, roads: null, players: table.players ?? 0 });
      draw(table.id);
      follow(table);
    }
  });

  const off = onLangChange(() => {
    list.setAttribute("aria-label", t("tables"));
    view.querySelector("h1").textContent = t("tables");
    for (const id of state.keys()) draw(id);
  });
  return () => {
    alive = false;
    off();
    for (const socket of sockets) socket.close();
  };
}
