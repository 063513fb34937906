// The odds lab's chart: bankroll paths of simulated sessions, with the 10–90% band and the median.

import { s } from "./dom.js";
import { t } from "./i18n.js";

/** An SVG chart of chart.paths (one array per session) and chart.p10 / p50 / p90. */
export function bankrollChart(chart, { width = 640, height = 280 } = {}) {
  const pad = { left: 64, right: 12, top: 12, bottom: 28 };
  const series = [...chart.paths, chart.p10, chart.p90];
  const values = series.flat().filter((v) => Number.isFinite(v));
  const points = Math.max(...series.map((row) => row.length), 2);
  const lo = Math.min(0, ...values);
  const hi = Math.max(1, ...values);
  const x = (i) => pad.left + (i / (points - 1)) * (width - pad.left - pad.right);
  const y = (v) => pad.top + (1 - (v - lo) / (hi - lo || 1)) * (height - pad.top - pad.bottom);
  // A path through the finite points; a gap (a session that has ended: null) lifts the pen.
  const line = (row) => {
    let d = "";
    let pen = false;
    row.forEach((v, i) => {
      if (!Number.isFinite(v)) { pen = false; return; }
      d += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
    });
    return d;
  };
  const label = t("chart_title", { n: chart.paths.length, h: chart.hands_per_point });
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": label, preserveAspectRatio: "xMidYMid meet" });
  svg.append(s("title", {}, label));
  for (let k = 0; k <= 4; k += 1) {
    const v = lo + ((hi - lo) * k) / 4;
    svg.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "axis" }));
    svg.append(s("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, Math.round(v).toLocaleString()));
  }
  svg.append(s("text", { x: width - pad.right, y: height - 8, "text-anchor": "end", class: "tick" }, `${(points - 1) * chart.hands_per_point} ${t("hands")}`));
  // The band runs as far as both percentiles exist.
  let bandEnd = 0;
  while (bandEnd < chart.p10.length && Number.isFinite(chart.p10[bandEnd]) && Number.isFinite(chart.p90[bandEnd])) bandEnd += 1;
  if (bandEnd > 0) {
    const p10 = chart.p10.slice(0, bandEnd);
    const p90 = chart.p90.slice(0, bandEnd);
    const upper = p90.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
    const lower = p10.map((_, j) => {
      const i = p10.length - 1 - j;
      return `L${x(i).toFixed(1)},${y(p10[i]).toFixed(1)}`;
    }).join("");
    svg.append(s("path", { d: `${upper}${lower}Z`, class: "band" }, s("title", {}, t("percentile_band"))));
  }
  for (const row of chart.paths) svg.append(s("path", { d: line(row), class: "path" }));
  if (chart.p50.length) svg.append(s("path", { d: line(chart.p50), class: "median" }, s("title", {}, t("median"))));
  return svg;
}
