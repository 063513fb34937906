// The five roads (路單) and the ask road (問路) drawn in SVG from the server's Scoreboard JSON.

import { s, h } from "./dom.js";
import { chinese, t, lang } from "./i18n.js";

const COLOUR = { B: "var(--banker)", P: "var(--player)", T: "var(--tie)", R: "var(--banker)" };
const ROWS = 6;

function letter(result) {
  if (lang() !== "en") return chinese({ B: "莊", P: "閒", T: "和" }[result] || result);
  return result;
}

function frame(columns, cell, label) {
  const width = columns * cell;
  const height = ROWS * cell;
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: "road-svg",
    role: "img",
    "aria-label": label,
  });
  for (let c = 0; c <= columns; c += 1) svg.append(s("line", { x1: c * cell, y1: 0, x2: c * cell, y2: height, class: "grid" }));
  for (let r = 0; r <= ROWS; r += 1) svg.append(s("line", { x1: 0, y1: r * cell, x2: width, y2: r * cell, class: "grid" }));
  return svg;
}

function tail(columns, keep) {
  const start = Math.max(0, columns.length - keep);
  return { start, cols: columns.slice(start) };
}

function pairDots(svg, cell, cx, cy, item, size) {
  const r = Math.max(1.5, size * 0.14);
  if (item.banker_pair) svg.append(s("circle", { cx: cx - size * 0.34, cy: cy - size * 0.34, r, fill: COLOUR.B, class: "pair" }));
  if (item.player_pair) svg.append(s("circle", { cx: cx + size * 0.34, cy: cy + size * 0.34, r, fill: COLOUR.P, class: "pair" }));
}

function summary(results) {
  const counts = { B: 0, P: 0, T: 0 };
  for (const ch of results || "") if (ch in counts) counts[ch] += 1;
  return `${t("banker")} ${counts.B}, ${t("player")} ${counts.P}, ${t("tie")} ${counts.T}`;
}

/** 珠盤路: one bead per coup, down the columns of six. */
export function beadPlate(roads, keep = 12) {
  const columns = roads.bead_plate || [];
  const shown = Math.max(keep, 1);
  const { cols } = tail(columns, shown);
  const cell = 22;
  const svg = frame(shown, cell, `${t("bead_plate")}: ${summary(roads.results)}`);
  cols.forEach((column, c) => {
    column.forEach((bead, r) => {
      if (!bead) return;
      const cx = c * cell + cell / 2;
      const cy = r * cell + cell / 2;
      svg.append(s("circle", { cx, cy, r: cell * 0.42, fill: COLOUR[bead.result], class: `bead bead-${bead.result}` }));
      svg.append(s("text", { x: cx, y: cy + 4, class: "bead-text", "text-anchor": "middle" }, letter(bead.result)));
      pairDots(svg, cell, cx, cy, bead, cell);
    });
  });
  return svg;
}

/** 大路: hollow rings, a column per run, ties as a green slash with their count. */
export function bigRoad(roads, keep = 24, cell = 16) {
  const grid = (roads.big_road && roads.big_road.grid) || [];
  const { cols } = tail(grid, keep);
  const svg = frame(keep, cell, `${t("big_road")}: ${summary(roads.results)}`);
  const leading = (roads.big_road && roads.big_road.leading_ties) || 0;
  if (leading && !grid.length) {
    const c = cell / 2;
    svg.append(s("line", { x1: c - cell * 0.3, y1: c + cell * 0.3, x2: c + cell * 0.3, y2: c - cell * 0.3, stroke: COLOUR.T, "stroke-width": 2, class: "leading-tie" }));
    if (leading > 1) svg.append(s("text", { x: c, y: c + 3, class: "tie-count", "text-anchor": "middle" }, String(leading)));
  }
  cols.forEach((column, c) => {
    column.forEach((item, r) => {
      if (!item) return;
      const cx = c * cell + cell / 2;
      const cy = r * cell + cell / 2;
      svg.append(
        s("circle", {
          cx, cy, r: cell * 0.36, fill: "none", stroke: COLOUR[item.result], "stroke-width": Math.max(1.5, cell * 0.13),
          class: `ring ring-${item.result}`,
        }),
      );
      if (item.ties) {
        svg.append(s("line", { x1: cx - cell * 0.3, y1: cy + cell * 0.3, x2: cx + cell * 0.3, y2: cy - cell * 0.3, stroke: COLOUR.T, "stroke-width": 2 }));
        if (item.ties > 1) svg.append(s("text", { x: cx, y: cy + 3, class: "tie-count", "text-anchor": "middle" }, String(item.ties)));
      }
      pairDots(svg, cell, cx, cy, item, cell);
    });
  });
  return svg;
}

