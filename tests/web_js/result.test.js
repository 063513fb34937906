// The result banner's words and the winning spots (src/baccarat/web/js/views/table/result.js).

import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDom } from "./fake_dom.js";

installFakeDom();
const { bannerText, netOf, winners } = await import("../../src/baccarat/web/js/views/table/result.js");
const { setLang } = await import("../../src/baccarat/web/js/i18n.js");

const RESULT = { player: { cards: ["9S", "9H"], total: 8 }, banker: { cards: ["4D", "QC"], total: 4 }, winner: "player" };
const BETS = [
  { bet: "player", stake: 1000, result: "win", paid: 1000, commission: 0, owed: 0, returned: 2000, level: "win" },
  { bet: "tie", stake: 500, result: "lose", paid: 0, commission: 0, owed: 0, returned: 0, level: "" },
];

test("the banner: the winner with the totals, and this player's net", () => {
  setLang("zh-Hant");
  const shown = { round_id: 1, number: 1, result: RESULT, bets: BETS, at: 0 };
  assert.equal(netOf(BETS), 500);
  assert.equal(bannerText(shown), "閒贏 8:4 · 你贏 +5.00");
  setLang("en");
  assert.equal(bannerText(shown), "Player wins 8:4 · You win +5.00");
  assert.equal(bannerText({ ...shown, bets: [BETS[1]] }), "Player wins 8:4 · You lose -5.00");
  assert.equal(bannerText({ ...shown, bets: null }), "Player wins 8:4");
  setLang("zh-Hans");
  assert.equal(bannerText(shown), "闲赢 8:4 · 你赢 +5.00");
  setLang("zh-Hant");
  assert.equal(bannerText({ ...shown, result: { ...RESULT, natural: true } }), "閒贏 8:4 · 天牌 · 你贏 +5.00");
  setLang("en");
});

test("the winning spots: the winner, a pair dealt, and every bet of mine that won", () => {
  const won = winners({ round_id: 1, number: 1, result: RESULT, bets: BETS, at: 0 });
  assert.deepEqual([...won].sort(), ["player", "player_pair"]);
  assert.equal(winners(null).size, 0);
});

test("a stack is made up of the table's chips, largest first, at most five drawn", async () => {
  const { chipStack, STACK_CHIPS } = await import("../../src/baccarat/web/js/views/table/spots.js");
  assert.deepEqual(chipStack(1600, [100, 500, 1000]), [1000, 500, 100]);
  assert.deepEqual(chipStack(100_000, [100, 500, 1000, 5000, 10000, 50000, 100000]), [100000]);
  assert.equal(chipStack(99_900, [100, 500, 1000, 5000, 10000, 50000]).length, STACK_CHIPS);
  assert.deepEqual(chipStack(50, [100, 500]), [100], "an amount under the smallest chip still shows one");
  assert.deepEqual(chipStack(0, [100]), []);
});

test("a bet of one level shows its payout; of several, the best, every level on demand", async () => {
  const { payText, payLevels } = await import("../../src/baccarat/web/js/views/table/spots.js");
  const { setLang } = await import("../../src/baccarat/web/js/i18n.js");
  setLang("en");
  assert.equal(payText({ pays: [{ level: "win", pays: "0.95" }] }), "0.95:1");
  const dragon = { pays: [{ level: "natural", pays: "1" }, { level: "win by 9", pays: "30" }, { level: "win by 4", pays: "1" }] };
  assert.equal(payText(dragon), "up to 30:1");
  setLang("zh-Hant");
  assert.equal(payText(dragon), "最高 30:1");
  assert.deepEqual(payLevels(dragon).map((l) => l.level), ["天牌", "贏9點", "贏4點"]);
});
