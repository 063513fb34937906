// @ts-check
// A table's page (#/table/ID): the table's state (state.js, the reducer over the server's messages),
// the panels' elements, and the round trips to the server (the table's public state, this user at
// the table, the table actions). Drawing is draw.js's, the player's moves actions.js's, what each
// message does besides changing the state effects.js's, and the recall of past rounds recall.js's.

import { api } from "../../api.js";
import { toast } from "../../dom.js";
import { money } from "../../format.js";
import { t, betName, onLangChange } from "../../i18n.js";
import { askLogin, currentUser, onUserChange, refreshUser, setUser } from "../../session.js";
import { TableSocket } from "../../socket.js";
import { apply, confirmedStakes, initialState, me, pendingTotal } from "../../state.js";
import { bindControls, seatActions } from "./actions.js";
import { autoConfirmOn } from "./autoconfirm.js";
import { BuyIn } from "./buyin.js";
import { Cues } from "./cues.js";
import { drawAll, drawHead, drawNotice, drawSpots, drawSqueeze, noticeText, tick } from "./draw.js";
import { sideEffects } from "./effects.js";
import { Hands } from "./hands.js";
import { buildLayout } from "./layout.js";
import { loadMyRounds, recall } from "./recall.js";
import { renderSeats } from "./seats.js";

const STATE_MS = 150; // the table's state is asked for at most this often (a burst of events, one ask)
const TICK_MS = 250;

/**
 * @typedef {{kind: string, key?: string, params?: any, money?: boolean, variant?: string, detail?: string, refusal?: any}} Notice
 * @typedef {{chip: number, notice: Notice|null, dealing: boolean, bannerUntil: number, warnedRound: number|null, tables: any[], recalled: number|null,
 *   shownPays: Set<string>, autoConfirm: boolean, autoSent: number|null}} PageOnly
 */

export class TablePage {
  /** @param {HTMLElement} view @param {string} tableId */
  constructor(view, tableId) {
    this.view = view;
    this.tableId = tableId;
    /** @type {import("../../state.js").TableState} */
    this.state = apply(initialState(), { type: "local_user", user: currentUser() });
    /** @type {PageOnly} page-only state: the chip chosen, the notice, the deal animation, the result's time on screen */
    this.ui = { chip: 1000, notice: null, dealing: false, bannerUntil: 0, warnedRound: null, tables: [], recalled: null, shownPays: new Set(), autoConfirm: autoConfirmOn(), autoSent: null };
    const el = (this.el = buildLayout(view));
    this.hands = new Hands({ player: el.playerHand, banker: el.bankerHand, playerTotal: el.playerTotal, bankerTotal: el.bankerTotal, squeeze: el.squeezeBar });
    this.cues = new Cues(el.cue, el.soundToggle);
    this.buyIn = new BuyIn(el.buyIn, () => ({ user: currentUser(), min: this.state.table ? this.state.table.min_bet || 1 : 1 }));
    /** @type {string|null} the side of the ask road (問路) whose next marks blink */
    this.asking = null;
    this.askTimer = 0;
    this.stateAsked = -Infinity;
    this.stateTimer = 0;
    this.alive = true;
    /** @type {number|null} the user the page last asked the server about */
    this.userId = this.state.user ? this.state.user.id : null;
    bindControls(this);
    drawAll(this);
    this.socket = new TableSocket(tableId, {
      onMessage: (/** @type {any} */ message) => this.onMessage(message),
      onState: (/** @type {string} */ connection, /** @type {number|undefined} */ retryAt) => this.dispatch({ type: "local_connection", connection, retryAt }),
    });
    this.start();
  }

  /** What the page starts besides the socket: the other tables, this player's rounds, the tick, language and user changes. */
  start() {
    api("/api/tables")
      .then(({ tables }) => {
        this.ui.tables = tables;
        drawHead(this);
      })
      .catch(() => {});
    loadMyRounds(this);
    this.timer = window.setInterval(() => tick(this), TICK_MS);
    this.offLang = onLangChange(() => {
      drawAll(this);
      this.buyIn.draw();
      this.cues.drawToggle();
      if (this.ui.recalled) recall(this, this.ui.recalled, { focus: false });
    });
    this.offUser = onUserChange((/** @type {any} */ user) => this.userChanged(user));
  }

  /**
   * Logged in, out, or as someone else (in this tab or another, or told by the socket's
   * `authenticated`): each new user is asked for once, whichever of the account, the socket and the
   * snapshot came first. @param {any} user
   */
  userChanged(user) {
    if (user !== this.state.user) this.dispatch({ type: "local_user", user });
    const before = this.userId;
    const id = user ? user.id : null;
    if (id === before) return;
    this.userId = id;
    if (user) {
      this.socket.authenticate();
      loadMyRounds(this);
      this.requestMe();
    } else if (before !== null) {
      this.socket.restart(); // logged out: a new connection, which hears nobody's private messages
    }
  }

  /** Leave the page: stop the timers and the socket. */
  leave() {
    this.alive = false;
    clearInterval(this.timer);
    clearTimeout(this.stateTimer);
    if (this.offLang) this.offLang();
    if (this.offUser) this.offUser();
    this.buyIn.close(null);
    this.socket.close();
  }

  // --- the state -----------------------------------------------------------------------------------

