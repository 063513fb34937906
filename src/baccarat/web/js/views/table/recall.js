// @ts-check
// Past rounds at a table: a round recalled with its cards and this player's bets, and this player's
// recent rounds here (the ★ of the recent rounds, and what rebet places after a reload).

import { api } from "../../api.js";
import { h, replace } from "../../dom.js";
import { t } from "../../i18n.js";
import { explain } from "../../refusals.js";
import { currentUser } from "../../session.js";
import { renderRecall } from "./history.js";

/** @typedef {import("./page.js").TablePage} TablePage */

/** This player's last rounds (any table); none when logged out or unavailable. @returns {Promise<any[]>} */
async function myHistory() {
  if (!currentUser()) return [];
  try {
    const { rounds } = await api("/api/me/history?limit=20");
    return rounds;
  } catch {
    return []; // the history is a convenience; the table works without it
  }
}

/** Show a past round: its cards, result and this player's bets. @param {TablePage} page @param {number} roundId */
export async function recall(page, roundId, { focus = true } = {}) {
  const { el } = page;
  page.ui.recalled = roundId;
  replace(el.recall, h("p", { class: "muted" }, t("loading")));
  try {
    const round = await api(`/api/rounds/${roundId}`);
    const mine = (await myHistory()).find((r) => r.round_id === roundId);
    renderRecall(el.recall, { id: roundId, ...round }, mine ? mine.bets : null, (/** @type {string} */ bet) => page.nameOf(bet));
    if (focus) /** @type {HTMLElement} */ (el.recall.querySelector("#recall-title")).focus();
  } catch (error) {
    replace(el.recall, h("p", { class: "error" }, explain(error)));
  }
}

/** This player's recent rounds here, and their last bets for rebet. @param {TablePage} page */
export async function loadMyRounds(page) {
  const rounds = (await myHistory()).filter((r) => r.table === page.tableId && r.result);
  if (!page.alive || !rounds.length) return;
  page.dispatch({ type: "local_recent", rounds: rounds.map((r) => ({ round_id: r.round_id, number: r.number, result: r.result, mine: true })) });
  if (page.state.lastBets.length) return;
  const last = rounds.sort((a, b) => b.round_id - a.round_id)[0];
  /** @type {Record<string, number>} */
  const stakes = {};
  for (const b of last.bets || []) stakes[b.bet] = (stakes[b.bet] || 0) + b.stake;
  page.dispatch({ type: "local_last_bets", bets: Object.entries(stakes).map(([bet, stake]) => ({ bet, stake })) });
}
