// The road display board's decisions (src/baccarat/web/js/views/display/model.js) and its words
// (display/render.js, display_texts.js): the address, the columns that fit, the counts, the good-road
// alerts picked from the server's patterns, the limits and the last result.

import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDom } from "./fake_dom.js";

installFakeDom();
const model = await import("../../src/baccarat/web/js/views/display/model.js");
await import("../../src/baccarat/web/js/views/display_texts.js");
const { handsText } = await import("../../src/baccarat/web/js/views/display/render.js");
const { alertText } = await import("../../src/baccarat/web/js/alerts.js");
const { setLang, t, keys } = await import("../../src/baccarat/web/js/i18n.js");

const cell = (result, extra = {}) => ({ result, ties: 0, banker_pair: false, player_pair: false, natural: false, ...extra });
const bead = (result, extra = {}) => ({ result, banker_pair: false, player_pair: false, natural: false, ...extra });

// P B P (a tie) B B B B B: columns P, B, P, BBBBB
const ROADS = {
  results: "PBPTBBBBB",
  bead_plate: [
    [bead("P", { player_pair: true }), bead("B", { natural: true }), bead("P"), bead("T"), bead("B", { banker_pair: true }), bead("B")],
    [bead("B"), bead("B", { natural: true }), bead("B"), null, null, null],
  ],
  big_road: {
    columns: [[cell("P")], [cell("B")], [cell("P", { ties: 1 })], [cell("B"), cell("B"), cell("B"), cell("B"), cell("B")]],
    grid: [],
    leading_ties: 0,
  },
};
const STATS = {
  coups: 9, banker: 6, player: 2, tie: 1, banker_pairs: 1, player_pairs: 1, naturals: 2,
  longest_banker_streak: 5, longest_player_streak: 1,
  patterns: [{ pattern: "long_banker", first_column: 3, columns: 1, coups: 5 }],
};

test("the address: the table id and the language asked for", () => {
  assert.deepEqual(model.parseBoardArg("web-macau"), { tableId: "web-macau", lang: null });
  assert.deepEqual(model.parseBoardArg("web-macau?lang=en"), { tableId: "web-macau", lang: "en" });
  assert.deepEqual(model.parseBoardArg("web-macau?lang=zh-CN"), { tableId: "web-macau", lang: "zh-Hans" });
  assert.deepEqual(model.parseBoardArg("web-macau", "?lang=zh-Hant"), { tableId: "web-macau", lang: "zh-Hant" });
  assert.deepEqual(model.parseBoardArg("web-macau?lang=fr"), { tableId: "web-macau", lang: null });
});

test("layout: the columns of nearly square cells that fill the box, never fewer than six", () => {
  assert.equal(model.roadColumns(1200, 300), 24); // cells of 50 px
  assert.equal(model.roadColumns(1290, 280), 28); // 27.6 columns of 46.7 px: 28 a little narrower
  assert.equal(model.roadColumns(1270, 280), 27); // 27.2: 27 a little wider
  assert.equal(model.roadColumns(100, 300), 6);
  assert.equal(model.roadColumns(0, 0), 6);
  assert.equal(model.roadColumns(640, 240, 6, 4), 16);
  assert.equal(model.roadColumns(100, 240, 6, 1), 3);
  assert.equal(model.orientation(1920, 1080), "landscape");
  assert.equal(model.orientation(1080, 1920), "portrait");
});

test("the counts: the server's statistics when they are of these roads", () => {
  const c = model.boardStats(ROADS, STATS);
  assert.deepEqual(c, { coups: 9, banker: 6, player: 2, tie: 1, banker_pairs: 1, player_pairs: 1, naturals: 2, longest_banker: 5, longest_player: 1 });
  assert.equal(model.share(c.banker, c.coups), "67%");
  assert.equal(model.share(0, 0), "–");
});

