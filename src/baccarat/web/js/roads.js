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

/** The last `keep` columns, with room for the column of a mark asked about (`next`: [column, row]). */
function tail(columns, keep, next = null) {
  const used = next ? Math.max(columns.length, next[0] + 1) : columns.length;
  const start = Math.max(0, used - keep);
  return { start, cols: columns.slice(start) };
}

/**
 * The mark the ask road (問路) names, blinking where the road would draw it: `ask` is
 * {side: "banker"|"player", at: [column, row]|null, mark?: "R"|"B"} (the server's `ask_at`).
 * @param {any} roads @param {string} road @param {string|null} side
 */
export function askedMark(roads, road, side) {
  if (!side || !roads || !roads.ask_at || !roads.ask_at[side]) return null;
  const at = roads.ask_at[side][road];
  if (!at) return null;
  const mark = road === "bead_plate" || road === "big_road" ? (side === "banker" ? "B" : "P") : (roads.ask || {})[side]?.[road];
  return mark ? { at, mark } : null;
}

/**
 * Draw a mark asked about into its own blinking group. @param {Element} svg @param {number} start the first column shown
 * @param {{at: number[], mark: string}|null} next @param {number} cell
 * @param {(group: Element, cx: number, cy: number, mark: string) => void} draw
 */
function blinking(svg, start, next, cell, draw) {
  if (!next) return;
  const cx = (next.at[0] - start) * cell + cell / 2;
  const cy = next.at[1] * cell + cell / 2;
  const group = s("g", { class: "asked", "data-asked": next.mark });
  draw(group, cx, cy, next.mark);
  svg.append(group);
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

/** 珠盤路: one bead per coup, down the columns of six. @param {any} roads @param {number} [keep] @param {string|null} [asking] the side asked about */
export function beadPlate(roads, keep = 12, asking = null) {
  const columns = roads.bead_plate || [];
  const shown = Math.max(keep, 1);
  const next = askedMark(roads, "bead_plate", asking);
  const { start, cols } = tail(columns, shown, next && next.at);
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
  blinking(svg, start, next, cell, (g, cx, cy, mark) => {
    g.append(s("circle", { cx, cy, r: cell * 0.42, fill: COLOUR[mark], class: `bead bead-${mark}` }));
    g.append(s("text", { x: cx, y: cy + 4, class: "bead-text", "text-anchor": "middle" }, letter(mark)));
  });
  return svg;
}

/** 大路: hollow rings, a column per run, ties as a green slash with their count. @param {any} roads @param {number} [keep] @param {number} [cell] @param {string|null} [asking] */
export function bigRoad(roads, keep = 24, cell = 16, asking = null) {
  const grid = (roads.big_road && roads.big_road.grid) || [];
  const next = askedMark(roads, "big_road", asking);
  const { start, cols } = tail(grid, keep, next && next.at);
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
  blinking(svg, start, next, cell, (g, cx, cy, mark) =>
    g.append(s("circle", { cx, cy, r: cell * 0.36, fill: "none", stroke: COLOUR[mark], "stroke-width": Math.max(1.5, cell * 0.13), class: `ring ring-${mark}` })),
  );
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

/** 大眼仔, 小路 and 曱甴路: red and blue marks of the derived roads. @param {any} roads @param {string} road @param {number} [keep] @param {number} [cell] @param {string|null} [asking] */
export function derivedRoad(roads, road, keep = 24, cell = 11, asking = null) {
  const grid = (roads.derived && roads.derived[road] && roads.derived[road].grid) || [];
  const next = askedMark(roads, road, asking);
  const { start, cols } = tail(grid, keep, next && next.at);
  const marks = roads[road] || "";
  const reds = [...marks].filter((m) => m === "R").length;
  const svg = frame(keep, cell, `${t(road)}: R ${reds}, B ${marks.length - reds}`);
  cols.forEach((column, c) => {
    column.forEach((mark, r) => {
      if (mark) derivedMark(svg, road, mark, c * cell + cell / 2, r * cell + cell / 2, cell);
    });
  });
  blinking(svg, start, next, cell, (g, cx, cy, mark) => derivedMark(g, road, mark, cx, cy, cell));
  return svg;
}

/**
 * 問路: the mark each derived road would get if the next coup were Banker, or Player; with `onAsk`,
 * each side is a button. @param {any} roads @param {((side: string) => void)|null} [onAsk] @param {string|null} [asking]
 */
export function askRoad(roads, onAsk = null, asking = null) {
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
    const label = `${t(side === "banker" ? "ask_banker" : "ask_player")}: ${spoken}`;
    const parts = [h("span", { class: `ask-label ${side}` }, t(side === "banker" ? "ask_banker" : "ask_player")), svg];
    box.append(
      onAsk
        ? h("button", { type: "button", class: `ask-side ask-${side}`, "data-testid": `ask-${side}`, "aria-label": label, "aria-pressed": asking === side ? "true" : "false", onclick: () => onAsk(side) }, ...parts)
        : h("div", { class: `ask-side ask-${side}`, "aria-label": label }, ...parts),
    );
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
