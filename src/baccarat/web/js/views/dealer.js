// @ts-check
// The dealer's console (#/dealer/ID, tablet first): a dealer-entry table run from the table side
// (R18). It shows the position due next with the drawing rule that calls for it, takes each card
// tapped on the grid, typed or sent by a card reader (a code and Enter), corrects the last card,
// opens and closes betting, voids the round with a reason, and records the cut card and a new shoe
// (R6). Everything it shows comes from the server (GET /api/dealer/tables/ID, again after each
// table message), so a reload or a reconnect loses nothing.

import { api } from "../api.js";
import { cardElement, hiddenCard } from "../cards.js";
import { h, replace } from "../dom.js";
import { card, money } from "../format.js";
import { hasText, onLangChange, t } from "../i18n.js";
import { explain } from "../refusals.js";
import { askLogin, currentUser, onUserChange } from "../session.js";
import { TableSocket } from "../socket.js";
import { bySide, cardCode, cardGrid, handTotal, reasonText } from "./dealer/codes.js";
import "./dealer_texts.js";

/** Show the console of table `tableId` in `view`; returns a function that leaves it. @param {HTMLElement} view @param {string} tableId */
export function mountDealer(view, tableId) {
  /** @type {any} */
  let console_ = null;
  /** @type {TableSocket|null} */
  let socket = null;
  let correcting = false;
  let busy = false;
  let timer = 0;
  let refreshing = 0;
  const base = `/api/dealer/tables/${encodeURIComponent(tableId)}`;
  const el = layout(tableId);

  function allowed() {
    const user = currentUser();
    return Boolean(user && (user.role === "dealer" || user.role === "admin"));
  }

  function gate() {
    const user = currentUser();
    replace(
      view,
      h("h1", {}, t("dealer")),
      h("p", { class: "dealer-gate", role: "alert", "data-testid": "dealer-refused" },
        user ? t("dealer_refused", { name: user.name }) : t("dealer_login_needed")),
      h("button", { type: "button", class: "primary", onclick: askLogin }, t("dealer_login")),
    );
  }

  /** @type {(() => string)|null} */
  let said = null;

  /** Say what happened, in the page's language (written again when the language changes). @param {() => string} text @param {"info"|"error"} kind */
  function notice(text, kind) {
    said = text;
    el.notice.textContent = text();
    el.notice.dataset.kind = kind;
  }

  async function refresh() {
    try {
      console_ = await api(base);
      draw();
    } catch (error) {
      notice(() => explain(error), "error");
      if (error && /** @type {any} */ (error).status === 409) el.root.dataset.state = "not-dealer-entry";
    }
  }

  function soon() {
    clearTimeout(refreshing);
    refreshing = window.setTimeout(refresh, 80);
  }

  /** @param {string} path @param {unknown} [body] @param {(answer: any) => string} [done] */
  async function act(path, body, done) {
    if (busy) return;
    busy = true;
    el.root.dataset.busy = "true";
    try {
      const answer = await api(`${base}${path}`, { method: "POST", body });
      if (done) notice(() => done(answer), "info");
      await refresh();
    } catch (error) {
      notice(() => explain(error), "error");
    } finally {
      busy = false;
      delete el.root.dataset.busy;
      el.input.focus();
    }
  }

  /** @param {string} raw */
  function enter(raw) {
    const code = cardCode(raw);
    if (!code) {
      notice(() => explain({ code: "card.invalid", params: { card: raw }, detail: `unknown card ${raw}` }), "error");
      return;
    }
    el.input.value = "";
    if (console_ && console_.next === "burn") {
      act("/burn", { card: code }, (answer) => t("dealer_burned", { card: code, n: answer.burned }));
    } else if (correcting) {
      const last = console_ && console_.cards[console_.cards.length - 1];
      correcting = false;
      act("/cards/correct", { card: code }, () => t("dealer_corrected", { short: last ? last.short : "", card: code }));
    } else {
      const due = console_ && console_.due_short;
      act("/cards", { card: code }, () => t("dealer_entered", { short: due || "", card: code }));
    }
  }

  function draw() {
    if (!console_) return;
    drawHead(el, console_);
    drawDue(el, console_, correcting);
    drawHands(el, console_);
    drawTotals(el, console_);
    drawButtons(el, console_, correcting);
    tick();
  }

  function tick() {
    const round = console_ && console_.round;
    const open = console_ && console_.phase === "betting" && round && round.closes_at;
    const left = open ? Math.max(0, Math.ceil(round.closes_at - Date.now() / 1000)) : null;
    el.countdown.textContent = left === null ? "" : t("seconds_left", { s: left });
    el.countdown.dataset.seconds = left === null ? "" : String(left);
    const deadline = console_ && console_.reveal_deadline;
    const squeeze = deadline ? Math.max(0, Math.ceil(deadline - Date.now() / 1000)) : null;
    el.squeeze.textContent = squeeze === null ? "" : t("dealer_squeeze_left", { s: squeeze });
    if (console_ && console_.next === "wait_reveal") {
      const holder = console_.squeezers[console_.reveal_due];
      el.reveal.disabled = Boolean(holder) && squeeze !== null && squeeze > 0;
    }
  }

  el.form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (el.input.value.trim()) enter(el.input.value);
  });
  el.pad.addEventListener("click", (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest("button[data-card]");
    if (button) enter(/** @type {HTMLElement} */ (button).dataset.card || "");
  });
  el.openBetting.addEventListener("click", () => act("/open-betting", undefined, () => t("dealer_opened")));
  el.closeBetting.addEventListener("click", () => act("/close-betting", undefined, () => t("dealer_closed")));
  el.cutCard.addEventListener("click", () => act("/cut-card", undefined, () => t("dealer_cut_noted")));
  el.newShoe.addEventListener("click", () => act("/new-shoe", undefined, () => t("dealer_shoe_changed")));
  el.burnButton.addEventListener("click", () => act("/burn", undefined, (answer) => t("dealer_burned_n", { n: answer.burned })));
  el.reveal.addEventListener("click", () => {
    const side = console_ && console_.reveal_due;
    if (side) act("/reveal", { side }, () => t("dealer_revealed", { side: t(`${side}_side`) }));
  });
  el.correct.addEventListener("click", () => {
    correcting = !correcting;
    draw();
    el.input.focus();
  });
  el.voidButton.addEventListener("click", () => {
    el.voidReason.value = "";
    el.voidDialog.showModal();
    el.voidReason.focus();
  });
  el.voidForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const submitter = /** @type {SubmitEvent} */ (event).submitter;
    el.voidDialog.close();
    if (submitter && /** @type {HTMLButtonElement} */ (submitter).value === "cancel") return;
    const reason = el.voidReason.value.trim();
    act("/void", reason ? { reason } : undefined, (answer) => t("dealer_voided", { amount: money(answer.refunded) }));
  });
  el.root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && correcting) {
      correcting = false;
      draw();
    }
  });

  function start() {
    clearInterval(timer);
    if (socket) socket.close();
    socket = null;
    if (!allowed()) {
      gate();
      return;
    }
    replace(view, el.root);
    refresh();
    socket = new TableSocket(tableId, {
      onMessage: (message) => {
        if (message.type === "countdown") {
          // about once a second while betting: the stake on each spot, no need to ask again
          if (console_ && console_.phase === "betting") {
            console_.totals = message.totals;
            console_.players = message.players;
            drawTotals(el, console_);
          }
        } else if (message.type !== "pong") soon();
      },
      onState: (state) => {
        el.conn.dataset.state = state;
        if (state === "open") soon();
      },
    });
    timer = window.setInterval(tick, 250);
    el.input.focus();
  }

  const offUser = onUserChange(() => start());
  const offLang = onLangChange(() => {
    translateStatic(el);
    draw();
    if (said) el.notice.textContent = said();
  });
  start();
  return () => {
    offUser();
    offLang();
    clearInterval(timer);
    clearTimeout(refreshing);
    if (socket) socket.close();
  };
}

/** The console's fixed parts. @param {string} tableId */
function layout(tableId) {
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
function translateStatic(el) {
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
function drawHead(el, view) {
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
function drawDue(el, view, correcting) {
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
function drawHands(el, view) {
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
function drawTotals(el, view) {
  const entries = Object.entries(view.totals || {});
  if (!entries.length) {
    replace(el.totals, h("dt", {}, t("dealer_totals")), h("dd", { class: "muted" }, t("dealer_no_bets")));
    return;
  }
  replace(el.totals, ...entries.flatMap(([bet, stake]) => [h("dt", {}, hasText(bet) ? t(bet) : bet), h("dd", { "data-bet": bet }, money(Number(stake)))]));
}

/** @param {ReturnType<typeof layout>} el @param {any} view @param {boolean} correcting */
function drawButtons(el, view, correcting) {
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
