// The pips of a card's face: as many as the rank, inside the pip field, laid out as on a real deck.

import assert from "node:assert/strict";
import { test } from "node:test";

import { PIPS, pipsOf } from "../../src/baccarat/web/js/pips.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"];

test("every rank from the ace to the ten has as many pips as its value, court cards none", () => {
  RANKS.forEach((rank, i) => assert.equal(pipsOf(rank).length, i + 1, rank));
  for (const court of ["J", "Q", "K"]) assert.deepEqual(pipsOf(court), []);
});

test("pips lie inside the field, never two on one spot", () => {
  for (const [rank, pips] of Object.entries(PIPS)) {
    for (const [x, y] of pips) assert.ok(x > 0 && x < 100 && y > 0 && y < 100, `${rank}: ${x},${y}`);
    assert.equal(new Set(pips.map(([x, y]) => `${x},${y}`)).size, pips.length, rank);
  }
});

test("every rank but the seven looks the same upside down, as a real card does", () => {
  for (const rank of RANKS.filter((r) => r !== "7")) {
    const spots = new Set(pipsOf(rank).map(([x, y]) => `${x},${y}`));
    for (const [x, y] of pipsOf(rank)) assert.ok(spots.has(`${100 - x},${100 - y}`), `${rank}: ${x},${y}`);
  }
});

test("the pips below the middle of the field come first when a card is peeled from its near edge", () => {
  // a squeeze shows the bottom of the face first: every rank with more than one pip shows some below the middle
  for (const rank of RANKS.slice(1)) assert.ok(pipsOf(rank).some(([, y]) => y > 50), rank);
});
