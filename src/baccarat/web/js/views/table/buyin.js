// @ts-check
// The buy-in dialog: how much of the wallet comes to the table (default: all of it).

import { h } from "../../dom.js";
import { money } from "../../format.js";
import { t } from "../../i18n.js";

/**
 * The amount typed (major units, at most two decimals) in minor units, or why it is not valid.
 * @param {string} text @param {number} wallet @param {number} min
 * @returns {{amount?: number, error?: string}}
 */
export function parseAmount(text, wallet, min) {
  const clean = String(text).trim().replace(/[,\s]/g, "");
  if (wallet <= 0) return { error: t("buy_in_empty") };
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return { error: t("buy_in_invalid") };
  const [whole, cents = ""] = clean.split(".");
  const amount = Number(whole) * 100 + Number(cents.padEnd(2, "0"));
  if (!Number.isSafeInteger(amount)) return { error: t("buy_in_invalid") };
  if (amount < min) return { error: t("buy_in_too_low", { min: money(min) }) };
  if (amount > wallet) return { error: t("buy_in_too_much", { wallet: money(wallet) }) };
  return { amount };
}

export class BuyIn {
  /** @param {HTMLDialogElement} dialog @param {() => {user: any, min: number}} context */
  constructor(dialog, context) {
    this.dialog = dialog;
    this.context = context;
    /** @type {((value: number|null) => void)|null} */
    this.done = null;
    this.input = /** @type {HTMLInputElement} */ (h("input", { type: "text", inputmode: "decimal", name: "buy_in", id: "buy-in-amount", autocomplete: "off", required: true }));
    const form = h(
      "form",
      { method: "dialog", id: "buy-in-form", class: "auth", novalidate: true, onsubmit: (/** @type {Event} */ e) => this.submit(e) },
      h("h2", { id: "buy-in-title" }),
      h("label", {}, h("span", { id: "buy-in-label" }), " ", this.input),
      h("p", { class: "muted", id: "buy-in-hint" }),
      h("p", { class: "notice", id: "buy-in-error", role: "alert", "aria-live": "assertive" }),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "primary", id: "buy-in-confirm", value: "bring" }),
        h("button", { type: "button", id: "buy-in-cancel", onclick: () => this.close(null) }),
      ),
    );
    dialog.append(form);
    dialog.addEventListener("cancel", () => this.finish(null));
  }

  bounds() {
    const { user, min } = this.context();
    const wallet = user && typeof user.wallet === "number" ? user.wallet : user ? user.balance : 0;
    return { wallet, min: Math.min(min, Math.max(wallet, 1)) };
  }

  /** @param {string} selector */
  part(selector) {
    return /** @type {HTMLElement} */ (this.dialog.querySelector(selector));
  }

  draw() {
    const { wallet, min } = this.bounds();
    this.part("#buy-in-title").textContent = t("buy_in_title");
    this.part("#buy-in-label").textContent = t("buy_in");
    this.part("#buy-in-hint").textContent = t("buy_in_hint", { wallet: money(wallet), min: money(min) });
    this.part("#buy-in-confirm").textContent = t("bring");
    this.part("#buy-in-cancel").textContent = t("cancel");
  }

  /** Ask how much to bring; resolves to minor units, or null when cancelled. @returns {Promise<number|null>} */
  ask() {
    const { wallet } = this.bounds();
    this.input.value = (wallet / 100).toFixed(2);
    this.input.removeAttribute("aria-invalid");
    this.part("#buy-in-error").textContent = "";
    this.draw();
    if (this.done) this.finish(null);
    const answer = new Promise((resolve) => {
      this.done = resolve;
    });
    this.dialog.showModal();
    this.input.select();
    return /** @type {Promise<number|null>} */ (answer);
  }

  /** @param {Event} event */
  submit(event) {
    event.preventDefault();
    const { wallet, min } = this.bounds();
    const parsed = parseAmount(this.input.value, wallet, min);
    if (parsed.error) {
      this.input.setAttribute("aria-invalid", "true");
      const error = this.part("#buy-in-error");
      error.textContent = parsed.error;
      error.dataset.kind = "error";
      this.input.focus();
      return;
    }
    this.close(parsed.amount ?? null);
  }

  /** @param {number|null} value */
  finish(value) {
    const done = this.done;
    this.done = null;
    if (done) done(value);
  }

  /** @param {number|null} value */
  close(value) {
    this.finish(value);
    if (this.dialog.open) this.dialog.close();
  }
}
