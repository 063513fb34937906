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
