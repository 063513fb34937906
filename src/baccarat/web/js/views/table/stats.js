// @ts-check
// The shoe statistics panel: hands dealt, Banker / Player / Tie with their shares, the pairs.

import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { shoeStats } from "../../roads.js";

/** @param {HTMLElement} el @param {import("../../state.js").TableState} state */
export function renderStats(el, state) {
  const roads = state.table && state.table.roads;
  if (!roads) return;
  const c = shoeStats(roads);
  const pct = (/** @type {number} */ n) => (c.n ? `${((n / c.n) * 100).toFixed(1)}%` : "–");
  el.replaceChildren(
    h(
      "dl",
      { class: "stat-list" },
      h("dt", {}, t("hands")), h("dd", { id: "stat-hands" }, String(c.n)),
      h("dt", { class: "banker" }, t("banker")), h("dd", {}, `${c.B} (${pct(c.B)})`),
      h("dt", { class: "player" }, t("player")), h("dd", {}, `${c.P} (${pct(c.P)})`),
      h("dt", { class: "tie" }, t("tie")), h("dd", {}, `${c.T} (${pct(c.T)})`),
      h("dt", {}, t("banker_pair")), h("dd", {}, String(c.bp)),
      h("dt", {}, t("player_pair")), h("dd", {}, String(c.pp)),
    ),
  );
}
