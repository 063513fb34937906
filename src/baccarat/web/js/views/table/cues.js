// @ts-check
// The table's cues, as a dealer calls them: 請下注 when betting opens, 停止下注 when it closes, each
// of the last five seconds, every card turned and a win of yours, shown large for a moment on the
// felt and, when the player turns the sound on, heard (js/sound.js). A pure part decides which cue a
// change of state calls for; the Cues class shows and plays it.

import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import { canBet, secondsLeft } from "../../state.js";
import { Sound } from "../../sound.js";
import { netOf } from "./result.js";
import "./cues_texts.js";

/** Seconds of the countdown called out one by one. */
export const LAST_SECONDS = 5;
/** How long a called cue stays on the felt. */
export const CUE_MS = 1600;

/**
 * The cue a change of state calls for: "open" (a round opens for bets), "closed" (its betting
 * closes), "win" (a round of yours settles with a gain), or null.
 * @param {import("../../state.js").TableState} before @param {import("../../state.js").TableState} after
 * @returns {"open"|"closed"|"win"|null}
 */
export function phaseCue(before, after) {
  const was = before.round;
  const now = after.round;
  if (now && now.status === "betting" && (!was || was.id !== now.id || was.status !== "betting")) return "open";
  if (now && now.status === "closed" && was && was.id === now.id && was.status === "betting") return "closed";
  const shown = after.shown;
  if (shown && shown !== before.shown && shown.bets && shown.bets.length && netOf(shown.bets) > 0) {
    if (!before.shown || before.shown.round_id !== shown.round_id) return "win";
  }
  return null;
}

/**
 * The second to call now, if the countdown just reached one of the last LAST_SECONDS it has not called.
 * @param {import("../../state.js").TableState} state @param {number} now Date.now() @param {number|null} called the last second called
 * @returns {number|null}
 */
export function secondToCall(state, now, called) {
  if (!canBet(state)) return null;
  const left = secondsLeft(state, now);
  if (left < 1 || left > LAST_SECONDS || left === called) return null;
  return left;
}

export class Cues {
  /** @param {HTMLElement} box the felt's cue line @param {HTMLButtonElement} toggle the sound switch */
  constructor(box, toggle) {
    this.box = box;
    this.toggle = toggle;
    this.sound = new Sound();
    /** @type {number|null} */
    this.called = null;
    /** @type {number|null} the round whose seconds are being called */
    this.round = null;
    this.timer = 0;
    toggle.addEventListener("click", () => {
      this.sound.set(!this.sound.on);
      this.drawToggle();
    });
    this.drawToggle();
  }

  drawToggle() {
    this.toggle.setAttribute("aria-pressed", this.sound.on ? "true" : "false");
    this.toggle.textContent = this.sound.on ? t("sound_on") : t("sound_off");
    this.toggle.title = t("sound_help");
  }

  /** After a message: the cue its change calls for. @param {import("../../state.js").TableState} before @param {import("../../state.js").TableState} after */
  changed(before, after) {
    const cue = phaseCue(before, after);
    if (cue === "open") this.show(t("cue_open"), "open");
    else if (cue === "closed") this.show(t("cue_closed"), "closed");
    if (cue) this.sound.play(cue); // a win is shown by the result banner
  }

  /** Each tick: the last seconds, one by one. @param {import("../../state.js").TableState} state @param {number} now */
  tick(state, now) {
    if (state.round && state.round.id !== this.round) {
      this.round = state.round.id;
      this.called = null;
    }
    const second = secondToCall(state, now, this.called);
    this.box.parentElement?.classList.toggle("urgent", canBet(state) && secondsLeft(state, now) <= LAST_SECONDS);
    if (second === null || this.box.dataset.cue === "open") return; // 請下注 is not cut short by a second
    this.called = second;
    this.show(String(second), "second");
    this.sound.play("tick");
  }

  /** A card turned face up. */
  card() {
    this.sound.play("card");
  }

  /** Show a cue on the felt for CUE_MS. @param {string} text @param {string} kind */
  show(text, kind) {
    clearTimeout(this.timer);
    this.box.replaceChildren(h("span", { class: `cue cue-${kind}` }, text));
    this.box.dataset.cue = kind;
    this.timer = window.setTimeout(() => {
      this.box.replaceChildren();
      delete this.box.dataset.cue;
    }, CUE_MS);
  }
}
