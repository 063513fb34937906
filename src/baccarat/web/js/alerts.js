// @ts-check
// Good roads 好路: which of the server's pattern runs (`stats.patterns`: long Banker / Player 長龍,
// single jump 單跳, double jump 雙跳, two Banker one Player, one Banker two Player) the big road ends
// with now, and their words. The road display board, the table and the lobby all show them.

import { extend, t } from "./i18n.js";

extend({
  "zh-Hant": {
    alert_long_banker: "長莊（長龍）",
    alert_long_player: "長閒（長龍）",
    alert_single_jump: "單跳",
    alert_double_jump: "雙跳",
    alert_two_banker_one_player: "兩莊一閒",
    alert_one_banker_two_player: "一莊兩閒",
    alert_streak: "{n} 連",
    alert_hands_n: "{n} 局",
    alert_hands_one: "1 局",
    alerts_title: "好路",
  },
  en: {
    alert_long_banker: "Banker dragon",
    alert_long_player: "Player dragon",
    alert_single_jump: "Ping-pong (single jump)",
    alert_double_jump: "Double jump",
    alert_two_banker_one_player: "Two Banker, one Player",
    alert_one_banker_two_player: "One Banker, two Player",
    alert_streak: "{n} in a row",
    alert_hands_n: "{n} hands",
    alert_hands_one: "1 hand",
    alerts_title: "Good roads",
  },
});

/**
 * A good road of the big road; `side` is the dragon's (null for the jumps and the mixed patterns).
 * @typedef {{pattern: string, coups: number, columns: number, side: "banker"|"player"|null}} Alert
 */

/** The big road's logical columns. @param {any} roads @returns {any[][]} */
function bigRoadColumns(roads) {
  const big = roads && roads.big_road;
  if (big && Array.isArray(big.columns)) return big.columns;
  // an older answer without `columns`: the grid's columns are the logical ones when no run bent
  return ((big && big.grid) || []).map((/** @type {any[]} */ column) => column.filter(Boolean));
}

/**
 * The good roads the big road ends with now: the server's pattern runs (`stats.patterns`) whose last
 * column is the big road's last, longest first. The server detects them (long Banker / Player
 * 長龍 of 4 or more, single jump 單跳, double jump 雙跳, two Banker one Player, one Banker two
 * Player); this only picks the current ones.
 * @param {any} roads @param {any} stats @returns {Alert[]}
 */
export function currentAlerts(roads, stats) {
  const columns = bigRoadColumns(roads);
  if (!stats || !Array.isArray(stats.patterns) || !columns.length) return [];
  if (typeof stats.coups === "number" && stats.coups !== ((roads && roads.results) || "").length) return [];
  const last = columns.length - 1;
  /** @type {Alert[]} */
  const found = [];
  for (const run of stats.patterns) {
    if (run.first_column + run.columns - 1 !== last) continue;
    const side = run.pattern === "long_banker" ? "banker" : run.pattern === "long_player" ? "player" : null;
    found.push({ pattern: run.pattern, coups: run.coups, columns: run.columns, side });
  }
  return found.sort((a, b) => b.coups - a.coups);
}

/** The words of one alert: its name, and its length (a dragon in a row, the others in hands). @param {Alert} alert */
export function alertText(alert) {
  const name = t(`alert_${alert.pattern}`);
  const long = alert.pattern === "long_banker" || alert.pattern === "long_player";
  return `${name} · ${long ? t("alert_streak", { n: alert.coups }) : alert.coups === 1 ? t("alert_hands_one") : t("alert_hands_n", { n: alert.coups })}`;
}
