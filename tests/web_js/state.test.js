// The reducer of the table's state (src/baccarat/web/js/state.js) over the server's messages.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  apply,
  canBet,
  confirmedStakes,
  confirmedTotal,
  doubleStakes,
  initialState,
  me,
  pendingTotal,
  rebetStakes,
  secondsLeft,
  showingResult,
  RESULT_MS,
  resultMs,
} from "../../src/baccarat/web/js/state.js";

const ANN = { id: 7, name: "ann", display_name: "a***4991", balance: 100000, wallet: 50000, at_tables: { t: 50000 }, commission_owed: 0, role: "player" };

/** A snapshot of table "t" with round 12 open for betting, ann (shown masked) at seat 2. */
function snapshot({ status = "betting", open = true } = {}) {
  return {
    type: "snapshot",
    ref: null,
    table: "t",
    state: {
      id: "t",
      name: "T",
      open,
      min_bet: 100,
      max_bet: 50000,
      bets: [{ bet: "banker" }, { bet: "player" }],
      round: { id: 12, number: 3, status, closes_at: 1000, totals: { banker: 900 } },
      table: {
        phase: status === "betting" ? "betting" : "idle",
        seats: [{ seat: 1, bettor: null }, { seat: 2, bettor: "a***4991" }],
        players: 2,
        bettors: [{ id: "a***4991", seat: 2, variant: "macau" }, { id: "b***0f1e", seat: null, variant: "macau" }],
        bets: [{ spot: null, bet: "banker", stake: 400, count: 1 }],
        cards: {},
        squeezers: {},
      },
    },
  };
}

function withAnn() {
  return apply(initialState(), { type: "local_user", user: ANN });
}

const RESULT = { player: { cards: ["9S", "KH"], total: 9 }, banker: { cards: ["4D", "QC"], total: 4 }, winner: "player" };

/** Ann at the table as GET /api/tables/t/me answers, holding `bets`. */
function atTable(bets, balance = 50000) {
  return { at_table: true, seat: 2, balance, available: balance, owed: 0, variant: "macau", bets };
}

/** Ann's table after a reload: the snapshot, then her bets and money from /me (asked in round 12). */
function reloaded(bets) {
  const s = apply(withAnn(), snapshot(), 0);
  return apply(s, { type: "local_me", me: atTable(bets), round: 12 }, 0);
}

test("after a reload the snapshot and /me restore this player's seat, money and confirmed bets", () => {
  const s = reloaded([{ bet: "banker", stake: 500 }, { bet: "banker", stake: 300 }, { bet: "player", stake: 100 }]);
  assert.equal(s.status, "ready");
  assert.deepEqual(confirmedStakes(s), { banker: 800, player: 100 });
  assert.equal(confirmedTotal(s), 900);
  assert.equal(s.myRound, 12);
  assert.equal(s.atTable, 50000);
  assert.equal(me(s).seat, 2, "found by the masked display name");
  assert.equal(s.deadline, 1000 * 1000, "closes_at (s) as the deadline (ms)");
  assert.deepEqual(s.totals, { banker: 900 });
});

test("after a reload, bets accepted later (in any tab) add to those the server told of", () => {
  let s = reloaded([{ bet: "banker", stake: 1000 }]);
  const bet = (id, stake) => ({ type: "my_bet", table: "t", round_id: 12, ts: 1, bet: { id, round_id: 12, client_id: `c${id}`, bet: "banker", stake, status: "open" }, balance: 1, at_table: 1 });
  s = apply(s, bet(50, 1000), 0);
  assert.deepEqual(confirmedStakes(s), { banker: 2000 });
  s = apply(s, bet(50, 1000), 0);
  assert.deepEqual(confirmedStakes(s), { banker: 2000 }, "the same bet twice counts once");
  // the server's next answer includes that bet: it is not counted twice
  s = apply(s, { type: "local_me", me: atTable([{ bet: "banker", stake: 1000 }, { bet: "banker", stake: 1000 }]), round: 12 }, 0);
  assert.deepEqual(confirmedStakes(s), { banker: 2000 });
  s = apply(s, bet(51, 500), 0);
  assert.deepEqual(confirmedStakes(s), { banker: 2500 });
});

test("the public state's bets are nobody's: they are never counted as mine", () => {
  const s = apply(withAnn(), snapshot(), 0);
  assert.deepEqual(confirmedStakes(s), {});
});

