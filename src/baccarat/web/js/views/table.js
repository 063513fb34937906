// @ts-check
// A table: the controller of #/table/ID. It keeps the table's state (state.js: the reducer over the
// server's messages), draws every panel from it (views/table/*.js), and does what the player asks:
// sit, stand, leave, cash out, place / undo / clear / rebet / double / confirm bets, switch variant,
// squeeze; refusals are shown in the page's language by their code.

import { api } from "../api.js";
import { unpeel } from "../cards.js";
import { h, replace, toast } from "../dom.js";
import { money } from "../format.js";
import { t, betName, onLangChange } from "../i18n.js";
import { explain, ruleOf } from "../refusals.js";
import { askLogin, currentUser, onUserChange, refreshUser, setUser } from "../session.js";
import { TableSocket } from "../socket.js";
import { variantName } from "../variants.js";
import { apply, canBet, confirmedStakes, doubleStakes, initialState, me, pendingOn, pendingTotal, rebetStakes, RESULT_MS, secondsLeft } from "../state.js";
import "./limits_texts.js";
import { BuyIn } from "./table/buyin.js";
import { chipsOf, renderActions, renderChips } from "./table/chips.js";
import { renderConnection, renderCountdown, renderPhase, renderTitle } from "./table/head.js";
import { Hands } from "./table/hands.js";
import { renderHistory, renderRecall } from "./table/history.js";
import { renderResult, winners } from "./table/result.js";
import { Cues } from "./table/cues.js";
import { ASK_MS, renderRoads, renderStrip } from "./table/roads.js";
import { renderSeats } from "./table/seats.js";
import { renderSpots } from "./table/spots.js";
import { renderStats } from "./table/stats.js";
import { renderWallet } from "./table/wallet.js";
import { buildLayout } from "./table/layout.js";

const STATE_MS = 150; // the table's state is asked for at most this often (a burst of events, one ask)
const WARN_SECONDS = 5; // unconfirmed chips: the warning this many seconds before betting closes

function newClientId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Show table `tableId` in `view`; returns a function that leaves it.
 * @param {HTMLElement} view @param {string} tableId
 */