function derivedMark(svg, road, mark, cx, cy, size) {
  const colour = mark === "R" ? "var(--banker)" : "var(--player)";
  if (road === "big_eye_boy") {
    svg.append(s("circle", { cx, cy, r: size * 0.34, fill: "none", stroke: colour, "stroke-width": 1.6, class: `mark mark-${mark}` }));
  } else if (road === "small_road") {
    svg.append(s("circle", { cx, cy, r: size * 0.36, fill: colour, class: `mark mark-${mark}` }));
  } else {
    svg.append(s("line", { x1: cx - size * 0.34, y1: cy + size * 0.34, x2: cx + size * 0.34, y2: cy - size * 0.34, stroke: colour, "stroke-width": 2, class: `mark mark-${mark}` }));
  }
}

/** 大眼仔, 小路 and 曱甴路: red and blue marks of the derived roads. */
export function derivedRoad(roads, road, keep = 24, cell = 11) {
  const grid = (roads.derived && roads.derived[road] && roads.derived[road].grid) || [];
  const { cols } = tail(grid, keep);
  const marks = roads[road] || "";
  const reds = [...marks].filter((m) => m === "R").length;
  const svg = frame(keep, cell, `${t(road)}: R ${reds}, B ${marks.length - reds}`);
  cols.forEach((column, c) => {
    column.forEach((mark, r) => {
      if (mark) derivedMark(svg, road, mark, c * cell + cell / 2, r * cell + cell / 2, cell);
    });
  });
  return svg;
}

/** 問路: the mark each derived road would get if the next coup were Banker, or Player. */
export function askRoad(roads) {
  const ask = roads.ask || {};
  const box = h("div", { class: "ask", role: "group", "aria-label": t("ask_road") });
  for (const side of ["banker", "player"]) {
    const marks = ask[side] || {};
    const cell = 16;
    const svg = s("svg", { viewBox: `0 0 ${cell * 3} ${cell}`, width: cell * 3, height: cell, "aria-hidden": "true" });
    ["big_eye_boy", "small_road", "cockroach_pig"].forEach((road, i) => {
      if (marks[road]) derivedMark(svg, road, marks[road], i * cell + cell / 2, cell / 2, cell);
    });
    const spoken = ["big_eye_boy", "small_road", "cockroach_pig"].map((road) => `${t(road)} ${marks[road] || "–"}`).join(", ");
    box.append(h("div", { class: `ask-side ask-${side}`, "aria-label": `${t(side === "banker" ? "ask_banker" : "ask_player")}: ${spoken}` }, h("span", { class: `ask-label ${side}` }, t(side === "banker" ? "ask_banker" : "ask_player")), svg));
  }
  return box;
}

/** Shoe statistics from the roads: counts of each result and pair. */
export function shoeStats(roads) {
  const counts = { B: 0, P: 0, T: 0, bp: 0, pp: 0, n: 0 };
  for (const column of roads.bead_plate || []) {
    for (const bead of column) {
      if (!bead) continue;
      counts[bead.result] += 1;
      counts.n += 1;
      if (bead.banker_pair) counts.bp += 1;
      if (bead.player_pair) counts.pp += 1;
    }
  }
  return counts;
}
