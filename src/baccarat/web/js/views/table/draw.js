// @ts-check
// Drawing a table's page from its state: each panel's view module (head, seats, hands, spots, chips,
// wallet, roads, statistics, history, result) given what it shows; the status line, the notice, the
// ask road's blinking, and the four-times-a-second tick (countdown, chips warning, reconnect, banner).

import { h, replace } from "../../dom.js";
import { money } from "../../format.js";
import { t } from "../../i18n.js";
import { explain, ruleOf } from "../../refusals.js";
import { askLogin } from "../../session.js";
import { canBet, me, secondsLeft } from "../../state.js";
import { variantName } from "../../variants.js";
import { confirm, doubleBets, handOver, place, rebet, revealSide, seatActions } from "./actions.js";
import { dueToConfirm, setAutoConfirm } from "./autoconfirm.js";
import { chipsOf, renderActions, renderChips } from "./chips.js";
import { renderConnection, renderCountdown, renderPhase, renderTitle } from "./head.js";
import { renderHistory } from "./history.js";
import { recall } from "./recall.js";
import { renderResult, winners } from "./result.js";
import { ASK_MS, renderRoads, renderStrip } from "./roads.js";
import { renderSeats } from "./seats.js";
import { renderSpots } from "./spots.js";
import { renderStats } from "./stats.js";
import { renderWallet } from "./wallet.js";

const WARN_SECONDS = 5; // unconfirmed chips: the warning this many seconds before betting closes

/** @typedef {import("./page.js").TablePage} TablePage */

/** Every panel. @param {TablePage} page */
export function drawAll(page) {
  const { el, state } = page;
  drawStatus(page);
  drawHead(page);
  renderPhase(el, state);
  tick(page);
  renderSeats(el.seats, state, seatActions(page));
  drawNotice(page);
  drawSqueeze(page);
  drawSpots(page);
  drawChips(page);
  drawActions(page);
  renderWallet(el.wallet, state, { login: askLogin, name: (/** @type {string} */ bet) => page.nameOf(bet) });
  drawRoads(page);
  renderStats(el.stats, state);
  renderHistory(el.recent, state, (/** @type {number} */ roundId) => recall(page, roundId));
  drawResult(page);
}

/** An unknown table, or a closed one, says so. @param {TablePage} page */
function drawStatus({ el, state, tableId }) {
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

/** The title, the connection, the table switch and the bettor's own variant (R28). @param {TablePage} page */
export function drawHead(page) {
  const { el, state, ui, tableId, view } = page;
  const mine = page.myVariant();
  renderTitle(el, state, variantName(mine));
  renderConnection(el, state, Date.now());
  el.switchLabel.firstChild.textContent = t("other_tables");
  const locked = page.hasOpenBet();
  el.switcher.replaceChildren(...ui.tables.map((other) => h("option", { value: other.id, selected: other.id === tableId }, `${variantName(other.variant)} — ${other.name}`)));
  el.switcher.disabled = locked;
  el.switcher.title = locked ? t("switch_locked") : "";
  // the server refuses a switch with a bet open, and the page says why
  el.variantLabel.firstChild.textContent = t("my_variant");
  const table = state.table;
  const variants = table && table.variants ? Object.keys(table.variants) : table ? [table.variant] : [];
  const seated = Boolean(me(state));
  el.variant.replaceChildren(...variants.map((name) => h("option", { value: name, selected: name === mine }, variantName(name))));
  el.variant.value = mine || "";
  el.variant.disabled = variants.length < 2 || !seated;
  el.variant.title = variants.length < 2 ? "" : seated ? t("variant_switch") : t("variant_need_seat");
  el.variantLabel.hidden = variants.length < 2;
  for (const [id, key] of [["player-label", "player_side"], ["banker-label", "banker_side"], ["roads-title", "roads"], ["stats-title", "shoe_stats"], ["recent-title", "recent_rounds"]]) {
    const label = view.querySelector(`#${id}`);
    if (label) label.textContent = t(key);
  }
}

/** The notice line: the last refusal (with its rule) or what the last move did. @param {TablePage} page */
export function drawNotice({ el, ui }) {
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
    box.title = notice.detail || "";
  } else {
    delete box.dataset.rule;
    box.removeAttribute("title");
  }
}

/** A notice's words in the page's language (written again after a language switch). @param {import("./page.js").Notice} notice */
export function noticeText(notice) {
  if (notice.kind === "error") return `${t("refused")}: ${explain(notice.refusal || notice.detail)}`;
  const params = notice.money ? Object.fromEntries(Object.entries(notice.params).map(([k, v]) => [k, money(Number(v))])) : notice.params;
  return t(notice.key || "", notice.variant ? { ...params, variant: variantName(notice.variant) } : params);
}

/** Whether the result banner is up (after the deal animation, for the table's result phase). @param {TablePage} page */
export function bannerUp({ ui }) {
  return !ui.dealing && Date.now() < ui.bannerUntil;
}

