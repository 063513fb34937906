// @ts-check
// The dealer's console's page: its fixed parts and how each part draws the console's view.

import { cardElement, hiddenCard } from "../../cards.js";
import { h, replace } from "../../dom.js";
import { card, money } from "../../format.js";
import { hasText, t } from "../../i18n.js";
import { bySide, cardGrid, handTotal, reasonText } from "./codes.js";
import "../dealer_texts.js";

/** The console's fixed parts. @param {string} tableId */
export function layout(tableId) {
  const input = /** @type {HTMLInputElement} */ (
    h("input", { id: "dealer-card-input", "data-testid": "card-input", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "4", inputmode: "text" })
  );
  const button = (/** @type {string} */ id, /** @type {string} */ cls = "") =>
    /** @type {HTMLButtonElement} */ (h("button", { type: "button", id: `dealer-${id}`, "data-testid": id, class: cls }));
  const el = {
    root: h("section", { class: "dealer", "data-table": tableId, "aria-labelledby": "dealer-title" }),
    title: h("h1", { id: "dealer-title" }),
    status: h("ul", { class: "dealer-status", "aria-live": "polite" }),
    countdown: h("span", { class: "dealer-countdown", id: "dealer-countdown", role: "timer" }),
    conn: h("span", { class: "dealer-conn", id: "dealer-conn", "aria-hidden": "true" }),
    due: h("div", { class: "due", "data-testid": "due", id: "dealer-due", "aria-live": "assertive" }),
    next: h("p", { class: "dealer-next", id: "dealer-next" }),
    reasons: h("ol", { class: "dealer-reasons", id: "dealer-reasons" }),
    player: h("div", { class: "dealer-hand", "data-side": "player" }),
    banker: h("div", { class: "dealer-hand", "data-side": "banker" }),
    totals: h("dl", { class: "dealer-totals", id: "dealer-totals" }),
    form: h("form", { class: "dealer-entry", id: "dealer-entry", autocomplete: "off" }),
    input,
    inputLabel: h("label", { for: "dealer-card-input" }),
    enterButton: /** @type {HTMLButtonElement} */ (h("button", { type: "submit", class: "primary", "data-testid": "card-enter" })),
    pad: h("div", { class: "card-pad", id: "card-pad", role: "group" }),
    openBetting: button("open-betting", "primary"),
    closeBetting: button("close-betting", "primary"),
    correct: button("correct"),
    cutCard: button("cut-card"),
    burnButton: button("burn"),
    reveal: button("reveal"),
    squeeze: h("p", { class: "dealer-squeeze", id: "dealer-squeeze", role: "timer" }),
    newShoe: button("new-shoe"),
    voidButton: button("void", "danger"),
    notice: h("p", { class: "dealer-notice", id: "dealer-notice", role: "alert", "data-testid": "dealer-notice" }),
    keys: h("p", { class: "dealer-keys small muted" }),
    voidDialog: /** @type {HTMLDialogElement} */ (h("dialog", { id: "void-dialog", "aria-labelledby": "void-title" })),
    voidForm: h("form", { method: "dialog" }),
    voidReason: /** @type {HTMLInputElement} */ (h("input", { id: "void-reason", "data-testid": "void-reason", maxlength: "200" })),
    voidTitle: h("h2", { id: "void-title" }),
    voidConfirm: h("button", { type: "submit", value: "void", class: "danger", "data-testid": "void-confirm" }),
    voidCancel: h("button", { type: "submit", value: "cancel", class: "ghost", formnovalidate: true }),
  };
  el.form.append(el.inputLabel, input, el.enterButton);
  for (const row of cardGrid()) {
    el.pad.append(h("div", { class: "pad-row" }, ...row.map(padButton)));
  }
  el.voidForm.append(el.voidTitle, h("label", {}, el.voidReason), h("div", { class: "row" }, el.voidConfirm, el.voidCancel));
  el.voidDialog.append(el.voidForm);
  el.root.append(
    h("header", { class: "dealer-head" }, el.title, el.status, el.countdown, el.conn),
    h(
      "div",
      { class: "dealer-main" },
      h("div", { class: "dealer-table" }, el.due, el.next, el.squeeze, el.reasons, h("div", { class: "dealer-hands" }, el.player, el.banker), el.totals),
      h(
        "div",
        { class: "dealer-controls" },
        el.form,
        el.pad,
        h("div", { class: "dealer-actions" }, el.newShoe, el.burnButton, el.openBetting, el.closeBetting, el.correct, el.reveal, el.cutCard, el.voidButton),
        el.notice,
        el.keys,
      ),
    ),
    el.voidDialog,
  );
  translateStatic(el);
  return el;
}

