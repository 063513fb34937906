// Money in minor units as the page writes it, in each language.

import assert from "node:assert/strict";
import { test } from "node:test";

import { chipLabel, money, signedMoney, card } from "../../src/baccarat/web/js/format.js";
import { setLang } from "../../src/baccarat/web/js/i18n.js";

test("minor units as an amount with two decimals and grouping", () => {
  setLang("en");
  assert.equal(money(123456), "1,234.56");
  assert.equal(money(5), "0.05");
  assert.equal(money(0), "0.00");
  assert.equal(money(-1050), "-10.50");
  assert.equal(money(null), "–");
  assert.equal(money(undefined), "–");
});

test("the same amounts in both Chinese scripts", () => {
  for (const lang of ["zh-Hant", "zh-Hans"]) {
    setLang(lang);
    assert.equal(money(123456), "1,234.56", lang);
  }
  setLang("en");
});

test("signed amounts for the result banner", () => {
  setLang("en");
  assert.equal(signedMoney(1000), "+10.00");
  assert.equal(signedMoney(-550), "-5.50");
  assert.equal(signedMoney(0), "0.00");
});

test("chip labels", () => {
  assert.equal(chipLabel(100), "1");
  assert.equal(chipLabel(50000), "500");
  assert.equal(chipLabel(100000), "1K");
  assert.equal(chipLabel(500000), "5K");
  assert.equal(chipLabel(50), "0.5");
});

test("cards are spoken in the page's language", () => {
  setLang("en");
  assert.deepEqual(card("TH"), { rank: "10", suit: "♥", red: true, spoken: "10 of hearts" });
  setLang("zh-Hant");
  assert.equal(card("AS").spoken, "黑桃A");
  setLang("zh-Hans");
  assert.equal(card("KH").spoken, "红心K");
  setLang("en");
});
