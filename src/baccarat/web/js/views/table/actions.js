// @ts-check
// What the player does at a table: sit, stand, leave, cash out, switch variant or table, squeeze
// (turn or hand over a side's cards), and bet (place chips, rebet, double, confirm). Each move goes
// to the server through the page (page.act: the websocket, or REST when it is down); what it
// answers, or why it refused, is said in the page's language.

import { api } from "../../api.js";
import { unpeel } from "../../cards.js";
import { toast } from "../../dom.js";
import { money } from "../../format.js";
import { t } from "../../i18n.js";
import { askLogin, currentUser, refreshUser } from "../../session.js";
import { canBet, confirmedStakes, doubleStakes, me, pendingOn, rebetStakes } from "../../state.js";

/** @typedef {import("./page.js").TablePage} TablePage */

function newClientId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The table switch and the variant switch. @param {TablePage} page */
export function bindControls(page) {
  page.el.switcher.addEventListener("change", () => switchTable(page));
  page.el.variant.addEventListener("change", () => switchVariant(page));
}

// --- seats ---------------------------------------------------------------------------------------

/** What the seats panel's buttons do. @param {TablePage} page */
export function seatActions(page) {
  return {
    sit: (/** @type {number} */ seat) => sit(page, seat),
    stand: () => stand(page),
    cashOut: () => cashOut(page),
    leave: () => leaveTable(page),
  };
}

/** @param {TablePage} page @param {number} seat */
async function sit(page, seat) {
  if (!currentUser()) return askLogin();
  let answer;
  if (me(page.state)) {
    answer = await page.act("sit", { seat });
  } else {
    const amount = await askBuyIn(page);
    if (amount === null) return;
    answer = await page.act("join", { seat, buy_in: amount });
  }
  if (answer) page.say({ kind: "info", key: "sat_at", params: { n: seat } });
}

/** @param {TablePage} page */
async function stand(page) {
  if (!currentUser()) return askLogin();
  const amount = await askBuyIn(page);
  if (amount === null) return;
  if (await page.act("join", { buy_in: amount })) page.say({ kind: "info", key: "stood", params: {} });
}

/** @param {TablePage} page @returns {Promise<number|null>} */
async function askBuyIn(page) {
  await refreshUser();
  if (!page.alive) return null;
  return page.buyIn.ask();
}

/** @param {TablePage} page */
async function leaveTable(page) {
  const answer = await page.act("leave");
  if (answer) page.say({ kind: "info", key: "left_table", money: true, params: { amount: answer.amount ?? 0, commission: answer.commission ?? 0 } });
}

/** @param {TablePage} page */
async function cashOut(page) {
  const answer = await page.act("cash-out", {});
  if (answer) page.say({ kind: "info", key: "cashed_out", money: true, params: { amount: answer.amount ?? 0, commission: answer.commission ?? 0 } });
}

/** The bettor's own variant (R28): shown as switched once the server says so. @param {TablePage} page */
async function switchVariant(page) {
  const wanted = page.el.variant.value;
  const before = page.myVariant();
  if (wanted === before) return;
  page.el.variant.value = before;
  if (page.state.pending.length) {
    page.say({ kind: "error", detail: t("switch_locked") });
    return;
  }
  const answer = await page.act("variant", { variant: wanted });
  if (!answer) return;
  const mine = me(page.state);
  if (mine) mine.variant = answer.variant || wanted;
  page.say({ kind: "info", key: "variant_switched", params: {}, variant: answer.variant || wanted });
  page.draw();
}

/** @param {TablePage} page */
function switchTable(page) {
  if (page.hasOpenBet()) {
    toast(t("switch_locked"), "error");
    page.el.switcher.value = page.tableId;
    return;
  }
  location.hash = `#/table/${encodeURIComponent(page.el.switcher.value)}`;
}

// --- the squeeze ---------------------------------------------------------------------------------

/** Ask the server to turn a side's cards this player has peeled open (R23). @param {TablePage} page @param {string} side */
export async function revealSide(page, side) {
  if (!(await page.act("reveal", { side }))) for (const card of page.hands.hiddenOf(side)) unpeel(card);
}

/** @param {TablePage} page @param {string} side */
export async function handOver(page, side) {
  if (await page.act("hand-over", { side })) page.say({ kind: "info", key: "handed_over", params: {} });
}

// --- betting -------------------------------------------------------------------------------------

/** A chip on a spot (not yet sent: Confirm sends it). @param {TablePage} page @param {string} bet */
export function place(page, bet) {
  const { state, ui } = page;
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
  page.dispatch({ type: "local_place", bet, stake: ui.chip });
}

/** @param {TablePage} page */
export function rebet(page) {
  page.dispatch({ type: "local_place", stakes: rebetStakes(page.state) });
}

/** The confirmed bets once more, confirmed at once. @param {TablePage} page */
export function doubleBets(page) {
  const stakes = doubleStakes(page.state);
  if (!stakes.length) return;
  page.dispatch({ type: "local_place", stakes });
  confirm(page);
}

/**
 * Place one bet: over the table's websocket (its `bet_ack`), or POSTed when the socket is down or
 * drops before answering (the same client_id, so the server never takes it twice).
 * @param {TablePage} page @param {any} body
 */
async function sendBet(page, body) {
  if (page.socket.open) {
    try {
      return await page.socket.request({ type: "bet", ...body });
    } catch (error) {
      if (error && error.status) throw error; // refused by the table
    }
  }
  return api(`/api/tables/${encodeURIComponent(page.tableId)}/bets`, { method: "POST", body });
}

/** A first bet brings the player to the table: ask the buy-in first (the server would bring the whole wallet). @param {TablePage} page */
async function ensureAtTable(page) {
  if (me(page.state)) return true;
  const amount = await askBuyIn(page);
  if (amount === null) return false;
  try {
    const body = { buy_in: amount };
    const { socket, tableId } = page;
    await (socket.open ? socket.request({ type: "join", ...body }) : api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body }));
  } catch (error) {
    if (error.code !== "bettor.already_at_table") {
      page.refuse(error);
      return false;
    }
  }
  page.afterMove();
  return true;
}

/** Send the chips on the felt, one bet per spot; each accepted one is the server's from then on. @param {TablePage} page */
export async function confirm(page) {
  const round = page.state.round;
  const table = page.state.table;
  if (!round || !canBet(page.state)) return toast(t("betting_closed"), "error");
  /** @type {Map<string, number>} */
  const bySpot = new Map();
  for (const p of page.state.pending) bySpot.set(p.bet, (bySpot.get(p.bet) || 0) + p.stake);
  if ([...bySpot.values()].some((stake) => stake < table.min_bet)) {
    return toast(`${t("limits")} ${money(table.min_bet)}–${money(table.max_bet)}`, "error");
  }
  if (!(await ensureAtTable(page))) return;
  const placed = [];
  for (const [bet, stake] of bySpot) {
    try {
      const clientId = newClientId();
      const answer = await sendBet(page, { client_id: clientId, bet, stake, round_id: round.id });
      page.dispatch({ type: "bet_ack", bet: (answer && answer.bet) || { id: clientId, client_id: clientId, round_id: round.id, bet, stake }, balance: answer && answer.balance });
      placed.push(bet);
    } catch (error) {
      page.refuse(error);
    }
  }
  page.dispatch({ type: "local_confirmed", bets: placed });
  if (!placed.length) return;
  page.ui.notice = null;
  page.el.warning.textContent = "";
  delete page.el.warning.dataset.kind;
  page.requestState();
  page.requestBalance();
  page.requestMe();
  toast(t("bet_confirmed"));
  page.draw();
}