test("an answer of /me asked in an earlier round brings back no bets", () => {
  let s = apply(withAnn(), snapshot(), 0);
  s = apply(s, { type: "local_me", me: atTable([{ bet: "banker", stake: 500 }], 49500), round: 11 }, 0);
  assert.deepEqual(confirmedStakes(s), {});
  assert.equal(s.atTable, 49500, "the money is the server's now all the same");
  s = apply(s, { type: "local_me", me: { at_table: false }, round: 12 }, 0);
  assert.equal(s.atTable, 0);
});

test("my_bet from another tab adds the bet, once by its id, and moves the balance", () => {
  let s = apply(withAnn(), snapshot(), 0);
  const message = { type: "my_bet", table: "t", round_id: 12, ts: 1, bet: { id: 31, round_id: 12, client_id: "c1", bet: "player", stake: 500, status: "open" }, balance: 99500, at_table: 49500 };
  s = apply(s, message, 0);
  s = apply(s, message, 0);
  assert.deepEqual(confirmedStakes(s), { player: 500 });
  assert.equal(s.user.balance, 99500);
  assert.equal(s.atTable, 49500);
  assert.deepEqual(rebetStakes(s), [{ bet: "player", stake: 500 }]);
});

test("a stale state reply does not hide a bet just acknowledged", () => {
  let s = apply(withAnn(), snapshot(), 0);
  s = apply(s, { type: "bet_ack", ref: "r1", status: 201, bet: { id: 40, round_id: 12, client_id: "c", bet: "banker", stake: 1000, status: "open" }, balance: 99000, duplicate: false }, 0);
  s = apply(s, { type: "state", ref: null, state: snapshot().state.table }, 0);
  assert.deepEqual(confirmedStakes(s), { banker: 1000 });
});

test("my_* messages for nobody logged in change nothing", () => {
  const s = apply(initialState(), snapshot(), 0);
  const after = apply(s, { type: "my_bet", round_id: 12, bet: { id: 1, round_id: 12, bet: "banker", stake: 100 }, balance: 1, at_table: 1 }, 0);
  assert.equal(after, s);
});

test("the countdown moves the deadline by the caller's clock; seconds left round up", () => {
  let s = apply(withAnn(), snapshot(), 0);
  s = apply(s, { type: "countdown", table: "t", round_id: 12, ts: 5, seconds_left: 4.2, totals: { player: 300 }, exposure: 0, players: 2 }, 10000);
  assert.equal(s.deadline, 14200);
  assert.equal(secondsLeft(s, 10000), 5);
  assert.equal(secondsLeft(s, 14199), 1);
  assert.equal(secondsLeft(s, 20000), 0);
  assert.deepEqual(s.totals, { player: 300 });
  const other = apply(s, { type: "countdown", round_id: 99, seconds_left: 1, totals: {} }, 0);
  assert.equal(other, s, "another round's countdown is ignored");
});

test("chips not confirmed are dropped when betting closes, and counted", () => {
  let s = apply(withAnn(), snapshot(), 0);
  s = apply(s, { type: "local_place", bet: "banker", stake: 1000 }, 0);
  s = apply(s, { type: "local_place", bet: "banker", stake: 500 }, 0);
  assert.equal(pendingTotal(s), 1500);
  s = apply(s, { type: "local_undo" }, 0);
  assert.equal(pendingTotal(s), 1000);
  s = apply(s, { type: "betting_closed", id: 3, table: "t", round_id: 12, ts: 2 }, 0);
  assert.equal(s.pending.length, 0);
  assert.equal(s.dropped, 1);
  assert.equal(canBet(s), false);
  assert.equal(s.round.status, "closed");
});

test("a settled round shows the result with my payouts, moves the money and keeps the bets for rebet", () => {
  let s = reloaded([{ bet: "player", stake: 1000 }]);
  s = apply(s, { type: "round_settled", id: 5, table: "t", round_id: 12, ts: 3, number: 3, result: RESULT, roads: { results: "P" } }, 5000);
  assert.equal(s.round.status, "settled");
  assert.equal(s.shown.round_id, 12);
  assert.equal(s.table.roads.results, "P");
  assert.equal(s.recent[0].mine, true);
  assert.deepEqual(confirmedStakes(s), {}, "the round's bets are settled");
  assert.deepEqual(rebetStakes(s), [{ bet: "player", stake: 1000 }]);
  const bets = [{ bet: "player", stake: 1000, result: "win", paid: 1000, commission: 0, owed: 0, returned: 2000, level: "win" }];
  s = apply(s, { type: "my_settlement", id: 6, table: "t", round_id: 12, ts: 3, number: 3, bets, returned: 2000, at_table: 52000, commission_owed: 0 }, 5000);
  assert.deepEqual(s.shown.bets, bets);
  assert.equal(s.atTable, 52000);
  assert.equal(s.user.balance, 102000, "the balance moves by what the money at the table moved");
  assert.equal(showingResult(s, 5000 + RESULT_MS - 1), true);
  assert.equal(showingResult(s, 5000 + RESULT_MS), false);
  // the table sets its result phase
  const quick = { ...s, table: { ...s.table, settle_pause_seconds: 0.5 } };
  assert.equal(showingResult(quick, 5000 + 2999), true, "at least 3 s");
  assert.equal(showingResult(quick, 5000 + 3000), false);
});