export function mountTable(view, tableId) {
  let state = apply(initialState(), { type: "local_user", user: currentUser() });
  /** Page-only state: the chip chosen, the notice, the deal animation, the result's time on screen. */
  const ui = {
    chip: 1000,
    /** @type {any} */
    notice: null,
    dealing: false,
    bannerUntil: 0,
    warnedRound: /** @type {number|null} */ (null),
    /** @type {any[]} */
    tables: [],
    /** @type {number|null} */
    recalled: null,
  };
  const el = buildLayout(view);
  const hands = new Hands({ player: el.playerHand, banker: el.bankerHand, playerTotal: el.playerTotal, bankerTotal: el.bankerTotal, squeeze: el.squeezeBar });
  const cues = new Cues(el.cue, el.soundToggle);
  const buyIn = new BuyIn(el.buyIn, () => ({ user: currentUser(), min: state.table ? state.table.min_bet || 1 : 1 }));

  // --- the state -----------------------------------------------------------------------------------

  /** Apply a message (the server's or the page's own) and draw what it changed. @param {any} message */
  function dispatch(message) {
    const before = state;
    state = apply(state, message, Date.now());
    if (state.user && state.user !== before.user && state.user !== currentUser()) setUser(state.user);
    if (before.pending.length && !state.pending.length && (message.type === "betting_closed" || message.type === "betting_opened")) {
      const amount = money(pendingTotal(before));
      el.warning.textContent = t("chips_dropped", { amount });
      el.warning.dataset.kind = "dropped";
      toast(() => t("chips_dropped", { amount }), "error");
    }
    if (state === before) return;
    cues.changed(before, state);
    if (message.type === "countdown") {
      // about once a second: only what moved is drawn again (a click on a spot or a button is never lost)
      if (JSON.stringify(state.totals) !== JSON.stringify(before.totals)) drawSpots();
      if (state.pub !== before.pub) renderSeats(el.seats, state, seatActions);
      tick();
      return;
    }
    drawAll();
  }

  function myVariant() {
    const mine = me(state);
    return (mine && mine.variant) || (state.table ? state.table.variant : null);
  }

  /** The bet menu of this player's variant (payouts and limits). */
  function menu() {
    const table = state.table;
    if (!table) return [];
    return (table.variants && table.variants[myVariant()]) || table.bets || [];
  }

  /** A bet's name in the page's language. @param {string} bet */
  function nameOf(bet) {
    const known = new Map();
    for (const list of state.table ? [state.table.bets || [], ...Object.values(state.table.variants || {})] : []) for (const b of list) known.set(b.bet, b);
    return known.has(bet) ? betName(known.get(bet)) : bet;
  }

  function hasOpenBet() {
    return state.pending.length > 0 || Object.keys(confirmedStakes(state)).length > 0;
  }

  // --- drawing -------------------------------------------------------------------------------------

  function drawStatus() {
    el.status.replaceChildren();
    delete el.status.dataset.kind;
    if (state.status === "missing") {
      el.status.dataset.kind = "missing";
      replace(el.status, h("p", { "data-testid": "table-missing" }, t("table_missing", { id: tableId })), h("a", { href: "#/", class: "button" }, t("back_to_lobby")));
    } else if (state.status === "ready" && !state.open) {
      el.status.dataset.kind = "closed";
      replace(el.status, h("p", { "data-testid": "table-closed" }, t("table_closed")), h("a", { href: "#/", class: "button" }, t("back_to_lobby")));
    }
    el.felt.hidden = state.status === "missing";
    el.board.hidden = state.status === "missing";
    el.history.hidden = state.status === "missing";
  }

  function drawHead() {
    renderTitle(el, state, variantName(myVariant()));
    renderConnection(el, state, Date.now());
    el.switchLabel.firstChild.textContent = t("other_tables");
    const locked = hasOpenBet();
    el.switcher.replaceChildren(...ui.tables.map((other) => h("option", { value: other.id, selected: other.id === tableId }, `${variantName(other.variant)} — ${other.name}`)));
    el.switcher.disabled = locked;
    el.switcher.title = locked ? t("switch_locked") : "";
    // the bettor's own variant (R28): the server refuses a switch with a bet open, and the page says why
    el.variantLabel.firstChild.textContent = t("my_variant");
    const table = state.table;
    const variants = table && table.variants ? Object.keys(table.variants) : table ? [table.variant] : [];
    const mine = myVariant();
    el.variant.replaceChildren(...variants.map((name) => h("option", { value: name, selected: name === mine }, variantName(name))));
    el.variant.value = mine || "";
    el.variant.disabled = variants.length < 2 || !me(state);
    el.variant.title = variants.length < 2 ? "" : me(state) ? t("variant_switch") : t("variant_need_seat");
    el.variantLabel.hidden = variants.length < 2;
    for (const [id, key] of [["player-label", "player_side"], ["banker-label", "banker_side"], ["roads-title", "roads"], ["stats-title", "shoe_stats"], ["recent-title", "recent_rounds"]]) {
      const label = view.querySelector(`#${id}`);
      if (label) label.textContent = t(key);
    }
  }

  function drawNotice() {
    const notice = ui.notice;
    const box = el.notice;
    if (!notice) {
      box.replaceChildren();
      delete box.dataset.kind;
      delete box.dataset.rule;
      box.removeAttribute("title");
      return;
    }
    box.dataset.kind = notice.kind;
    box.textContent = noticeText(notice);
    if (notice.kind === "error") {
      box.dataset.rule = ruleOf(notice.refusal || notice.detail) || "";
      box.title = notice.detail;
    } else {
      delete box.dataset.rule;
      box.removeAttribute("title");
    }
  }

  /** A notice's words in the page's language (written again after a language switch). */
  function noticeText(notice) {
    if (notice.kind === "error") return `${t("refused")}: ${explain(notice.refusal || notice.detail)}`;
    const params = notice.money ? Object.fromEntries(Object.entries(notice.params).map(([k, v]) => [k, money(Number(v))])) : notice.params;
    return t(notice.key, notice.variant ? { ...params, variant: variantName(notice.variant) } : params);
  }

  function bannerUp() {
    return !ui.dealing && Date.now() < ui.bannerUntil;
  }

  function drawResult() {
    if (ui.dealing) return;
    const shown = state.shown;
    const current = shown && (bannerUp() || !state.round || state.round.id === shown.round_id);
    renderResult(el.result, current ? shown : null, bannerUp(), nameOf);
  }

  function drawSpots() {
    renderSpots(el.spots, state, { menu: menu(), winners: bannerUp() ? winners(state.shown) : new Set(), place });
  }

  function drawChips() {
    const chips = chipsOf(state.table);
    if (chips.length && !chips.includes(ui.chip)) ui.chip = chips.find((value) => value >= state.table.min_bet) || chips[0];
    renderChips(el.chips, chips, ui.chip, (value, focus) => {
      ui.chip = value;
      drawChips();
      if (focus) /** @type {HTMLElement} */ (el.chips.querySelector("[aria-checked=true]")).focus();
    });
  }

  function drawActions() {
    renderActions(el.actions, state, { undo: () => dispatch({ type: "local_undo" }), clear: () => dispatch({ type: "local_clear" }), rebet, double, confirm });
  }

  function drawSqueeze() {
    hands.renderSqueeze(state.user ? state.user.display_name || state.user.name : null, { reveal: revealSide, handOver });
    hands.tick(Date.now());
  }

  function drawAll() {
    drawStatus();
    drawHead();
    renderPhase(el, state);
    tick();
    renderSeats(el.seats, state, seatActions);
    drawNotice();
    drawSqueeze();
    drawSpots();
    drawChips();
    drawActions();
    renderWallet(el.wallet, state, { login: askLogin, name: nameOf });
    drawRoads();
    renderStats(el.stats, state);
    renderHistory(el.recent, state, (roundId) => recall(roundId));
    drawResult();
  }

  // --- the ask road (問路): the asked side's next marks blink on every road for ASK_MS ---------------

  /** @type {string|null} */
  let asking = null;
  let askTimer = 0;

  function drawRoads() {
    renderRoads(el.roads, state, { asking, onAsk: askRoad });
    renderStrip(el.strip, state);
  }

  /** A tap on a side of the ask road: its marks blink; a second tap on the same side stops them. @param {string} side */
  function askRoad(side) {
    clearTimeout(askTimer);
    asking = asking === side ? null : side;
    if (asking) askTimer = window.setTimeout(() => ((asking = null), drawRoads()), ASK_MS);
    drawRoads();
  }

  /** Four times a second: the countdown, the chips warning, the reconnect seconds, the banner's end. */
  function tick() {
    const now = Date.now();
    renderCountdown(el, state, now);
    renderConnection(el, state, now);
    hands.tick(now);
    cues.tick(state, now);
    const left = secondsLeft(state, now);
    if (canBet(state) && state.pending.length && left <= WARN_SECONDS && state.round && ui.warnedRound !== state.round.id) {
      ui.warnedRound = state.round.id;
      el.warning.textContent = t("chips_warning", { s: left });
      el.warning.dataset.kind = "warning";
    } else if (canBet(state) && !state.pending.length && el.warning.dataset.kind === "warning") {
      el.warning.textContent = "";
      delete el.warning.dataset.kind;
    }
    if (ui.bannerUntil && now >= ui.bannerUntil) {
      ui.bannerUntil = 0;
      // the last round's cards go; a round being dealt live keeps its own
      if (state.round && state.shown && state.round.id !== state.shown.round_id && hands.round !== state.round.id) hands.reset(null);
      drawResult();
      drawSpots();
    }
  }

  const seatActions = { sit: (/** @type {number} */ seat) => sit(seat), stand: () => stand(), cashOut: () => cashOut(), leave: () => leaveTable() };

  // --- notices and refusals ------------------------------------------------------------------------

  function say(notice) {
    ui.notice = notice;
    drawNotice();
    toast(() => noticeText(notice), notice.kind === "error" ? "error" : "info");
  }

  function refuse(error) {
    if (error && error.status === 401) {
      askLogin();
      return;
    }
    say({ kind: "error", detail: error ? error.message : "", refusal: error && error.code ? error : null });
  }

  // --- asking the server ---------------------------------------------------------------------------

  let stateAsked = -Infinity;
  let stateTimer = 0;

  /** Ask for the table's public state: at most once per STATE_MS, the last ask of a burst kept. */
  function requestState() {
    const wait = stateAsked + STATE_MS - performance.now();
    if (wait <= 0) {
      stateAsked = performance.now();
      socket.send({ type: "state" });
    } else if (!stateTimer) {
      stateTimer = window.setTimeout(() => {
        stateTimer = 0;
        requestState();
      }, wait);
    }
  }

  /**
   * Ask the server for this user at the table (the public state shows no one's money or own bets):
   * after each snapshot, after logging in and after each move of money. Its answer is taken with the
   * round it was asked in, so a late answer never brings back the bets of a round already settled.
   */
  async function requestMe() {
    if (!currentUser()) return;
    const round = state.round ? state.round.id : null;
    try {
      const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/me`);
      if (!alive) return;
      dispatch({ type: "local_me", me: answer, round });
      hands.peek(round, answer.squeeze);
    } catch {
      // logged out meanwhile, or the table is gone: the next snapshot asks again
    }
  }

  /** Ask for this user's balance (over the socket; over REST when it is down). */
  function requestBalance() {
    if (socket.open) socket.send({ type: "balance" });
    else refreshUser();
  }

  /**
   * A table action (sit, join, leave, cash-out, reveal, hand-over, variant): over the table's
   * websocket (its `<type>_ok` answer), or POSTed when the socket is down; null when refused.
   * @param {string} action @param {any} [body]
   */
  async function act(action, body) {
    if (!currentUser()) {
      askLogin();
      return null;
    }
    try {
      const answer = socket.open
        ? await socket.request({ type: action === "variant" ? "switch_variant" : action.replace("-", "_"), ...(body || {}) })
        : await api(`/api/tables/${encodeURIComponent(tableId)}/${action}`, { method: "POST", body });
      requestState();
      requestMe();
      refreshUser();
      return answer || {};
    } catch (error) {
      refuse(error);
      return null;
    }
  }

  // --- seats ---------------------------------------------------------------------------------------

  async function sit(seat) {
    if (!currentUser()) return askLogin();
    let answer;
    if (me(state)) {
      answer = await act("sit", { seat });
    } else {
      const amount = await askBuyIn();
      if (amount === null) return;
      answer = await act("join", { seat, buy_in: amount });
    }
    if (answer) say({ kind: "info", key: "sat_at", params: { n: seat } });
  }

  async function stand() {
    if (!currentUser()) return askLogin();
    const amount = await askBuyIn();
    if (amount === null) return;
    if (await act("join", { buy_in: amount })) say({ kind: "info", key: "stood", params: {} });
  }

  async function askBuyIn() {
    await refreshUser();
    if (!alive) return null;
    return buyIn.ask();
  }

  async function leaveTable() {
    const answer = await act("leave");
    if (answer) say({ kind: "info", key: "left_table", money: true, params: { amount: answer.amount ?? 0, commission: answer.commission ?? 0 } });
  }

  async function cashOut() {
    const answer = await act("cash-out", {});
    if (answer) say({ kind: "info", key: "cashed_out", money: true, params: { amount: answer.amount ?? 0, commission: answer.commission ?? 0 } });
  }

  async function switchVariant() {
    const wanted = el.variant.value;
    const before = myVariant();
    if (wanted === before) return;
    el.variant.value = before; // shown as switched once the server says so
    if (state.pending.length) {
      say({ kind: "error", detail: t("switch_locked") });
      return;
    }
    const answer = await act("variant", { variant: wanted });
    if (!answer) return;
    const mine = me(state);
    if (mine) mine.variant = answer.variant || wanted;
    say({ kind: "info", key: "variant_switched", params: {}, variant: answer.variant || wanted });
    drawAll();
  }

  function switchTable() {
    if (hasOpenBet()) {
      toast(t("switch_locked"), "error");
      el.switcher.value = tableId;
      return;
    }
    location.hash = `#/table/${encodeURIComponent(el.switcher.value)}`;
  }
  el.switcher.addEventListener("change", switchTable);
  el.variant.addEventListener("change", switchVariant);

  // --- the squeeze ---------------------------------------------------------------------------------

  function squeezeTable() {
    return Boolean(state.table && state.table.rules && state.table.rules.squeeze);
  }

  /** Whether this user squeezes `side` in the live round. @param {string} side */
  function squeezing(side) {
    const me = state.user ? state.user.display_name || state.user.name : null;
    return Boolean(me) && hands.squeezers[side] === me;
  }

  async function revealSide(side) {
    if (!(await act("reveal", { side }))) for (const card of hands.hiddenOf(side)) unpeel(card);
  }

  async function handOver(side) {
    if (await act("hand-over", { side })) say({ kind: "info", key: "handed_over", params: {} });
  }

  /** The cards of the table's public state (a squeeze table deals them one by one). @param {any} pub */
  function takeCards(pub) {
    if (pub.squeezers) hands.squeezers = { ...pub.squeezers };
    hands.revealAt = pub.reveal_deadline ? pub.reveal_deadline * 1000 : 0;
    if (squeezeTable() && pub.phase === "dealing" && state.round && pub.cards) {
      hands.live(state.round.id);
      for (const [position, code] of Object.entries(pub.cards)) hands.setCard(position, code);
    }
  }

  // --- betting -------------------------------------------------------------------------------------

  function place(bet) {
    if (!currentUser()) {
      toast(t("need_login"), "error");
      askLogin();
      return;
    }
    if (!canBet(state)) {
      toast(t("betting_closed"), "error");
      return;
    }
    const already = pendingOn(state, bet) + (confirmedStakes(state)[bet] || 0);
    if (already + ui.chip > state.table.max_bet) {
      toast(`${t("limits")} ${money(state.table.min_bet)}–${money(state.table.max_bet)}`, "error");
      return;
    }
    dispatch({ type: "local_place", bet, stake: ui.chip });
  }

  function rebet() {
    dispatch({ type: "local_place", stakes: rebetStakes(state) });
  }

  function double() {
    const stakes = doubleStakes(state);
    if (!stakes.length) return;
    dispatch({ type: "local_place", stakes });
    confirm();
  }

  /**
   * Place one bet: over the table's websocket (its `bet_ack`), or POSTed when the socket is down or
   * drops before answering (the same client_id, so the server never takes it twice).
   */
  async function sendBet(body) {
    if (socket.open) {
      try {
        return await socket.request({ type: "bet", ...body });
      } catch (error) {
        if (error && error.status) throw error; // refused by the table
      }
    }
    return api(`/api/tables/${encodeURIComponent(tableId)}/bets`, { method: "POST", body });
  }

  /** A first bet brings the player to the table: ask the buy-in first (the server would bring the whole wallet). */
  async function ensureAtTable() {
    if (me(state)) return true;
    const amount = await askBuyIn();
    if (amount === null) return false;
    try {
      const body = { buy_in: amount };
      await (socket.open ? socket.request({ type: "join", ...body }) : api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body }));
    } catch (error) {
      if (error.code !== "bettor.already_at_table") {
        refuse(error);
        return false;
      }
    }
    requestState();
    requestMe();
    refreshUser();
    return true;
  }

  async function confirm() {
    const round = state.round;
    if (!round || !canBet(state)) return toast(t("betting_closed"), "error");
    const bySpot = new Map();
    for (const p of state.pending) bySpot.set(p.bet, (bySpot.get(p.bet) || 0) + p.stake);
    if ([...bySpot.values()].some((stake) => stake < state.table.min_bet)) {
      return toast(`${t("limits")} ${money(state.table.min_bet)}–${money(state.table.max_bet)}`, "error");
    }
    if (!(await ensureAtTable())) return;
    const placed = [];
    for (const [bet, stake] of bySpot) {
      try {
        const clientId = newClientId();
        const answer = await sendBet({ client_id: clientId, bet, stake, round_id: round.id });
        dispatch({ type: "bet_ack", bet: (answer && answer.bet) || { id: clientId, client_id: clientId, round_id: round.id, bet, stake }, balance: answer && answer.balance });
        placed.push(bet);
      } catch (error) {
        refuse(error);
      }
    }
    dispatch({ type: "local_confirmed", bets: placed });
    if (placed.length) {
      ui.notice = null;
      el.warning.textContent = "";
      delete el.warning.dataset.kind;
      requestState();
      requestBalance();
      requestMe();
      toast(t("bet_confirmed"));
      drawAll();
    }
  }

  // --- the server's messages -----------------------------------------------------------------------

  /** A round settled: the cards dealt (or turned), then the result and payouts on screen for a while. */
  async function settled(message) {
    ui.dealing = true;
    replace(el.result);
    await hands.settle(message.round_id, message.result);
    if (!alive) return;
    ui.dealing = false;
    ui.bannerUntil = Date.now() + RESULT_MS;
    drawAll();
  }

  /** What a message does besides changing the state: the cards, asking for the table's state. */
  function sideEffects(message) {
    switch (message.type) {
      case "snapshot": {
        const round = message.state && message.state.round;
        if (round && round.status === "settled" && round.result) hands.showStatic(round.result);
        if (message.state && message.state.table) takeCards(message.state.table);
        requestMe();
        break;
      }
      case "state":
        if (message.state) takeCards(message.state);
        break;
      case "betting_opened":
        if (!ui.dealing && !bannerUp()) hands.reset(null);
        break;
      case "betting_closed":
        if (squeezeTable()) {
          hands.live(message.round_id);
          hands.squeezers = { player: message.player_squeezer ?? null, banker: message.banker_squeezer ?? null };
        }
        requestState();
        break;
      case "round_settled":
        settled(message);
        requestState();
        break;
      case "card_dealt":
      case "card_corrected":
        if (message.card) cues.card();
        if (squeezeTable()) {
          hands.live(message.round_id);
          hands.setCard(message.position, message.face_down ? null : message.card);
          if (message.face_down) requestState();
          if (message.face_down && squeezing(message.position.split("_")[0])) requestMe();
        }
        if (message.type === "card_corrected") requestState();
        break;
      case "card_revealed":
        cues.card();
        if (squeezeTable() && hands.round === message.round_id) {
          hands.setCard(message.position, message.card);
          requestState();
        }
        break;
      case "squeeze_handed_over":
        hands.squeezers[message.side] = message.to ?? null;
        requestState();
        if (squeezing(message.side)) requestMe();
        break;
      case "round_voided":
      case "bettor_joined":
      case "bettor_sat":
      case "bettor_left":
      case "cashed_out":
      case "funds_added":
      case "variant_switched":
      case "table_changed":
      case "my_join":
      case "my_funds":
      case "my_cash_out":
      case "my_leave":
        requestState();
        if (message.type.startsWith("my_")) {
          requestBalance();
          requestMe();
        }
        break;
      case "my_settlement":
      case "my_refund":
        requestBalance();
        break;
      case "my_play_reminder": {
        const values = { m: message.minutes_played, lost: money(message.lost_today), limit: money(message.daily_loss_limit) };
        toast(() => t(message.daily_loss_limit === null ? "limits_reminder_toast" : "limits_reminder_toast_limit", values), "info");
        break;
      }
      case "error":
        if (message.status !== 401 && message.code !== "table.not_found") {
          const { status, code, rule, params, detail } = message;
          refuse({ status, message: detail, code, rule, params, detail });
        }
        break;
      default:
        break;
    }
  }

  /** @param {any} message */
  function onMessage(message) {
    const hadUser = Boolean(state.user);
    dispatch(message);
    if (message.type.startsWith("my_") && !hadUser) return;
    sideEffects(message);
    if (!ui.dealing) drawSqueeze();
  }

  // --- recall --------------------------------------------------------------------------------------

  async function myHistory() {
    if (!currentUser()) return [];
    try {
      const { rounds } = await api("/api/me/history?limit=20");
      return rounds;
    } catch {
      return []; // the history is a convenience; the table works without it
    }
  }

  async function recall(roundId, { focus = true } = {}) {
    ui.recalled = roundId;
    replace(el.recall, h("p", { class: "muted" }, t("loading")));
    try {
      const round = await api(`/api/rounds/${roundId}`);
      const mine = (await myHistory()).find((r) => r.round_id === roundId);
      const bets = mine ? mine.bets : null;
      renderRecall(el.recall, { id: roundId, ...round }, bets, nameOf);
      if (focus) /** @type {HTMLElement} */ (el.recall.querySelector("#recall-title")).focus();
    } catch (error) {
      replace(el.recall, h("p", { class: "error" }, explain(error)));
    }
  }

  /** This player's recent rounds here: the ★ of the recent rounds, and what rebet places after a reload. */
  async function loadMyRounds() {
    const rounds = (await myHistory()).filter((r) => r.table === tableId && r.result);
    if (!alive || !rounds.length) return;
    dispatch({ type: "local_recent", rounds: rounds.map((r) => ({ round_id: r.round_id, number: r.number, result: r.result, mine: true })) });
    if (!state.lastBets.length) {
      const last = rounds.sort((a, b) => b.round_id - a.round_id)[0];
      const stakes = {};
      for (const b of last.bets || []) stakes[b.bet] = (stakes[b.bet] || 0) + b.stake;
      dispatch({ type: "local_last_bets", bets: Object.entries(stakes).map(([bet, stake]) => ({ bet, stake })) });
    }
  }

  // --- life ----------------------------------------------------------------------------------------

  let alive = true;
  drawAll();
  const socket = new TableSocket(tableId, {
    onMessage,
    onState(connection, retryAt) {
      dispatch({ type: "local_connection", connection, retryAt });
    },
  });
  api("/api/tables")
    .then(({ tables }) => {
      ui.tables = tables;
      drawHead();
    })
    .catch(() => {});
  loadMyRounds();
  const timer = window.setInterval(tick, 250);
  const offLang = onLangChange(() => {
    drawAll();
    buyIn.draw();
    if (ui.recalled) recall(ui.recalled, { focus: false });
  });
  const offUser = onUserChange((user) => {
    if (user === state.user) return;
    const before = state.user ? state.user.id : null;
    dispatch({ type: "local_user", user });
    const id = user ? user.id : null;
    if (id !== before) {
      if (user) {
        socket.authenticate();
        loadMyRounds();
        requestMe();
      } else if (before !== null) {
        socket.restart(); // logged out: a new connection, which hears nobody's private messages
      }
    }
  });
  return () => {
    alive = false;
    clearInterval(timer);
    clearTimeout(stateTimer);
    offLang();
    offUser();
    buyIn.close(null);
    socket.close();
  };
}
