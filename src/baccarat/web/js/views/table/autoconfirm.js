// @ts-check
// Unconfirmed chips at the close of betting: dropped with a message (the default), or confirmed
// automatically a moment before the close, a player's setting remembered in this browser.

import { flagOn, setFlag } from "../../prefs.js";
import "./autoconfirm_texts.js";

const KEY = "baccarat.autoconfirm";
/** Chips are confirmed automatically this many seconds before betting closes. */
export const AUTO_CONFIRM_SECONDS = 2;

/** Whether the player asked for their chips to be confirmed automatically. */
export function autoConfirmOn() {
  return flagOn(KEY);
}

/** Remember the player's choice. @param {boolean} on */
export function setAutoConfirm(on) {
  setFlag(KEY, on);
}

/**
 * Whether to confirm the chips now: the setting is on, chips wait, betting is open with at most
 * AUTO_CONFIRM_SECONDS left, and this round's chips were not sent automatically already.
 * @param {{on: boolean, pending: number, open: boolean, left: number, round: number|null, sent: number|null}} at
 */
export function dueToConfirm(at) {
  return at.on && at.pending > 0 && at.open && at.left <= AUTO_CONFIRM_SECONDS && at.left > 0 && at.round !== null && at.sent !== at.round;
}
