// @ts-check
// The lab's perfect-knowledge bound (POST /api/lab/oracle: `simulate --strategy oracle`'s figures):
// one unit on each bet whenever its exact EV for the next coup is positive, knowing every card dealt.
// Two charts: each bet's expected and realised gain per shoe (with its 95% interval), and how often
// each bet is +EV by penetration (tenths of the shoe); and the figures as a table.

import { h, replace, s } from "../../dom.js";
import { pct } from "../../format.js";
import { betName, t } from "../../i18n.js";

/** Bar and line colours, one per bet, in the order the run lists them. */
const COLOURS = ["#ef5350", "#42a5f5", "#66bb6a", "#ab47bc", "#ffa726", "#26c6da", "#ec407a", "#d4e157", "#a1887f", "#7e57c2", "#ffee58", "#bdbdbd"];

/**
 * Each bet's gain per shoe: expected (the sum of its positive EVs) and realised, with the 95% interval.
 * @param {any} result @returns {{id: string, expected: number, realised: number, low: number, high: number}[]}
 */
export function gainBars(result) {
  return Object.entries(result.bets).map(([id, bet]) => ({
    id,
    expected: bet.expected_per_shoe.value,
    realised: bet.realised_per_shoe.value,
    low: bet.realised_per_shoe.ci95[0],
    high: bet.realised_per_shoe.ci95[1],
  }));
}

/**
 * Each bet's +EV share of the coups by tenth of the shoe, at the middle of each tenth; a tenth where
 * no coup started has no point.
 * @param {any} result @returns {{id: string, points: {x: number, y: number}[]}[]}
 */
export function depthSeries(result) {
  const { bins, coup_share: shares } = result.penetration;
  return Object.entries(shares).map(([id, values]) => ({
    id,
    points: /** @type {(number|null)[]} */ (values).flatMap((y, i) => (y === null ? [] : [{ x: (i + 0.5) / bins, y }])),
  }));
}

/** A range that holds every value and zero, a little wider. @param {number[]} values @returns {[number, number]} */
export function span(values) {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const pad = (high - low || 1) * 0.08;
  return [low - (low < 0 ? pad : 0), high + pad];
}

const PAD = { left: 84, right: 16, top: 12, bottom: 28 };

/** Horizontal bars per bet: expected gain per shoe, realised gain with its interval. @param {any} result @param {number} W */
function gainChart(result, W) {
  const bars = gainBars(result);
  const row = 26;
  const height = PAD.top + PAD.bottom + row * bars.length;
  // the axis holds every expected and realised gain; an interval wider than it is cut at its edge
  const [low, high] = span(bars.flatMap((b) => [b.expected, b.realised]));
  const x = (/** @type {number} */ v) => PAD.left + ((Math.min(high, Math.max(low, v)) - low) / (high - low)) * (W - PAD.left - PAD.right);
  const marks = bars.map((bar, i) => {
    const y = PAD.top + i * row;
    const colour = COLOURS[i % COLOURS.length];
    const left = Math.min(x(0), x(bar.expected));
    return s(
      "g",
      { "data-bet": bar.id },
      s("text", { x: PAD.left - 6, y: y + 16, "text-anchor": "end", class: "tick" }, oracleBetName(result, bar.id)),
      s("rect", { x: left, y: y + 4, width: Math.max(1, Math.abs(x(bar.expected) - x(0))), height: 9, fill: colour, opacity: 0.85 }),
      s("line", { x1: x(bar.low), x2: x(bar.high), y1: y + 19, y2: y + 19, stroke: colour, "stroke-width": 2 }),
      s("circle", { cx: x(bar.realised), cy: y + 19, r: 3.5, fill: colour }),
      s("title", {}, `${bar.id}: ${t("orc_expected")} ${bar.expected.toFixed(3)}, ${t("orc_realised")} ${bar.realised.toFixed(3)} (${bar.low.toFixed(3)}…${bar.high.toFixed(3)})`),
    );
  });
  // zero, and each end of the axis where it leaves room for its label
  const ends = [[low, "start"], [high, "end"]].filter(([v]) => Math.abs(x(Number(v)) - x(0)) > 48);
  const ticks = [[0, "middle"], ...ends].map(([v, anchor]) =>
    s("text", { x: x(Number(v)), y: height - 8, "text-anchor": anchor, class: "tick" }, Number(v).toFixed(2)),
  );
  return s(
    "svg",
    { viewBox: `0 0 ${W} ${height}`, class: "chart", id: "oracle-gain", role: "img", "aria-label": t("orc_gain_title") },
    s("line", { x1: x(0), x2: x(0), y1: PAD.top, y2: height - PAD.bottom, stroke: "currentColor", opacity: 0.5 }),
    ...marks,
    ...ticks,
  );
}