test("the counts: from the bead plate when the statistics are missing or of older roads", () => {
  const counted = { coups: 9, banker: 6, player: 2, tie: 1, banker_pairs: 1, player_pairs: 1, naturals: 2, longest_banker: 5, longest_player: 1 };
  assert.deepEqual(model.boardStats(ROADS, null), counted);
  assert.deepEqual(model.boardStats(ROADS, { ...STATS, coups: 8, banker: 5 }), counted);
  assert.equal(model.boardStats({ results: "" }, null).coups, 0);
});

test("alerts: only the server's patterns that end at the big road's last column, longest first", () => {
  // P B P B P P B B B B: a single jump (columns 0–3) that is over, then Banker four in a row now
  const roads = {
    results: "PBPBPPBBBB",
    big_road: { columns: [[cell("P")], [cell("B")], [cell("P")], [cell("B")], [cell("P"), cell("P")], [cell("B"), cell("B"), cell("B"), cell("B")]] },
  };
  const stats = {
    coups: 10,
    patterns: [
      { pattern: "long_banker", first_column: 5, columns: 1, coups: 4 },
      { pattern: "single_jump", first_column: 0, columns: 4, coups: 4 },
    ],
  };
  assert.deepEqual(model.currentAlerts(roads, stats), [{ pattern: "long_banker", coups: 4, columns: 1, side: "banker" }]);
  // two current patterns (made up): the one of more hands first
  const both = { ...stats, patterns: [{ pattern: "double_jump", first_column: 3, columns: 3, coups: 7 }, ...stats.patterns] };
  assert.deepEqual(model.currentAlerts(roads, both).map((x) => [x.pattern, x.side]), [["double_jump", null], ["long_banker", "banker"]]);
});

test("alerts: a dragon and a ping-pong, with their sides", () => {
  const dragon = { ...STATS, patterns: [{ pattern: "long_banker", first_column: 3, columns: 1, coups: 5 }] };
  assert.deepEqual(model.currentAlerts(ROADS, dragon), [{ pattern: "long_banker", coups: 5, columns: 1, side: "banker" }]);
  const jumps = { results: "PBPB", big_road: { columns: [[cell("P")], [cell("B")], [cell("P")], [cell("B")]] } };
  const jumpStats = { coups: 4, patterns: [{ pattern: "single_jump", first_column: 0, columns: 4, coups: 4 }] };
  assert.deepEqual(model.currentAlerts(jumps, jumpStats), [{ pattern: "single_jump", coups: 4, columns: 4, side: null }]);
  // statistics of other roads (sent before the last coup) raise nothing
  assert.deepEqual(model.currentAlerts(jumps, { ...jumpStats, coups: 3 }), []);
  assert.deepEqual(model.currentAlerts(jumps, null), []);
  assert.deepEqual(model.currentAlerts({ results: "" }, jumpStats), []);
});

test("alerts: their words in every language", () => {
  const dragon = { pattern: "long_banker", coups: 5, columns: 1, side: "banker" };
  const jump = { pattern: "single_jump", coups: 4, columns: 4, side: "player" };
  setLang("zh-Hant");
  assert.equal(alertText(dragon), "長莊（長龍） · 5 連");
  assert.equal(alertText(jump), "單跳 · 4 局");
  setLang("zh-Hans");
  assert.equal(alertText(dragon), "长庄（长龙） · 5 连");
  setLang("en");
  assert.equal(alertText(dragon), "Banker dragon · 5 in a row");
  assert.equal(alertText({ ...jump, pattern: "double_jump", coups: 6 }), "Double jump · 6 hands");
  assert.equal(handsText(1), "1 hand");
  assert.equal(handsText(0), "0 hands");
  for (const pattern of ["long_banker", "long_player", "single_jump", "double_jump", "two_banker_one_player", "one_banker_two_player"]) {
    for (const language of ["zh-Hant", "zh-Hans", "en"]) assert.ok(keys(language).includes(`alert_${pattern}`), `${language} ${pattern}`);
  }
  assert.equal(t("display"), "Road display board");
  setLang("zh-Hant");
  assert.equal(t("display"), "路單顯示屏");
});

