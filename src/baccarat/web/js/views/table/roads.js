// @ts-check
// The roads panel: bead plate, big road, the three derived roads and the ask road.

import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { askRoad, beadPlate, bigRoad, derivedRoad } from "../../roads.js";

const DERIVED = ["big_eye_boy", "small_road", "cockroach_pig"];

/** @param {HTMLElement} el @param {import("../../state.js").TableState} state */
export function renderRoads(el, state) {
  const roads = state.table && state.table.roads;
  if (!roads) return;
  const road = (/** @type {string} */ key, /** @type {Element} */ svg) =>
    h("figure", { class: `road road-${key}`, "data-road": key }, h("figcaption", {}, t(key)), h("div", { class: "road-scroll" }, svg));
  el.replaceChildren(
    road("bead_plate", beadPlate(roads, 12)),
    road("big_road", bigRoad(roads, 24, 16)),
    ...DERIVED.map((key) => road(key, derivedRoad(roads, key, 24, 11))),
    h("figure", { class: "road road-ask" }, h("figcaption", {}, t("ask_road")), askRoad(roads)),
  );
  el.dataset.results = roads.results || "";
}
