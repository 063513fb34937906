// The dealer's calls: which change of state calls 請下注, 停止下注 or a win, and the last five seconds.

import assert from "node:assert/strict";
import { test } from "node:test";

import { LAST_SECONDS, phaseCue, secondToCall } from "../../src/baccarat/web/js/views/table/cues.js";
import { NOTES, soundOn } from "../../src/baccarat/web/js/sound.js";

const base = { open: true, round: null, shown: null, deadline: 0 };
const round = (id, status) => ({ id, number: id, status });

test("a round opening for bets calls 請下注, its close 停止下注, nothing else does", () => {
  assert.equal(phaseCue(base, { ...base, round: round(1, "betting") }), "open");
  assert.equal(phaseCue({ ...base, round: round(1, "settled") }, { ...base, round: round(2, "betting") }), "open");
  assert.equal(phaseCue({ ...base, round: round(2, "betting") }, { ...base, round: round(2, "betting") }), null);
  assert.equal(phaseCue({ ...base, round: round(2, "betting") }, { ...base, round: round(2, "closed") }), "closed");
  assert.equal(phaseCue(base, { ...base, round: round(2, "closed") }), null, "joining a closed round calls nothing");
});

test("a win of yours is called once, a loss never", () => {
  const won = { round_id: 3, bets: [{ bet: "banker", stake: 100, returned: 195 }] };
  const lost = { round_id: 4, bets: [{ bet: "banker", stake: 100, returned: 0 }] };
  const settled = { ...base, round: round(3, "settled") };
  assert.equal(phaseCue(settled, { ...settled, shown: won }), "win");
  assert.equal(phaseCue({ ...settled, shown: won }, { ...settled, shown: { ...won } }), null);
  assert.equal(phaseCue(settled, { ...settled, shown: lost }), null);
});

test("the last five seconds are called one by one, each once", () => {
  const now = 1_000_000;
  const at = (seconds) => ({ ...base, round: round(5, "betting"), deadline: now + seconds * 1000 });
  assert.equal(secondToCall(at(8), now, null), null);
  assert.equal(secondToCall(at(LAST_SECONDS), now, null), LAST_SECONDS);
  assert.equal(secondToCall(at(4.2), now, null), 5, "4.2 s left is the fifth second");
  assert.equal(secondToCall(at(4.2), now, 5), null, "called already");
  assert.equal(secondToCall(at(0.4), now, 2), 1);
  assert.equal(secondToCall({ ...at(3), round: round(5, "closed") }, now, null), null);
});

test("the sound is off until turned on, and every cue has notes", () => {
  assert.equal(soundOn(), false);
  for (const cue of ["open", "closed", "tick", "card", "win"]) assert.ok(NOTES[cue].length > 0, cue);
});

test("auto-confirm: chips are sent once a round, a moment before the close, only when the player asked", async () => {
  const { AUTO_CONFIRM_SECONDS, dueToConfirm } = await import("../../src/baccarat/web/js/views/table/autoconfirm.js");
  const at = { on: true, pending: 1, open: true, left: AUTO_CONFIRM_SECONDS, round: 7, sent: null };
  assert.equal(dueToConfirm(at), true);
  assert.equal(dueToConfirm({ ...at, on: false }), false, "the player's choice");
  assert.equal(dueToConfirm({ ...at, left: AUTO_CONFIRM_SECONDS + 1 }), false, "not before the moment");
  assert.equal(dueToConfirm({ ...at, pending: 0 }), false);
  assert.equal(dueToConfirm({ ...at, open: false }), false);
  assert.equal(dueToConfirm({ ...at, left: 0 }), false, "too late: the close");
  assert.equal(dueToConfirm({ ...at, sent: 7 }), false, "once a round");
  assert.equal(dueToConfirm({ ...at, sent: 6 }), true);
});