test("limits: every bet of the menu with its minimum and maximum", () => {
  const table = { bets: [{ bet: "banker", english: "Banker", chinese: "莊", min: 100, max: 50000 }, { bet: "tie", english: "Tie", chinese: "和", min: 100, max: 10000 }, { bet: "odd", english: "Odd" }] };
  assert.deepEqual(model.limitsOf(table).map((r) => [r.bet, r.min, r.max]), [["banker", 100, 50000], ["tie", 100, 10000]]);
  assert.deepEqual(model.limitsOf(null), []);
  assert.equal(model.wholeAmount("50,000.00"), "50,000");
  assert.equal(model.wholeAmount("0.50"), "0.50");
});

test("the last result: the newer round wins; a table's last round is looked for just below the current", () => {
  const a = { round_id: 10, number: 3, result: { winner: "banker" } };
  const b = { round_id: 14, number: 4, result: { winner: "player" } };
  assert.equal(model.newerResult(null, a), a);
  assert.equal(model.newerResult(a, b), b);
  assert.equal(model.newerResult(b, a), b);
  assert.equal(model.newerResult(b, null), b);
  assert.equal(model.newerResult(a, { round_id: 20, number: 5, result: null }), a);
  assert.deepEqual(model.lookBack(5), [4, 3, 2, 1]);
  assert.deepEqual(model.lookBack(100, 3), [99, 98, 97]);
  assert.deepEqual(model.lookBack(null), []);
  const settled = { table: "web-macau", status: "settled", result: { player: { cards: [], total: 0 } } };
  assert.equal(model.isShownRound(settled, "web-macau"), true);
  assert.equal(model.isShownRound(settled, "web-nocomm"), false);
  assert.equal(model.isShownRound({ ...settled, status: "voided" }, "web-macau"), false);
  assert.equal(model.isShownRound({ ...settled, result: null }, "web-macau"), false);
});

test("a card's points: aces 1, pips their value, tens and faces 0", () => {
  assert.deepEqual(["AS", "2H", "9D", "TC", "10H", "JS", "QD", "KC"].map(model.cardPoints), [1, 2, 9, 0, 0, 0, 0, 0]);
});

test("the coup being dealt: cards as they come out, face down until turned, gone when the round ends", () => {
  const dealt = (position, card, extra = {}) => ({ type: "card_dealt", round_id: 7, position, card, face_down: false, ...extra });
  let live = null;
  live = model.liveStep(live, { type: "countdown", round_id: 7 });
  assert.equal(live, null);
  live = model.liveStep(live, dealt("player_1", "9S"));
  live = model.liveStep(live, dealt("banker_1", null, { face_down: true }));
  live = model.liveStep(live, dealt("player_2", "5H"));
  assert.deepEqual(live, { round_id: 7, cards: { player_1: "9S", banker_1: null, player_2: "5H" } });
  assert.deepEqual(model.liveHands(live), { player: { cards: ["9S", "5H"], total: 4 }, banker: { cards: [null], total: 0 } });
  live = model.liveStep(live, { type: "card_revealed", round_id: 7, position: "banker_1", card: "7D", by: null });
  live = model.liveStep(live, { type: "card_corrected", round_id: 7, position: "player_2", card: "6H", face_down: false });
  assert.deepEqual(model.liveHands(live), { player: { cards: ["9S", "6H"], total: 5 }, banker: { cards: ["7D"], total: 7 } });
  // a card of another round starts that round's coup; nonsense changes nothing
  assert.deepEqual(model.liveStep(live, { ...dealt("player_1", "AS"), round_id: 8 }), { round_id: 8, cards: { player_1: "AS" } });
  assert.equal(model.liveStep(live, dealt("dealer_9", "AS")), live);
  for (const type of ["round_settled", "round_voided", "betting_opened", "shoe_started"]) assert.equal(model.liveStep(live, { type, round_id: 7 }), null);
  assert.equal(model.liveHands(null), null);
  assert.equal(model.liveHands({ round_id: 7, cards: {} }), null);
});