/** @param {TablePage} page */
export function drawResult(page) {
  const { el, state, ui } = page;
  if (ui.dealing) return;
  const shown = state.shown;
  const up = bannerUp(page);
  const current = shown && (up || !state.round || state.round.id === shown.round_id);
  // once the next round is open for bets, the last result is its banner alone (the spots and chips come first)
  const next = Boolean(shown && state.round && state.round.id !== shown.round_id);
  renderResult(el.result, current ? shown : null, up, (/** @type {string} */ bet) => page.nameOf(bet), { compact: next });
}

/** @param {TablePage} page */
export function drawSpots(page) {
  const { state, ui } = page;
  const up = bannerUp(page);
  renderSpots(page.el.spots, state, {
    menu: page.menu(),
    winners: up ? winners(state.shown) : new Set(),
    // this player's chips paid or collected, until the next round opens
    settled: up && state.shown && state.shown.bets && (!state.round || state.round.id === state.shown.round_id) ? state.shown.bets : null,
    place: (/** @type {string} */ bet) => place(page, bet),
    shownPays: ui.shownPays,
    togglePays: (/** @type {string} */ bet) => {
      if (!ui.shownPays.delete(bet)) ui.shownPays.add(bet);
      drawSpots(page);
    },
  });
}

/** @param {TablePage} page */
function drawChips(page) {
  const { el, state, ui } = page;
  const chips = chipsOf(state.table);
  if (chips.length && !chips.includes(ui.chip)) ui.chip = chips.find((value) => value >= state.table.min_bet) || chips[0];
  renderChips(el.chips, chips, ui.chip, (/** @type {number} */ value, /** @type {boolean} */ focus) => {
    ui.chip = value;
    drawChips(page);
    if (focus) /** @type {HTMLElement} */ (el.chips.querySelector("[aria-checked=true]")).focus();
  });
}

/** @param {TablePage} page */
function drawActions(page) {
  renderActions(page.el.actions, page.state, {
    undo: () => page.dispatch({ type: "local_undo" }),
    clear: () => page.dispatch({ type: "local_clear" }),
    rebet: () => rebet(page),
    double: () => doubleBets(page),
    confirm: () => confirm(page),
    autoConfirm: page.ui.autoConfirm,
    setAutoConfirm: (/** @type {boolean} */ on) => {
      page.ui.autoConfirm = on;
      setAutoConfirm(on);
      page.ui.warnedRound = null; // the warning says what will happen now
    },
  });
}

/** @param {TablePage} page */
export function drawSqueeze(page) {
  page.hands.renderSqueeze(page.shownName(), { reveal: (side) => revealSide(page, side), handOver: (side) => handOver(page, side) });
  page.hands.tick(Date.now());
}

// --- the ask road (問路): the asked side's next marks blink on every road for ASK_MS ----------------

/** @param {TablePage} page */
function drawRoads(page) {
  renderRoads(page.el.roads, page.state, { asking: page.asking, onAsk: (/** @type {string} */ side) => askRoad(page, side) });
  renderStrip(page.el.strip, page.state);
}

/** A tap on a side of the ask road: its marks blink; a second tap on the same side stops them. @param {TablePage} page @param {string} side */
function askRoad(page, side) {
  clearTimeout(page.askTimer);
  page.asking = page.asking === side ? null : side;
  if (page.asking) {
    page.askTimer = window.setTimeout(() => {
      page.asking = null;
      drawRoads(page);
    }, ASK_MS);
  }
  drawRoads(page);
}

/** Four times a second: the countdown, the chips warning, the reconnect seconds, the banner's end. @param {TablePage} page */
export function tick(page) {
  const { el, state, ui, hands } = page;
  const now = Date.now();
  renderCountdown(el, state, now);
  renderConnection(el, state, now);
  hands.tick(now);
  page.cues.tick(state, now);
  const left = secondsLeft(state, now);
  const round = state.round ? state.round.id : null;
  if (dueToConfirm({ on: ui.autoConfirm, pending: state.pending.length, open: canBet(state), left, round, sent: ui.autoSent })) {
    ui.autoSent = round;
    confirm(page);
  }
  if (canBet(state) && state.pending.length && left <= WARN_SECONDS && state.round && ui.warnedRound !== state.round.id) {
    ui.warnedRound = state.round.id;
    el.warning.textContent = t(ui.autoConfirm ? "chips_warning_auto" : "chips_warning", { s: left });
    el.warning.dataset.kind = "warning";
  } else if (canBet(state) && !state.pending.length && el.warning.dataset.kind === "warning") {
    el.warning.textContent = "";
    delete el.warning.dataset.kind;
  }
  if (ui.bannerUntil && now >= ui.bannerUntil) {
    ui.bannerUntil = 0;
    // the last round's cards go; a round being dealt live keeps its own
    if (state.round && state.shown && state.round.id !== state.shown.round_id && hands.round !== state.round.id) hands.reset(null);
    drawResult(page);
    drawSpots(page);
  }
}
