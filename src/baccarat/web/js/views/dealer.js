// @ts-check
// The dealer's console (#/dealer/ID, tablet first): a dealer-entry table run from the table side
// (R18). It shows the position due next with the drawing rule that calls for it, takes each card
// tapped on the grid, typed or sent by a card reader (a code and Enter), corrects the last card,
// opens and closes betting, voids the round with a reason, and records the cut card and a new shoe
// (R6). Everything it shows comes from the server (GET /api/dealer/tables/ID, again after each
// table message), so a reload or a reconnect loses nothing.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { money } from "../format.js";
import { onLangChange, t } from "../i18n.js";
import { explain } from "../refusals.js";
import { askLogin, currentUser, onUserChange } from "../session.js";
import { TableSocket } from "../socket.js";
import { cardCode } from "./dealer/codes.js";
import { drawButtons, drawDue, drawHands, drawHead, drawTotals, layout, translateStatic } from "./dealer/render.js";

/** One table's console: the server's view of it, the dealer's calls, the socket that tells of changes. */
class DealerConsole {
  /** @param {string} tableId */
  constructor(tableId) {
    this.tableId = tableId;
    this.base = `/api/dealer/tables/${encodeURIComponent(tableId)}`;
    this.el = layout(tableId);
    /** @type {any} */
    this.view = null;
    /** @type {TableSocket|null} */
    this.socket = null;
    /** @type {(() => string)|null} */
    this.said = null;
    this.correcting = false;
    this.busy = false;
    this.timer = 0;
    this.refreshing = 0;
    this.wireCards();
    this.wireActions();
  }

  /** Say what happened, in the page's language (written again when the language changes). @param {() => string} text @param {"info"|"error"} kind */
  notice(text, kind) {
    this.said = text;
    this.el.notice.textContent = text();
    this.el.notice.dataset.kind = kind;
  }

  async refresh() {
    try {
      this.view = await api(this.base);
      this.draw();
    } catch (error) {
      this.notice(() => explain(error), "error");
    }
  }

  soon() {
    clearTimeout(this.refreshing);
    this.refreshing = window.setTimeout(() => this.refresh(), 80);
  }

  /** A call to the server, and what to say when it is taken. @param {string} path @param {unknown} [body] @param {(answer: any) => string} [done] */
  async act(path, body, done) {
    if (this.busy) return;
    this.busy = true;
    this.el.root.dataset.busy = "true";
    try {
      const answer = await api(`${this.base}${path}`, { method: "POST", body });
      if (done) this.notice(() => done(answer), "info");
      await this.refresh();
    } catch (error) {
      this.notice(() => explain(error), "error");
    } finally {
      this.busy = false;
      delete this.el.root.dataset.busy;
      this.el.input.focus();
    }
  }

  /** A card tapped, typed or scanned: the burn's turned card, a correction, or the card due. @param {string} raw */
  enter(raw) {
    const code = cardCode(raw);
    if (!code) {
      this.notice(() => explain({ code: "card.invalid", params: { card: raw }, detail: `unknown card ${raw}` }), "error");
      return;
    }
    const view = this.view;
    this.el.input.value = "";
    if (view && view.next === "burn") {
      this.act("/burn", { card: code }, (answer) => t("dealer_burned", { card: code, n: answer.burned }));
    } else if (this.correcting) {
      const last = view && view.cards[view.cards.length - 1];
      this.correcting = false;
      this.act("/cards/correct", { card: code }, () => t("dealer_corrected", { short: last ? last.short : "", card: code }));
    } else {
      const due = view && view.due_short;
      this.act("/cards", { card: code }, () => t("dealer_entered", { short: due || "", card: code }));
    }
  }

  draw() {
    const view = this.view;
    if (!view) return;
    drawHead(this.el, view);
    drawDue(this.el, view, this.correcting);
    drawHands(this.el, view);
    drawTotals(this.el, view);
    drawButtons(this.el, view, this.correcting);
    this.tick();
  }

  /** The betting countdown and the squeeze's time (R23), four times a second. */
  tick() {
    const { el, view } = this;
    const round = view && view.round;
    const open = view && view.phase === "betting" && round && round.closes_at;
    const left = open ? Math.max(0, Math.ceil(round.closes_at - Date.now() / 1000)) : null;
    el.countdown.textContent = left === null ? "" : t("seconds_left", { s: left });
    el.countdown.dataset.seconds = left === null ? "" : String(left);
    const deadline = view && view.reveal_deadline;
    const squeeze = deadline ? Math.max(0, Math.ceil(deadline - Date.now() / 1000)) : null;
    el.squeeze.textContent = squeeze === null ? "" : t("dealer_squeeze_left", { s: squeeze });
    if (view && view.next === "wait_reveal") {
      const holder = view.squeezers[view.reveal_due];
      el.reveal.disabled = Boolean(holder) && squeeze !== null && squeeze > 0;
    }
  }