/** A card of the grid: its rank and suit, red or black, named for a screen reader. @param {string} code */
function padButton(code) {
  const face = card(code);
  return h(
    "button",
    { type: "button", class: `pad-card${face.red ? " red" : ""}`, "data-card": code, "data-testid": `card-${code}`, "aria-label": face.spoken },
    h("span", { class: "rank" }, face.rank),
    h("span", { class: "suit" }, face.suit),
  );
}

/** The fixed texts, in the page's language. @param {ReturnType<typeof layout>} el */
export function translateStatic(el) {
  el.inputLabel.textContent = t("dealer_card_field");
  el.input.setAttribute("placeholder", "AS");
  el.enterButton.textContent = t("dealer_enter");
  el.pad.setAttribute("aria-label", t("dealer_pad"));
  el.openBetting.textContent = t("dealer_open_betting");
  el.closeBetting.textContent = t("dealer_close_betting");
  el.cutCard.textContent = t("dealer_cut_card");
  el.newShoe.textContent = t("dealer_new_shoe");
  el.burnButton.textContent = t("dealer_burn");
  el.reveal.textContent = t("dealer_reveal");
  el.voidButton.textContent = t("dealer_void");
  el.voidTitle.textContent = t("dealer_void");
  el.voidReason.setAttribute("aria-label", t("dealer_void_reason"));
  el.voidReason.setAttribute("placeholder", t("dealer_void_reason"));
  el.voidConfirm.textContent = t("dealer_void_confirm");
  el.voidCancel.textContent = t("dealer_cancel");
  el.keys.textContent = t("dealer_keys");
}

/** @param {ReturnType<typeof layout>} el @param {any} view */
export function drawHead(el, view) {
  el.root.dataset.phase = view.phase;
  el.root.dataset.next = view.next;
  el.title.textContent = t("dealer_title", { table: el.root.dataset.table || "" });
  const items = [
    h("li", { "data-field": "phase", "data-phase": view.phase }, t(`dealer_phase_${view.phase}`)),
    h("li", {}, t("dealer_shoe", { n: view.shoe_number })),
    h("li", {}, t("dealer_coup", { n: view.coup_number + (view.phase === "idle" ? 0 : 1) })),
    view.round ? h("li", { "data-round": view.round.id }, t("dealer_round", { n: view.round.number })) : null,
    h("li", {}, t("dealer_players", { n: view.players })),
    view.cut_card_at ? h("li", { class: "cut", "data-testid": "cut-card-out" }, t("dealer_cut_out", { n: view.cut_card_at })) : null,
    view.last_coup ? h("li", { class: "cut", "data-testid": "last-coup" }, t(view.phase === "idle" ? "dealer_next_is_last" : "dealer_last_coup")) : null,
  ];
  replace(el.status, ...items);
}