/** Lines per bet: the share of coups at +EV by penetration. @param {any} result @param {number} W */
function depthChart(result, W) {
  const series = depthSeries(result);
  const height = 260;
  const top = Math.max(0.01, ...series.flatMap((line) => line.points.map((p) => p.y))) * 1.1;
  const x = (/** @type {number} */ v) => 48 + v * (W - 48 - PAD.right);
  const y = (/** @type {number} */ v) => height - PAD.bottom - (v / top) * (height - PAD.top - PAD.bottom);
  const lines = series.map((line, i) =>
    s(
      "polyline",
      {
        points: line.points.map((p) => `${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(" "),
        fill: "none",
        stroke: COLOURS[i % COLOURS.length],
        "stroke-width": 2,
        "data-bet": line.id,
      },
      s("title", {}, line.id),
    ),
  );
  const xTicks = [0, 0.25, 0.5, 0.75, 1].map((v) => s("text", { x: x(v), y: height - 8, "text-anchor": "middle", class: "tick" }, `${v * 100}%`));
  const yTicks = [0, top / 2, top].map((v) => s("text", { x: 42, y: y(v) + 4, "text-anchor": "end", class: "tick" }, pct(v, 1)));
  return s(
    "svg",
    { viewBox: `0 0 ${W} ${height}`, class: "chart", id: "oracle-depth", role: "img", "aria-label": t("orc_depth_title") },
    s("line", { x1: x(0), x2: x(1), y1: y(0), y2: y(0), stroke: "currentColor", opacity: 0.5 }),
    ...lines,
    ...xTicks,
    ...yTicks,
  );
}

/** A bet's name in the page's language (the run names its bets in English and Chinese). @param {any} result @param {string} id */
export function oracleBetName(result, id) {
  const names = (result.names || {})[id];
  return names ? betName(names) : id;
}

/** The legend: each bet's colour and name. @param {any} result */
function legend(result) {
  return h(
    "ul",
    { class: "legend" },
    ...Object.keys(result.bets).map((id, i) =>
      h("li", {}, s("svg", { class: "swatch", viewBox: "0 0 10 10", "aria-hidden": "true" }, s("rect", { width: 10, height: 10, rx: 2, fill: COLOURS[i % COLOURS.length] })), oracleBetName(result, id)),
    ),
  );
}

/** The figures, bet by bet. @param {any} result */
function figuresTable(result) {
  const value = (/** @type {any} */ e, digits = 3) => (e ? e.value.toFixed(digits) : "–");
  const rows = Object.entries(result.bets).map(([id, bet]) =>
    h(
      "tr",
      { "data-bet": id },
      h("th", { scope: "row" }, oracleBetName(result, id)),
      h("td", {}, pct(bet.coup_share, 2)),
      h("td", {}, pct(bet.shoe_share, 1)),
      h("td", {}, bet.mean_edge ? pct(bet.mean_edge.value, 2) : "–"),
      h("td", {}, value(bet.expected_per_shoe)),
      h("td", {}, `${value(bet.realised_per_shoe)} (${bet.realised_per_shoe.ci95.map((/** @type {number} */ v) => v.toFixed(3)).join("…")})`),
    ),
  );
  const heads = ["bet", "orc_coups", "orc_shoes", "orc_edge", "orc_expected", "orc_realised"].map((key) => h("th", { scope: "col" }, t(key)));
  return h(
    "div",
    { class: "scroll-x" },
    h("table", { class: "sheet", id: "oracle-figures" }, h("thead", {}, h("tr", {}, ...heads)), h("tbody", {}, ...rows)),
  );
}

/** Draw an oracle run into `out`. @param {HTMLElement} out @param {any} result */
export function drawOracle(out, result) {
  // drawn at the width it is shown at (a phone's narrow chart keeps its text legible), 320–760 px
  const width = Math.round(Math.max(320, Math.min(760, out.clientWidth || 640)));
  replace(
    out,
    h("p", { id: "oracle-summary" }, t("orc_summary", { shoes: result.shoes, coups: result.coups, seconds: result.seconds.toFixed(1), seed: result.seed })),
    legend(result),
    h("h3", {}, t("orc_gain_title")),
    gainChart(result, width),
    h("p", { class: "muted" }, t("orc_gain_help")),
    h("h3", {}, t("orc_depth_title")),
    depthChart(result, width),
    figuresTable(result),
  );
}
