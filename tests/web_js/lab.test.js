// The lab's advisor follows a shoe from public messages; its oracle charts read the run's figures.

import assert from "node:assert/strict";
import { test } from "node:test";

import { ShoeFollower, cardsIn, messageCards } from "../../src/baccarat/web/js/views/lab/follow.js";
import { adviceRows } from "../../src/baccarat/web/js/views/lab/advisor.js";
import { depthSeries, gainBars, span } from "../../src/baccarat/web/js/views/lab/oracle.js";

test("the cards leaving the shoe are a settled round's and those a voided round shows", () => {
  assert.deepEqual(messageCards({ type: "round_settled", result: { cards: ["9S", "8H", "KD", "5C"] } }), ["9S", "8H", "KD", "5C"]);
  assert.deepEqual(messageCards({ type: "round_voided", cards: { player: ["AS", null], banker: [] } }), ["AS"]);
  assert.deepEqual(messageCards({ type: "card_dealt", card: "AS" }), []);
  assert.deepEqual(messageCards(null), []);
  assert.deepEqual(cardsIn({ a: ["QS", "nope", 5, { b: "TD" }] }), ["QS", "TD"]);
});

test("a follower applies each stored event once and starts again at a new shoe", () => {
  const shoe = new ShoeFollower(8);
  assert.equal(shoe.apply({ id: 1, type: "shoe_started", config: { decks: 6 } }), true);
  assert.equal(shoe.decks, 6);
  assert.equal(shoe.apply({ id: 2, type: "round_settled", result: { cards: ["AS", "2H", "3D", "4C"] } }), true);
  assert.equal(shoe.apply({ id: 2, type: "round_settled", result: { cards: ["AS", "2H", "3D", "4C"] } }), false, "the same event twice");
  assert.equal(shoe.apply({ id: 3, type: "betting_opened" }), false);
  assert.equal(shoe.apply({ type: "round_voided", cards: ["KS"] }), true, "a message without an id is applied");
  assert.deepEqual(shoe.cards, ["AS", "2H", "3D", "4C", "KS"]);
  assert.equal(shoe.last, 3);
  shoe.apply({ id: 4, type: "shoe_started", config: {} });
  assert.deepEqual(shoe.cards, []);
  assert.equal(shoe.decks, 6, "a shoe_started without decks keeps the table's");
});

test("the advice lists the bets best EV first, +EV ones marked", () => {
  const rows = adviceRows({ bets: { banker: { expected_value: -0.01, positive: false }, tie: { expected_value: 0.02, positive: true } } });
  assert.deepEqual(rows.map((r) => [r.id, r.positive]), [["tie", true], ["banker", false]]);
});

const RUN = {
  bets: {
    banker: { expected_per_shoe: { value: 0.002 }, realised_per_shoe: { value: -0.004, ci95: [-0.017, 0.01] } },
    dragon7: { expected_per_shoe: { value: 0.71 }, realised_per_shoe: { value: 0.99, ci95: [0.6, 1.39] } },
  },
  penetration: { bins: 4, coups: [10, 10, 10, 0], coup_share: { banker: [0, 0.1, 0.3, null], dragon7: [0.05, 0.1, 0.2, null] } },
};

test("the gain chart takes each bet's expected and realised gain per shoe with its interval", () => {
  assert.deepEqual(gainBars(RUN)[1], { id: "dragon7", expected: 0.71, realised: 0.99, low: 0.6, high: 1.39 });
});

test("the penetration chart puts each tenth at its middle and leaves out empty ones", () => {
  const [banker] = depthSeries(RUN);
  assert.deepEqual(banker.points, [{ x: 0.125, y: 0 }, { x: 0.375, y: 0.1 }, { x: 0.625, y: 0.3 }]);
});

test("an axis holds zero and every value", () => {
  const [low, high] = span([0.2, 1.4]);
  assert.equal(low, 0);
  assert.ok(high > 1.4);
  const [below] = span([-0.5, 0.1]);
  assert.ok(below < -0.5);
});
