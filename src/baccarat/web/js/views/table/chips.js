// @ts-check
// The chip tray (one chip chosen, arrow keys move it) and the buttons that act on the chips:
// undo, clear, rebet, double, confirm.

import { h } from "../../dom.js";
import { chipLabel, money } from "../../format.js";
import { t } from "../../i18n.js";
import { canBet, confirmedTotal, pendingTotal } from "../../state.js";

/** The chips the page offers, in minor units. */
export const CHIPS = [100, 500, 1000, 5000, 10000, 50000, 100000, 500000];

/** The chips of a table: those up to its maximum. @param {{min_bet?: number, max_bet?: number}|null} table */
export function chipsOf(table) {
  if (!table) return [];
  return CHIPS.filter((value) => value <= (table.max_bet ?? Infinity));
}

/**
 * @param {HTMLElement} el @param {number[]} chips @param {number} chosen
 * @param {(value: number, focus: boolean) => void} pick
 */
export function renderChips(el, chips, chosen, pick) {
  el.setAttribute("aria-label", t("chips"));
  const keys = (/** @type {KeyboardEvent} */ event) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const i = chips.indexOf(chosen);
    pick(chips[(i + step + chips.length) % chips.length], true);
  };
  el.replaceChildren(
    ...chips.map((value) =>
      h(
        "button",
        {
          type: "button",
          role: "radio",
          class: `chip chip-${value}`,
          "data-value": value,
          "data-testid": `chip-${value}`,
          "aria-checked": value === chosen ? "true" : "false",
          "aria-label": t("chip_value", { v: money(value) }),
          tabindex: value === chosen ? "0" : "-1",
          onclick: () => pick(value, true),
          onkeydown: keys,
        },
        chipLabel(value),
      ),
    ),
  );
}

/**
 * @typedef {{undo: () => void, clear: () => void, rebet: () => void, double: () => void, confirm: () => void,
 *   autoConfirm: boolean, setAutoConfirm: (on: boolean) => void}} ChipActions
 * @param {HTMLElement} el @param {import("../../state.js").TableState} state @param {ChipActions} on
 */
export function renderActions(el, state, on) {
  const open = canBet(state);
  const button = (/** @type {string} */ id, /** @type {() => void} */ fn, /** @type {boolean} */ enabled) =>
    h("button", { type: "button", id, "data-testid": id, class: id === "confirm" ? "primary" : "", disabled: !enabled, onclick: fn }, t(id));
  el.replaceChildren(
    button("undo", on.undo, state.pending.length > 0),
    button("clear", on.clear, state.pending.length > 0),
    button("rebet", on.rebet, open && state.lastBets.length > 0),
    button("double", on.double, open && confirmedTotal(state) > 0),
    button("confirm", on.confirm, open && state.pending.length > 0),
    h(
      "label",
      { class: "auto-confirm", title: t("auto_confirm_help") },
      h("input", { type: "checkbox", "data-testid": "auto-confirm", checked: on.autoConfirm, onchange: (/** @type {Event} */ e) => on.setAutoConfirm(/** @type {HTMLInputElement} */ (e.target).checked) }),
      ` ${t("auto_confirm")}`,
    ),
    h("span", { class: "pending-total", id: "pending-total" }, `${t("pending")} ${money(pendingTotal(state))}`),
  );
}