  /** The card field (typed or a card reader's code and Enter), the grid, the correction and Esc. */
  wireCards() {
    const el = this.el;
    el.form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (el.input.value.trim()) this.enter(el.input.value);
    });
    el.pad.addEventListener("click", (event) => {
      const button = /** @type {HTMLElement} */ (event.target).closest("button[data-card]");
      if (button) this.enter(/** @type {HTMLElement} */ (button).dataset.card || "");
    });
    el.correct.addEventListener("click", () => {
      this.correcting = !this.correcting;
      this.draw();
      el.input.focus();
    });
    el.root.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.correcting) {
        this.correcting = false;
        this.draw();
      }
    });
  }

  /** The dealer's calls: the shoe, betting, the squeeze, the cut card and the void with its reason. */
  wireActions() {
    const el = this.el;
    const call = (/** @type {HTMLElement} */ button, /** @type {string} */ path, /** @type {(answer: any) => string} */ done) =>
      button.addEventListener("click", () => this.act(path, undefined, done));
    call(el.openBetting, "/open-betting", () => t("dealer_opened"));
    call(el.closeBetting, "/close-betting", () => t("dealer_closed"));
    call(el.cutCard, "/cut-card", () => t("dealer_cut_noted"));
    call(el.newShoe, "/new-shoe", () => t("dealer_shoe_changed"));
    call(el.burnButton, "/burn", (answer) => t("dealer_burned_n", { n: answer.burned }));
    el.reveal.addEventListener("click", () => {
      const side = this.view && this.view.reveal_due;
      if (side) this.act("/reveal", { side }, () => t("dealer_revealed", { side: t(`${side}_side`) }));
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
      this.act("/void", reason ? { reason } : undefined, (answer) => t("dealer_voided", { amount: money(answer.refunded) }));
    });
  }

  /** Follow the table: its view now, then again after each of its messages. */
  start() {
    this.stop();
    this.refresh();
    this.socket = new TableSocket(this.tableId, {
      onMessage: (message) => {
        if (message.type === "countdown") {
          // about once a second while betting: the stake on each spot, no need to ask again
          if (this.view && this.view.phase === "betting") {
            this.view.totals = message.totals;
            this.view.players = message.players;
            drawTotals(this.el, this.view);
          }
        } else if (message.type !== "pong") this.soon();
      },
      onState: (state) => {
        this.el.conn.dataset.state = state;
        if (state === "open") this.soon();
      },
    });
    this.timer = window.setInterval(() => this.tick(), 250);
    this.el.input.focus();
  }

  stop() {
    clearInterval(this.timer);
    clearTimeout(this.refreshing);
    if (this.socket) this.socket.close();
    this.socket = null;
  }

  /** Write the page again in the language chosen. */
  retranslate() {
    translateStatic(this.el);
    this.draw();
    if (this.said) this.el.notice.textContent = this.said();
  }
}

/** The page for someone who may not use the console: not logged in, or neither dealer nor admin. @param {HTMLElement} view */
function gate(view) {
  const user = currentUser();
  replace(
    view,
    h("h1", {}, t("dealer")),
    h("p", { class: "dealer-gate", role: "alert", "data-testid": "dealer-refused" },
      user ? t("dealer_refused", { name: user.name }) : t("dealer_login_needed")),
    h("button", { type: "button", class: "primary", onclick: askLogin }, t("dealer_login")),
  );
}

/** Show the console of table `tableId` in `view`; returns a function that leaves it. @param {HTMLElement} view @param {string} tableId */
export function mountDealer(view, tableId) {
  const desk = new DealerConsole(tableId);
  const who = () => {
    const user = currentUser();
    return user ? `${user.id}:${user.role}` : "";
  };
  let drawnFor = who();
  function start() {
    const user = currentUser();
    drawnFor = who();
    desk.stop();
    if (!user || (user.role !== "dealer" && user.role !== "admin")) return gate(view);
    replace(view, desk.el.root);
    desk.start();
  }
  const offUser = onUserChange(() => {
    if (who() !== drawnFor) start(); // a new balance: the same console
  });
  const offLang = onLangChange(() => desk.retranslate());
  start();
  return () => {
    offUser();
    offLang();
    desk.stop();
  };
}
