// The roads drawn from the server's Scoreboard JSON (src/baccarat/web/js/roads.js), in a fake document.

import assert from "node:assert/strict";
import { test } from "node:test";

import { installFakeDom } from "./fake_dom.js";

installFakeDom();
const { beadPlate, bigRoad, derivedRoad, askRoad, shoeStats } = await import("../../src/baccarat/web/js/roads.js");
const { setLang } = await import("../../src/baccarat/web/js/i18n.js");

const ROADS = {
  results: "BBPT",
  bead_plate: [[{ result: "B", banker_pair: true }, { result: "B" }, { result: "P", player_pair: true }, { result: "T" }, null, null]],
  big_road: { grid: [[{ result: "B", ties: 0 }, { result: "B", ties: 0 }], [{ result: "P", ties: 1 }]], leading_ties: 0 },
  derived: { big_eye_boy: { grid: [["R"], ["B", "B"]] }, small_road: { grid: [] }, cockroach_pig: { grid: [] } },
  big_eye_boy: "RBB",
  ask: { banker: { big_eye_boy: "R", small_road: "B" }, player: { big_eye_boy: "B" } },
};

const circles = (svg, cls) => svg.all("circle").filter((c) => (c.getAttribute("class") || "").split(" ").includes(cls));

test("the bead plate: one bead per coup with its letter, pairs as dots", () => {
  setLang("zh-Hant");
  const svg = beadPlate(ROADS, 12);
  assert.equal(svg.getAttribute("width"), String(12 * 22));
  assert.equal(circles(svg, "bead").length, 4);
  assert.deepEqual(svg.all("text").map((x) => x.textContent), ["莊", "莊", "閒", "和"]);
  assert.equal(circles(svg, "pair").length, 2);
  setLang("zh-Hans");
  assert.deepEqual(beadPlate(ROADS, 12).all("text").map((x) => x.textContent), ["庄", "庄", "闲", "和"]);
  setLang("en");
  assert.deepEqual(beadPlate(ROADS, 12).all("text").map((x) => x.textContent), ["B", "B", "P", "T"]);
  assert.match(svg.getAttribute("aria-label"), /4|2/);
});

test("the big road: a ring per result in its column and row, ties as a slash", () => {
  const svg = bigRoad(ROADS, 24, 16);
  const rings = svg.all("circle").filter((c) => (c.getAttribute("class") || "").startsWith("ring"));
  assert.equal(rings.length, 3);
  assert.deepEqual(rings.map((r) => [r.getAttribute("cx"), r.getAttribute("cy")]), [["8", "8"], ["8", "24"], ["24", "8"]]);
  assert.deepEqual(rings.map((r) => r.getAttribute("class")), ["ring ring-B", "ring ring-B", "ring ring-P"]);
  const slashes = svg.all("line").filter((l) => l.getAttribute("stroke") === "var(--tie)");
  assert.equal(slashes.length, 1);
});

test("only the last columns are kept", () => {
  const many = { ...ROADS, big_road: { grid: Array.from({ length: 30 }, (_, i) => [{ result: i % 2 ? "P" : "B", ties: 0 }]) } };
  const svg = bigRoad(many, 24, 16);
  const rings = svg.all("circle").filter((c) => (c.getAttribute("class") || "").startsWith("ring"));
  assert.equal(rings.length, 24);
  assert.equal(rings[0].getAttribute("class"), "ring ring-B", "column 6 (even: Banker) is the first shown");
  assert.equal(rings[1].getAttribute("class"), "ring ring-P");
});

test("a derived road and the ask road", () => {
  const svg = derivedRoad(ROADS, "big_eye_boy", 24, 11);
  assert.equal(svg.all("circle").length, 3);
  assert.match(svg.getAttribute("aria-label"), /R 1, B 2/);
  const ask = askRoad(ROADS);
  assert.equal(ask.all("svg").length, 2);
  assert.equal(ask.all("circle").length, 3, "banker: two marks, player: one");
});

test("the shoe's statistics from the bead plate", () => {
  assert.deepEqual(shoeStats(ROADS), { B: 2, P: 1, T: 1, bp: 1, pp: 1, n: 4 });
  assert.deepEqual(shoeStats({}), { B: 0, P: 0, T: 0, bp: 0, pp: 0, n: 0 });
});

test("R36 on the roads: the side asked about blinks where the server places its next mark", async () => {
  const { askedMark } = await import("../../src/baccarat/web/js/roads.js");
  const roads = {
    ...ROADS,
    ask_at: {
      banker: { bead_plate: [0, 4], big_road: [1, 1], big_eye_boy: [1, 2], small_road: [0, 0], cockroach_pig: null },
      player: { bead_plate: [0, 4], big_road: [1, 1], big_eye_boy: [1, 2], small_road: null, cockroach_pig: null },
    },
  };
  assert.deepEqual(askedMark(roads, "big_road", "banker"), { at: [1, 1], mark: "B" });
  assert.deepEqual(askedMark(roads, "big_eye_boy", "banker"), { at: [1, 2], mark: "R" }, "the ask road's colour");
  assert.equal(askedMark(roads, "cockroach_pig", "banker"), null);
  assert.equal(askedMark(roads, "big_road", null), null);
  assert.equal(askedMark(ROADS, "big_road", "banker"), null, "an answer without ask_at asks nothing");
  const asked = (svg) => svg.all("g").filter((g) => g.getAttribute("class") === "asked");
  const big = bigRoad(roads, 24, 16, "player");
  assert.equal(asked(big).length, 1);
  assert.equal(asked(big)[0].getAttribute("data-asked"), "P");
  const ring = asked(big)[0].all("circle")[0];
  assert.deepEqual([ring.getAttribute("cx"), ring.getAttribute("cy")], [String(16 + 8), String(16 + 8)]);
  assert.equal(asked(bigRoad(roads, 24, 16)).length, 0, "nothing blinks unless asked");
  assert.equal(asked(beadPlate(roads, 12, "banker")).length, 1);
  assert.equal(asked(derivedRoad(roads, "small_road", 24, 11, "player")).length, 0);
  // a next mark past the last column shown moves the window on by a column
  const narrow = bigRoad({ ...roads, ask_at: { player: { big_road: [2, 0] } } }, 2, 16, "player");
  const shown = asked(narrow)[0].all("circle")[0];
  assert.equal(shown.getAttribute("cx"), String(16 + 8));
});
