// The back office's pure helpers: hold %, deviations in σ, amounts, query strings, the CSV file
// name, the section of a hash; and its texts in every language.

import assert from "node:assert/strict";
import { test } from "node:test";

import { hasText, keys, LANGS, setLang, t } from "../../src/baccarat/web/js/i18n.js";
import "../../src/baccarat/web/js/views/admin_texts.js";
import {
  amountText,
  auditQuery,
  fileNameOf,
  holdText,
  reportQuery,
  sectionOf,
  sigmaLevel,
  sigmaText,
} from "../../src/baccarat/web/js/views/admin/figures.js";

test("hold as a percentage with two decimals", () => {
  assert.equal(holdText(0.012345), "1.23%");
  assert.equal(holdText(-0.5), "-50.00%");
  assert.equal(holdText(0), "0.00%");
  assert.equal(holdText(null), "–");
  assert.equal(holdText(undefined), "–");
  assert.equal(holdText(Number.NaN), "–");
});

test("differences in σ, signed", () => {
  assert.equal(sigmaText(1.234), "+1.23σ");
  assert.equal(sigmaText(-0.5), "−0.50σ");
  assert.equal(sigmaText(0.001), "0.00σ");
  assert.equal(sigmaText(-0.004), "0.00σ");
  assert.equal(sigmaText(null), "–");
  assert.equal(sigmaLevel(1.99), "");
  assert.equal(sigmaLevel(-2.1), "warn");
  assert.equal(sigmaLevel(3), "alert");
  assert.equal(sigmaLevel(null), "");
});

test("fractional minor units as money", () => {
  setLang("en");
  assert.equal(amountText(1234.56), "12.35");
  assert.equal(amountText(-10.4), "-0.10");
  assert.equal(amountText(null), "–");
});

test("query strings leave empty filters out", () => {
  assert.equal(reportQuery({}), "");
  assert.equal(reportQuery({ table: "web-macau", from: "2026-12-01", to: "" }), "?table=web-macau&from=2026-12-01");
  assert.equal(reportQuery({ table: "a b" }), "?table=a+b");
  assert.equal(auditQuery({ limit: 20 }), "?limit=20");
  assert.equal(auditQuery({ table: "t1", before: 42, limit: 5 }), "?limit=5&before=42&table=t1");
});

test("the CSV file name from Content-Disposition", () => {
  assert.equal(fileNameOf('attachment; filename="report-all-tables-start-end.csv"', "x.csv"), "report-all-tables-start-end.csv");
  assert.equal(fileNameOf(null, "x.csv"), "x.csv");
});

test("the section of the hash path", () => {
  const ids = ["tables", "reports", "audit"];
  assert.equal(sectionOf([], ids), "tables");
  assert.equal(sectionOf(["reports"], ids), "reports");
  assert.equal(sectionOf(["audit", "more"], ids), "audit");
  assert.equal(sectionOf(["nope"], ids), null);
});

test("the back office's texts in every language", () => {
  for (const language of LANGS) {
    assert.ok(hasText("admin", language), language);
    const admin = keys(language).filter((key) => key.startsWith("admin"));
    assert.ok(admin.length > 50, `${language}: ${admin.length}`);
  }
  setLang("zh-Hant");
  assert.equal(t("admin"), "後台");
  setLang("zh-Hans");
  assert.equal(t("admin"), "后台");
  assert.equal(t("admin_ggr"), "毛收入");
  setLang("en");
  assert.equal(t("admin"), "Back office");
});
