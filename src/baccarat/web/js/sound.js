// @ts-check
// The table's sounds, synthesised with Web Audio (no files): a chime when betting opens, two low notes
// when it closes, a tick for each of the last seconds, a soft click per card turned and a rising
// phrase for a win. Off until the player turns it on; the choice is remembered (localStorage).

import { flagOn, setFlag } from "./prefs.js";

const KEY = "baccarat.sound";

/** @typedef {"open"|"closed"|"tick"|"card"|"win"} Cue */

/** Each cue's notes: [frequency Hz, start s, length s, gain]. @type {Record<Cue, [number, number, number, number][]>} */
export const NOTES = {
  open: [[659.25, 0, 0.18, 0.22], [880, 0.12, 0.32, 0.22]],
  closed: [[392, 0, 0.16, 0.22], [261.63, 0.14, 0.3, 0.22]],
  tick: [[1318.5, 0, 0.05, 0.12]],
  card: [[2093, 0, 0.03, 0.06]],
  win: [[523.25, 0, 0.14, 0.2], [659.25, 0.1, 0.14, 0.2], [783.99, 0.2, 0.14, 0.2], [1046.5, 0.3, 0.36, 0.2]],
};

/** Whether the player turned the sound on (false where there is no storage). */
export function soundOn() {
  return flagOn(KEY);
}

/** Remember the player's choice. @param {boolean} on */
export function setSoundOn(on) {
  setFlag(KEY, on);
}

export class Sound {
  constructor() {
    this.on = soundOn();
    /** @type {AudioContext|null} */
    this.context = null;
    /** @type {Cue[]} cues played, newest last (for tests and the screen reader's log) */
    this.played = [];
  }

  /** Turn the sound on or off (a click: browsers start audio only from one). @param {boolean} on */
  set(on) {
    this.on = on;
    setSoundOn(on);
    if (on) this.audio();
  }

  /** @returns {AudioContext|null} */
  audio() {
    if (this.context) return this.context;
    const Context = typeof window !== "undefined" ? window.AudioContext : undefined;
    if (!Context) return null;
    this.context = new Context();
    return this.context;
  }

  /** Play a cue if the sound is on. @param {Cue} cue */
  play(cue) {
    if (!this.on) return;
    this.played.push(cue);
    if (this.played.length > 50) this.played.shift();
    const context = this.audio();
    if (!context) return;
    if (context.state === "suspended") context.resume();
    const start = context.currentTime + 0.01;
    for (const [frequency, at, length, level] of NOTES[cue]) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.type = cue === "tick" || cue === "card" ? "square" : "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0, start + at);
      gain.gain.linearRampToValueAtTime(level, start + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      tone.connect(gain).connect(context.destination);
      tone.start(start + at);
      tone.stop(start + at + length + 0.02);
    }
  }
}
