// The lobby's cards as data: the reducer over a table's public messages, the seconds of betting left,
// the shoe's counts and the good roads.

import assert from "node:assert/strict";
import { test } from "node:test";

import { applyLobby, lobbyEntry, secondsLeft, shoeFacts } from "../../src/baccarat/web/js/views/lobby/model.js";

const bead = (result) => ({ result, banker_pair: false, player_pair: false, natural: false });
// five Banker wins then a Player win, then a tie: a Banker dragon broken by one Player
const ROADS = {
  results: "BBBBBP",
  bead_plate: [["B", "B", "B", "B", "B", "P"].map(bead)],
  big_road: { columns: [[bead("B"), bead("B"), bead("B"), bead("B"), bead("B")], [bead("P")]] },
};
const STATS = { coups: 6, banker: 5, player: 1, tie: 0, banker_pairs: 0, player_pairs: 0, naturals: 0, patterns: [{ pattern: "long_banker", first_column: 0, columns: 1, coups: 5 }] };
const TABLE = { id: "t", name: "T", players: 2, open: true, round: { id: 9, number: 3, status: "settled" } };

test("a table of the list: its round and players, no roads until its socket's snapshot", () => {
  const entry = lobbyEntry(TABLE);
  assert.deepEqual(entry.round, { id: 9, number: 3, status: "settled" });
  assert.equal(entry.players, 2);
  assert.equal(entry.roads, null);
  assert.equal(secondsLeft(entry, 0), 0);
});

test("the snapshot brings the roads and statistics, and the betting deadline of an open round", () => {
  const snapshot = { type: "snapshot", state: { ...TABLE, players: 3, roads: ROADS, stats: STATS, round: { id: 10, number: 4, status: "betting", closes_at: 100 } } };
  const entry = applyLobby(lobbyEntry(TABLE), snapshot, 0);
  assert.equal(entry.players, 3);
  assert.equal(secondsLeft(entry, 90_000), 10);
  assert.equal(secondsLeft(entry, 99_001), 1);
  assert.equal(secondsLeft(entry, 101_000), 0);
});

test("betting opens, counts down, closes and settles: the seconds left follow, the roads are the settled round's", () => {
  let entry = lobbyEntry(TABLE);
  entry = applyLobby(entry, { type: "betting_opened", round_id: 10, number: 4, betting_seconds: 15 }, 1_000);
  assert.deepEqual(entry.round, { id: 10, number: 4, status: "betting" });
  assert.equal(secondsLeft(entry, 1_000), 15);
  entry = applyLobby(entry, { type: "countdown", round_id: 10, seconds_left: 7.2, players: 4 }, 5_000);
  assert.equal(secondsLeft(entry, 5_000), 8);
  assert.equal(entry.players, 4);
  entry = applyLobby(entry, { type: "betting_closed", round_id: 10, number: 4 }, 6_000);
  assert.equal(entry.round.status, "closed");
  assert.equal(secondsLeft(entry, 6_000), 0);
  entry = applyLobby(entry, { type: "round_settled", round_id: 10, number: 4, roads: ROADS, stats: STATS }, 9_000);
  assert.equal(entry.round.status, "settled");
  assert.equal(entry.roads, ROADS);
});

test("players come and go; a new shoe clears the roads; a message the lobby does not show changes nothing", () => {
  let entry = { ...lobbyEntry(TABLE), roads: ROADS, stats: STATS };
  entry = applyLobby(entry, { type: "bettor_joined", bettor: "a***" }, 0);
  assert.equal(entry.players, 3);
  entry = applyLobby(entry, { type: "bettor_left", bettor: "a***" }, 0);
  entry = applyLobby(entry, { type: "bettor_left", bettor: "b***" }, 0);
  entry = applyLobby(entry, { type: "bettor_left", bettor: "c***" }, 0);
  assert.equal(entry.players, 0, "never below none");
  assert.equal(applyLobby(entry, { type: "card_dealt", position: "player_1", card: "9S" }, 0), entry);
  assert.equal(applyLobby(entry, { type: "shoe_started", shoe: 2 }, 0).roads, null);
  assert.equal(applyLobby(entry, { type: "table_changed", open: false }, 0).table.open, false);
});

test("the shoe's counts and the good road it ends with", () => {
  const { counts, alerts } = shoeFacts({ ...lobbyEntry(TABLE), roads: ROADS, stats: STATS });
  assert.deepEqual([counts.banker, counts.player, counts.tie, counts.coups], [5, 1, 0, 6]);
  // the dragon ended a column ago: it is no longer the road's current one
  assert.deepEqual(alerts, []);
  const dragon = { ...STATS, coups: 5, player: 0, patterns: STATS.patterns };
  const roads = { ...ROADS, results: "BBBBB", bead_plate: [ROADS.bead_plate[0].slice(0, 5)], big_road: { columns: [ROADS.big_road.columns[0]] } };
  assert.deepEqual(shoeFacts({ ...lobbyEntry(TABLE), roads, stats: dragon }).alerts.map((a) => a.pattern), ["long_banker"]);
  // counted from the bead plate when the statistics are of other roads
  assert.equal(shoeFacts({ ...lobbyEntry(TABLE), roads, stats: STATS }).counts.banker, 5);
});
