// The dealer's console's card codes, grid and hand totals.

import assert from "node:assert/strict";
import { test } from "node:test";

import { bySide, cardCode, cardGrid, handTotal } from "../../src/baccarat/web/js/views/dealer/codes.js";

test("a typed or scanned card is written the server's way", () => {
  assert.equal(cardCode("as"), "AS");
  assert.equal(cardCode("10h"), "TH");
  assert.equal(cardCode(" K♣ "), "KC");
  assert.equal(cardCode("1H"), null);
  assert.equal(cardCode("ZZ"), null);
});

test("the grid holds the 52 cards once, a row per suit", () => {
  const grid = cardGrid();
  assert.equal(grid.length, 4);
  assert.equal(new Set(grid.flat()).size, 52);
  assert.deepEqual(grid[0].slice(0, 3), ["AS", "2S", "3S"]);
});

test("hands by side and their totals (R2)", () => {
  const cards = [
    { position: "player_1", short: "P1", card: "5S" },
    { position: "banker_1", short: "B1", card: "KH" },
    { position: "player_2", short: "P2", card: "9D" },
    { position: "banker_2", short: "B2", card: null },
  ];
  const sides = bySide(cards);
  assert.deepEqual(sides.player.map((c) => c.short), ["P1", "P2"]);
  assert.equal(handTotal(sides.player.map((c) => c.card)), 4);
  assert.equal(handTotal(sides.banker.map((c) => c.card)), null, "a face-down card hides the total");
  assert.equal(handTotal(["TS", "JH", "QD"]), 0);
  assert.equal(handTotal(["AS", "AH"]), 2);
});