/** @param {ReturnType<typeof layout>} el @param {any} view @param {boolean} correcting */
export function drawDue(el, view, correcting) {
  const last = view.cards[view.cards.length - 1];
  el.due.dataset.due = view.due || "";
  el.due.dataset.correcting = correcting ? "true" : "false";
  if (view.next === "burn") {
    const say = view.burn_cards === null ? t("dealer_burn_turn") : t("dealer_burn_n", { n: view.burn_cards });
    replace(el.due, h("span", { class: "due-short" }, t("dealer_burn_short")), h("span", { class: "due-label" }, say));
  } else if (view.next === "new_shoe") {
    replace(el.due, h("span", { class: "due-label" }, t("dealer_next_new_shoe")));
  } else if (correcting && last) {
    replace(el.due, h("span", { class: "due-short" }, last.short), h("span", { class: "due-label" }, t("dealer_correcting", { short: last.short, card: last.card || "?" })));
  } else if (view.due) {
    replace(el.due, h("span", { class: "due-short" }, view.due_short), h("span", { class: "due-label" }, t(`pos_${view.due}`)));
  } else {
    replace(el.due, h("span", { class: "due-label" }, t("dealer_due_none")));
  }
  const holder = view.reveal_due ? view.squeezers[view.reveal_due] : null;
  const side = view.reveal_due ? `${t(`${view.reveal_due}_side`)}${holder ? ` (${holder})` : ""}` : "";
  el.next.textContent = t(`dealer_next_${view.next}`, { side });
  replace(el.reasons, ...view.explained.map((/** @type {any} */ reason) => h("li", { "data-code": reason.code }, reasonText(reason))));
  el.reasons.setAttribute("aria-label", t("dealer_reasons"));
}

/** @param {ReturnType<typeof layout>} el @param {any} view */
export function drawHands(el, view) {
  const sides = bySide(view.cards);
  for (const side of /** @type {const} */ (["player", "banker"])) {
    const cards = sides[side];
    const total = cards.length ? handTotal(cards.map((c) => c.card)) : null;
    replace(
      el[side],
      h("h2", {}, t(`${side}_side`), total === null ? "" : h("span", { class: "dealer-total", "data-total": total }, ` ${total}`)),
      h("div", { class: "dealer-cards" }, ...cards.map((c) => h("figure", { "data-position": c.position }, c.card ? cardElement(c.card, { up: true }) : hiddenCard(), h("figcaption", {}, c.short)))),
    );
  }
}

/** @param {ReturnType<typeof layout>} el @param {any} view */
export function drawTotals(el, view) {
  const entries = Object.entries(view.totals || {});
  if (!entries.length) {
    replace(el.totals, h("dt", {}, t("dealer_totals")), h("dd", { class: "muted" }, t("dealer_no_bets")));
    return;
  }
  replace(el.totals, ...entries.flatMap(([bet, stake]) => [h("dt", {}, hasText(bet) ? t(bet) : bet), h("dd", { "data-bet": bet }, money(Number(stake)))]));
}

/** @param {ReturnType<typeof layout>} el @param {any} view @param {boolean} correcting */
export function drawButtons(el, view, correcting) {
  el.openBetting.disabled = view.phase !== "idle" || !view.dealer_paced;
  el.burnButton.disabled = view.next !== "burn" || view.burn_cards === null;
  el.reveal.disabled = view.next !== "wait_reveal";
  el.closeBetting.disabled = view.phase !== "betting";
  el.correct.disabled = !view.can_correct;
  el.correct.textContent = correcting ? t("dealer_cancel_correct") : t("dealer_correct");
  el.correct.setAttribute("aria-pressed", correcting ? "true" : "false");
  el.cutCard.disabled = view.cut_card_at !== null || view.shoe_over;
  el.newShoe.disabled = view.phase !== "idle";
  el.voidButton.disabled = view.round === null || view.phase === "idle";
  // the card field stays open: a card reader may send a card at any time, and the server says why
  // one is refused; the grid is for the cards due
  const entering = view.next === "enter_card" || (view.next === "burn" && view.burn_cards === null) || correcting;
  for (const pad of el.pad.querySelectorAll("button")) /** @type {HTMLButtonElement} */ (pad).disabled = !entering;
}
