// @ts-check
// What a server message does at a table besides changing its state: the cards dealt, turned or
// laid out, the result theatre, the cues, and asking the server again (the table's public state,
// this user at the table, the balance).

import { replace, toast } from "../../dom.js";
import { money } from "../../format.js";
import { t } from "../../i18n.js";
import { resultMs } from "../../state.js";
import { bannerUp } from "./draw.js";

/** @typedef {import("./page.js").TablePage} TablePage */

/** The messages after which the table's public state is asked for again, and this user's when they are theirs. */
const ASK_STATE = new Set([
  "round_voided", "bettor_joined", "bettor_sat", "bettor_left", "cashed_out", "funds_added", "variant_switched", "table_changed",
  "my_join", "my_funds", "my_cash_out", "my_leave",
]);

/** @param {TablePage} page @param {any} message */
export function sideEffects(page, message) {
  const type = message.type;
  if (type.startsWith("card_") || type === "squeeze_handed_over") return cardEffects(page, message);
  if (ASK_STATE.has(type)) {
    page.requestState();
    if (type.startsWith("my_")) {
      page.requestBalance();
      page.requestMe();
    }
    return;
  }
  switch (type) {
    case "snapshot": {
      const round = message.state && message.state.round;
      if (round && round.status === "settled" && round.result) page.hands.showStatic(round.result);
      if (message.state && message.state.table) takeCards(page, message.state.table);
      page.requestMe();
      break;
    }
    case "state":
      if (message.state) takeCards(page, message.state);
      break;
    case "betting_opened":
      if (!page.ui.dealing && !bannerUp(page)) page.hands.reset(null);
      break;
    case "betting_closed":
      if (page.squeezeTable()) {
        page.hands.live(message.round_id);
        page.hands.squeezers = { player: message.player_squeezer ?? null, banker: message.banker_squeezer ?? null };
      }
      page.requestState();
      break;
    case "round_settled":
      settled(page, message);
      page.requestState();
      break;
    case "my_settlement":
    case "my_refund":
      page.requestBalance();
      break;
    case "my_play_reminder": {
      const values = { m: message.minutes_played, lost: money(message.lost_today), limit: money(message.daily_loss_limit) };
      toast(() => t(message.daily_loss_limit === null ? "limits_reminder_toast" : "limits_reminder_toast_limit", values), "info");
      break;
    }
    case "error":
      if (message.status !== 401 && message.code !== "table.not_found") {
        const { status, code, rule, params, detail } = message;
        page.refuse({ status, message: detail, code, rule, params, detail });
      }
      break;
    default:
      break;
  }
}

/** Cards dealt, corrected or turned, and squeezes handed over (a squeeze table deals them one by one, R23). @param {TablePage} page @param {any} message */
function cardEffects(page, message) {
  const { hands } = page;
  switch (message.type) {
    case "card_dealt":
    case "card_corrected":
      if (message.card) page.cues.card();
      // every card as the dealer turns it, at the server's pace (face down for its squeezer, R23)
      hands.live(message.round_id);
      hands.setCard(message.position, message.face_down ? null : message.card);
      if (message.face_down) page.requestState();
      if (message.face_down && squeezing(page, message.position.split("_")[0])) page.requestMe();
      if (message.type === "card_corrected") page.requestState();
      break;
    case "card_revealed":
      page.cues.card();
      if (hands.round === message.round_id) {
        hands.setCard(message.position, message.card);
        page.requestState();
      }
      break;
    case "squeeze_handed_over":
      hands.squeezers[message.side] = message.to ?? null;
      page.requestState();
      if (squeezing(page, message.side)) page.requestMe();
      break;
    default:
      break;
  }
}

/** Whether this user squeezes `side` in the live round. @param {TablePage} page @param {string} side */
function squeezing(page, side) {
  const me = page.shownName();
  return Boolean(me) && page.hands.squeezers[side] === me;
}

/** A round settled: the cards dealt (or turned), then the result and payouts on screen for a while. @param {TablePage} page @param {any} message */
async function settled(page, message) {
  page.ui.dealing = true;
  replace(page.el.result);
  await page.hands.settle(message.round_id, message.result);
  if (!page.alive) return;
  page.ui.dealing = false;
  page.ui.bannerUntil = Date.now() + resultMs(page.state.table);
  page.draw();
}

/** The cards of the table's public state while a coup is dealt (after a reload, say). @param {TablePage} page @param {any} pub */
function takeCards(page, pub) {
  const { hands, state } = page;
  if (pub.squeezers) hands.squeezers = { ...pub.squeezers };
  hands.revealAt = pub.reveal_deadline ? pub.reveal_deadline * 1000 : 0;
  if (pub.phase === "dealing" && state.round && pub.cards) {
    hands.live(state.round.id);
    for (const [position, code] of Object.entries(pub.cards)) hands.setCard(position, code);
  }
}
