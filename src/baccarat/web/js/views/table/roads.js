// @ts-check
// The roads panel: bead plate, big road, the three derived roads and the ask road. Tapping a side of
// the ask road (問路) makes the mark the next coup would add blink on every road, as the server's
// `ask_at` places it, for ASK_MS.

import { alertText, currentAlerts } from "../../alerts.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { askRoad, beadPlate, bigRoad, derivedRoad } from "../../roads.js";

const DERIVED = ["big_eye_boy", "small_road", "cockroach_pig"];
/** How long the asked marks blink. */
export const ASK_MS = 3500;

/**
 * @param {HTMLElement} el @param {import("../../state.js").TableState} state
 * @param {{asking?: string|null, onAsk?: ((side: string) => void)|null}} [ask] the side asked about now, and what a tap does
 */
export function renderRoads(el, state, { asking = null, onAsk = null } = {}) {
  const roads = state.table && state.table.roads;
  if (!roads) return;
  const road = (/** @type {string} */ key, /** @type {Element} */ svg) =>
    h("figure", { class: `road road-${key}`, "data-road": key }, h("figcaption", {}, t(key)), h("div", { class: "road-scroll" }, svg));
  const alerts = currentAlerts(roads, state.table && state.table.stats);
  el.replaceChildren(
    h(
      "ul",
      { class: "road-alerts", "data-testid": "table-alerts", "aria-label": t("alerts_title"), "data-patterns": alerts.map((a) => a.pattern).join(" ") },
      ...alerts.map((a) => h("li", { class: `road-alert ${a.side || ""}`, "data-pattern": a.pattern }, alertText(a))),
    ),
    road("bead_plate", beadPlate(roads, 12, asking)),
    road("big_road", bigRoad(roads, 24, 16, asking)),
    ...DERIVED.map((key) => road(key, derivedRoad(roads, key, 24, 11, asking))),
    h("figure", { class: "road road-ask" }, h("figcaption", {}, t("ask_road")), askRoad(roads, onAsk, asking)),
  );
  el.dataset.results = roads.results || "";
  if (asking) el.dataset.asking = asking;
  else delete el.dataset.asking;
}

/** The Big Road strip on the felt (a phone's first screen; the board has the full roads). @param {HTMLElement} el @param {import("../../state.js").TableState} state */
export function renderStrip(el, state) {
  const roads = state.table && state.table.roads;
  if (!roads) return;
  el.replaceChildren(bigRoad(roads, 20, 14));
  el.setAttribute("aria-label", t("big_road"));
}
