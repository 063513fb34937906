// @ts-check
// The road display board's frame: the head (table, shoe and round, the countdown, the connection, the
// language), the five roads, the last result, the shoe's counts, the good-road alerts and the limits.
// Where each part goes, landscape or portrait, is css/display.css's.

import { h } from "../../dom.js";
import { LANGS } from "../../i18n.js";

/** The language buttons' labels, in their own language. */
export const LANG_LABELS = { "zh-Hant": "繁", "zh-Hans": "简", en: "EN" };

/** The roads of the board, in the order they are laid out. */
export const ROADS = ["big_road", "bead_plate", "big_eye_boy", "small_road", "cockroach_pig"];

/** The test hooks of the roads that tests wait on. */
const TEST_IDS = { big_road: "board-big-road", bead_plate: "board-bead-plate" };

/**
 * @typedef {{
 *   board: HTMLElement, name: HTMLElement, sub: HTMLElement, phase: HTMLElement, phaseLabel: HTMLElement,
 *   seconds: HTMLElement, bar: HTMLElement, conn: HTMLElement, langs: HTMLElement, notice: HTMLElement,
 *   roads: Record<string, {figure: HTMLElement, caption: HTMLElement, box: HTMLElement}>,
 *   result: HTMLElement, stats: HTMLElement, alerts: HTMLElement, limits: HTMLElement,
 * }} Board
 */

/** One road: its caption and the box its SVG fills. @param {string} key */
function roadFrame(key) {
  const caption = h("figcaption", { class: "board-caption" });
  const box = h("div", { class: "board-road-box" });
  const figure = h("figure", { class: `board-road board-${key.replace(/_/g, "-")}`, "data-road": key, "data-testid": TEST_IDS[key] || `board-${key.replace(/_/g, "-")}` }, caption, box);
  return { figure, caption, box };
}

/** Build the board in `view`. @param {HTMLElement} view @param {(lang: string) => void} onLang @returns {Board} */
export function buildBoard(view, onLang) {
  const name = h("h1", { class: "board-name", "data-testid": "board-name" });
  const sub = h("p", { class: "board-sub", "data-testid": "board-shoe" });
  const phaseLabel = h("span", { class: "board-phase-label" });
  const seconds = h("span", { class: "board-seconds", "data-testid": "board-countdown", "aria-live": "off" });
  const bar = h("span", { class: "board-bar-fill" });
  const phase = h("div", { class: "board-phase", "data-testid": "board-phase" }, phaseLabel, seconds, h("span", { class: "board-bar", "aria-hidden": "true" }, bar));
  const conn = h("p", { class: "board-conn", role: "status", "data-testid": "board-conn" });
  const langs = h("div", { class: "board-langs", role: "group" });
  for (const code of LANGS) {
    langs.append(h("button", { type: "button", class: "board-lang", lang: code, "data-lang": code, "data-testid": `board-lang-${code}`, onclick: () => onLang(code) }, LANG_LABELS[code]));
  }
  const notice = h("div", { class: "board-notice", role: "alert", "data-testid": "board-notice" });
  /** @type {Record<string, {figure: HTMLElement, caption: HTMLElement, box: HTMLElement}>} */
  const roads = {};
  for (const key of ROADS) roads[key] = roadFrame(key);
  const result = h("section", { class: "board-result", "data-testid": "board-last-result", "aria-live": "polite" });
  const stats = h("section", { class: "board-stats", "data-testid": "board-stats" });
  const alerts = h("section", { class: "board-alerts", "data-testid": "board-alerts", "aria-live": "polite" });
  const limits = h("section", { class: "board-limits", "data-testid": "board-limits" });
  const board = h(
    "section",
    { class: "road-board", "data-testid": "board" },
    h("header", { class: "board-head" }, h("div", { class: "board-title" }, name, sub), phase, h("div", { class: "board-tools" }, conn, langs)),
    ...ROADS.map((key) => roads[key].figure),
    result,
    stats,
    alerts,
    limits,
    notice,
  );
  view.replaceChildren(board);
  return { board, name, sub, phase, phaseLabel, seconds, bar, conn, langs, notice, roads, result, stats, alerts, limits };
}
