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