  /** Apply a message (the server's or the page's own) and draw what it changed. @param {any} message */
  dispatch(message) {
    const before = this.state;
    const state = (this.state = apply(before, message, Date.now()));
    if (state.user && state.user !== before.user && state.user !== currentUser()) setUser(state.user);
    if (before.pending.length && !state.pending.length && (message.type === "betting_closed" || message.type === "betting_opened")) {
      const amount = money(pendingTotal(before));
      this.el.warning.textContent = t("chips_dropped", { amount });
      this.el.warning.dataset.kind = "dropped";
      toast(() => t("chips_dropped", { amount }), "error");
    }
    if (state === before) return;
    this.cues.changed(before, state);
    if (message.type === "countdown") {
      // about once a second: only what moved is drawn again (a click on a spot or a button is never lost)
      if (JSON.stringify(state.totals) !== JSON.stringify(before.totals)) drawSpots(this);
      if (state.pub !== before.pub) renderSeats(this.el.seats, state, seatActions(this));
      tick(this);
      return;
    }
    drawAll(this);
  }

  /** Draw every panel again. */
  draw() {
    drawAll(this);
  }

  /** @param {any} message */
  onMessage(message) {
    const hadUser = Boolean(this.state.user);
    this.dispatch(message);
    if (message.type.startsWith("my_") && !hadUser) return;
    sideEffects(this, message);
    if (!this.ui.dealing) drawSqueeze(this);
  }

  /** This player's variant (R28), else the table's. */
  myVariant() {
    const mine = me(this.state);
    return (mine && mine.variant) || (this.state.table ? this.state.table.variant : null);
  }

  /** The bet menu of this player's variant (payouts and limits). */
  menu() {
    const table = this.state.table;
    if (!table) return [];
    return (table.variants && table.variants[this.myVariant()]) || table.bets || [];
  }

  /** A bet's name in the page's language. @param {string} bet */
  nameOf(bet) {
    const known = new Map();
    const table = this.state.table;
    for (const list of table ? [table.bets || [], ...Object.values(table.variants || {})] : []) for (const b of list) known.set(b.bet, b);
    return known.has(bet) ? betName(known.get(bet)) : bet;
  }

  hasOpenBet() {
    return this.state.pending.length > 0 || Object.keys(confirmedStakes(this.state)).length > 0;
  }

  /** This user's name as the table's public messages show it (masked). */
  shownName() {
    const user = this.state.user;
    return user ? user.display_name || user.name : null;
  }

  /** Whether the table deals face down for its squeezers (R23). */
  squeezeTable() {
    return Boolean(this.state.table && this.state.table.rules && this.state.table.rules.squeeze);
  }

  // --- notices and refusals ------------------------------------------------------------------------

  /** @param {Notice} notice */
  say(notice) {
    this.ui.notice = notice;
    drawNotice(this);
    toast(() => noticeText(notice), notice.kind === "error" ? "error" : "info");
  }

  /** @param {any} error */
  refuse(error) {
    if (error && error.status === 401) {
      askLogin();
      return;
    }
    this.say({ kind: "error", detail: error ? error.message : "", refusal: error && error.code ? error : null });
  }

  // --- asking the server ---------------------------------------------------------------------------

  /** Ask for the table's public state: at most once per STATE_MS, the last ask of a burst kept. */
  requestState() {
    const wait = this.stateAsked + STATE_MS - performance.now();
    if (wait <= 0) {
      this.stateAsked = performance.now();
      this.socket.send({ type: "state" });
    } else if (!this.stateTimer) {
      this.stateTimer = window.setTimeout(() => {
        this.stateTimer = 0;
        this.requestState();
      }, wait);
    }
  }

  /**
   * Ask the server for this user at the table (the public state shows no one's money or own bets):
   * after each snapshot, after logging in and after each move of money; and the face-down cards this
   * user squeezes. Its answer is taken with the round it was asked in, so a late answer never brings
   * back the bets of a round already settled.
   */
  async requestMe() {
    if (!currentUser()) return;
    const round = this.state.round ? this.state.round.id : null;
    try {
      const answer = await api(`/api/tables/${encodeURIComponent(this.tableId)}/me`);
      if (!this.alive) return;
      this.dispatch({ type: "local_me", me: answer, round });
      this.hands.peek(round, answer.squeeze);
    } catch {
      // logged out meanwhile, or the table is gone: the next snapshot asks again
    }
  }

  /** Ask for this user's balance (over the socket; over REST when it is down). */
  requestBalance() {
    if (this.socket.open) this.socket.send({ type: "balance" });
    else refreshUser();
  }

  /**
   * A table action (sit, join, leave, cash-out, reveal, hand-over, variant): over the table's
   * websocket (its `<type>_ok` answer), or POSTed when the socket is down; null when refused.
   * @param {string} action @param {any} [body] @returns {Promise<any>}
   */
  async act(action, body) {
    if (!currentUser()) {
      askLogin();
      return null;
    }
    try {
      const answer = this.socket.open
        ? await this.socket.request({ type: action === "variant" ? "switch_variant" : action.replace("-", "_"), ...(body || {}) })
        : await api(`/api/tables/${encodeURIComponent(this.tableId)}/${action}`, { method: "POST", body });
      this.afterMove();
      return answer || {};
    } catch (error) {
      this.refuse(error);
      return null;
    }
  }

  /** After this user's money or seat moved: the table's state, this user at the table, the account. */
  afterMove() {
    this.requestState();
    this.requestMe();
    refreshUser();
  }
}