test("the result phase is the table's settle pause, between 3 and 6 seconds", () => {
  assert.equal(resultMs({ settle_pause_seconds: 4 }), 4000);
  assert.equal(resultMs({ settle_pause_seconds: 0.5 }), 3000);
  assert.equal(resultMs({ settle_pause_seconds: 20 }), 6000);
  assert.equal(resultMs(null), RESULT_MS);
});

test("a new round opens: the deadline, no totals, the last round's bets forgotten", () => {
  let s = reloaded([{ bet: "banker", stake: 200 }]);
  s = apply(s, { type: "betting_opened", id: 9, table: "t", round_id: 13, ts: 1, number: 4, closes_at: 50, betting_seconds: 15, coup_in_shoe: 4 }, 1000);
  assert.deepEqual(s.round, { id: 13, number: 4, status: "betting" });
  assert.equal(s.deadline, 16000);
  assert.deepEqual(s.totals, {});
  assert.deepEqual(confirmedStakes(s), {});
  assert.deepEqual(rebetStakes(s), [{ bet: "banker", stake: 200 }]);
});

test("double places the confirmed bets once more", () => {
  let s = reloaded([{ bet: "banker", stake: 200 }, { bet: "player", stake: 100 }]);
  assert.deepEqual(doubleStakes(s), [{ bet: "banker", stake: 200 }, { bet: "player", stake: 100 }]);
  s = apply(s, { type: "local_place", stakes: doubleStakes(s) }, 0);
  assert.equal(pendingTotal(s), 300);
});

test("a voided round forgets my bets; the refund moves the money", () => {
  let s = reloaded([{ bet: "banker", stake: 200 }]);
  s = apply(s, { type: "round_voided", id: 4, table: "t", round_id: 12, ts: 1, reason: "misdeal" }, 0);
  assert.equal(s.round.status, "voided");
  assert.deepEqual(confirmedStakes(s), {});
  s = apply(s, { type: "my_refund", id: 5, table: "t", round_id: 12, ts: 1, number: 3, refunds: [{ bet: "banker", stake: 200 }], refunded: 200, at_table: 50200, commission_owed: 0 }, 0);
  assert.equal(s.atTable, 50200);
  assert.equal(s.user.balance, 100200);
});

test("a closed table offers no betting; table_changed opens it again", () => {
  let s = apply(withAnn(), snapshot({ open: false }), 0);
  assert.equal(s.open, false);
  assert.equal(canBet(s), false);
  s = apply(s, { type: "table_changed", id: 2, table: "t", round_id: null, ts: 1, open: true, change_shoe: false }, 0);
  assert.equal(s.open, true);
  assert.equal(canBet(s), true);
});

test("an unknown table: the server's table.not_found (no ref) marks the table missing", () => {
  const s = apply(initialState(), { type: "error", status: 404, ref: null, code: "table.not_found", rule: null, params: { table: "x" }, detail: "no table 'x'" }, 0);
  assert.equal(s.status, "missing");
  const refused = apply(initialState(), { type: "error", status: 409, ref: "r1", code: "betting.closed", rule: null, params: {}, detail: "betting is closed" }, 0);
  assert.equal(refused.status, "loading", "a refusal of one request is not a missing table");
});

test("the connection and its next try", () => {
  const s = apply(initialState(), { type: "local_connection", connection: "closed", retryAt: 4000 }, 0);
  assert.equal(s.connection, "closed");
  assert.equal(s.retryAt, 4000);
});

test("another user logging in here starts from nothing of the last one", () => {
  let s = reloaded([{ bet: "banker", stake: 200 }]);
  s = apply(s, { type: "local_place", bet: "player", stake: 100 }, 0);
  s = apply(s, { type: "local_user", user: { ...ANN, id: 9, name: "cat", display_name: "c***77aa", at_tables: {} } }, 0);
  assert.deepEqual(confirmedStakes(s), {});
  assert.equal(s.pending.length, 0);
  assert.equal(s.atTable, 0);
});

test("unknown messages change nothing", () => {
  const s = initialState();
  assert.equal(apply(s, { type: "pong", ref: null, ts: 1 }, 0), s);
  assert.equal(apply(s, /** @type {any} */ ({}), 0), s);
});
