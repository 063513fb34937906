// Safer play: amounts typed in units become minor units, a blank one is no limit.

import assert from "node:assert/strict";
import { test } from "node:test";

import { minorOf } from "../../src/baccarat/web/js/views/limits.js";

test("an amount typed in units is minor units; blank is none; other text is not an amount", () => {
  assert.equal(minorOf("200"), 20000);
  assert.equal(minorOf(" 200.5 "), 20050);
  assert.equal(minorOf("0.01"), 1);
  assert.equal(minorOf(""), null);
  assert.ok(Number.isNaN(minorOf("2e3")));
  assert.ok(Number.isNaN(minorOf("-5")));
  assert.ok(Number.isNaN(minorOf("1.234")));
});
