// The page's three languages, and refusals translated by their code and params.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { toHans } from "../../src/baccarat/web/js/hans.js";
import { betName, hasText, keys, lang, langOf, levelName, setLang, t, LANGS } from "../../src/baccarat/web/js/i18n.js";
import { explain, ruleOf } from "../../src/baccarat/web/js/refusals.js";

const ROOT = new URL("../../", import.meta.url);

/** The error codes the server registers (src/baccarat/error_codes.py). */
function serverCodes() {
  const text = readFileSync(new URL("src/baccarat/error_codes.py", ROOT), "utf8");
  return [...new Set([...text.matchAll(/"([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)"/g)].map((m) => m[1]))];
}

test("every language has the same texts", () => {
  const base = keys("zh-Hant").sort();
  for (const language of LANGS) assert.deepEqual(keys(language).sort(), base, language);
});

test("every server error code has a text in every language", () => {
  const codes = serverCodes();
  assert.ok(codes.length > 50, `found ${codes.length} codes`);
  for (const language of LANGS) {
    const missing = codes.filter((code) => !hasText(`refusal.${code}`, language));
    assert.deepEqual(missing, [], language);
  }
});

test("简体中文 is written in Simplified characters", () => {
  setLang("zh-Hans");
  assert.equal(lang(), "zh-Hans");
  assert.equal(t("win_banker"), "庄赢");
  assert.equal(t("win_player"), "闲赢");
  assert.equal(t("refusal.server.error"), "服务器错误，请稍后再试");
  assert.equal(t("seconds_left", { s: 3 }), "剩余 3 秒");
  assert.equal(betName({ bet: "banker", english: "Banker", chinese: "莊" }), "庄");
  assert.equal(levelName("win by 4"), "赢4点");
  assert.equal(toHans("{amount} 號座"), "{amount} 号座", "placeholders stay");
  setLang("en");
});

test("languages from the browser's tags", () => {
  assert.equal(langOf("zh-CN"), "zh-Hans");
  assert.equal(langOf("zh-Hans-SG"), "zh-Hans");
  assert.equal(langOf("zh-TW"), "zh-Hant");
  assert.equal(langOf("zh-HK"), "zh-Hant");
  assert.equal(langOf("en-GB"), "en");
  assert.equal(langOf("fr"), null);
});

const MULTIPLE = {
  code: "limit.banker_multiple",
  rule: "R22",
  params: { bet: "banker", stake: 150, minimum: 100, suggestion: 100 },
  detail: "banker bet 150 is not a multiple of the minimum 100 (R22: …)",
};

test("a refusal is translated by its code and params, with its rule", () => {
  setLang("zh-Hant");
  assert.equal(explain(MULTIPLE), "莊注須為最低注 1.00 的倍數 (R22)");
  setLang("zh-Hans");
  assert.equal(explain(MULTIPLE), "庄注须为最低注 1.00 的倍数 (R22)");
  setLang("en");
  assert.match(explain(MULTIPLE), /1\.00/);
  assert.match(explain(MULTIPLE), /\(R22\)$/);
  assert.equal(ruleOf(MULTIPLE), "R22");
});

test("the English detail is never parsed: a code without words falls back to it", () => {
  setLang("zh-Hant");
  assert.equal(explain({ code: "no.such_code", rule: null, params: {}, detail: "something odd" }), "something odd");
  assert.equal(explain("plain text"), "plain text");
  const owed = explain({ code: "balance.insufficient", rule: "R27", params: { owed: 250, available: 100 }, detail: "x" });
  assert.equal(owed, "賭桌上的可用餘額不足（欠佣 2.50 不能用作下注） (R27)");
  setLang("en");
});

test("a view's own texts join every language, 简体中文 made from the Traditional", async () => {
  const { extend } = await import("../../src/baccarat/web/js/i18n.js");
  extend({ "zh-Hant": { test_extend_word: "開局" }, en: { test_extend_word: "Open" } });
  setLang("zh-Hans");
  assert.equal(t("test_extend_word"), "开局");
  setLang("en");
  assert.equal(t("test_extend_word"), "Open");
  assert.throws(() => extend({ "zh-Hant": { lobby: "x" }, en: { lobby: "x" } }), /already defined/);
  assert.throws(() => extend({ "zh-Hant": { only_one: "x" }, en: {} }), /without a translation/);
});

test("one set of terms: 天牌 for a natural, 佣 for commission, on every page", async () => {
  // every module that adds texts, so that the whole vocabulary is loaded
  const { readdirSync } = await import("node:fs");
  const js = new URL("src/baccarat/web/js/", ROOT);
  const texts = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const url = new URL(entry.name + (entry.isDirectory() ? "/" : ""), dir);
      if (entry.isDirectory()) walk(url);
      else if (entry.name.endsWith(".js") && /extend\(/.test(readFileSync(url, "utf8"))) texts.push(url);
    }
  };
  walk(js);
  assert.ok(texts.length >= 5, `${texts.length} text modules`);
  for (const file of texts) {
    const source = readFileSync(file, "utf8");
    for (const word of ["例牌", "抽水"]) assert.ok(!source.includes(word), `${file.pathname} says ${word}`);
  }
  const hant = keys("zh-Hant").map((key) => (setLang("zh-Hant"), t(key))).join(" ");
  assert.ok(hant.includes("天牌") && hant.includes("佣"));
  for (const word of ["例牌", "抽水"]) assert.ok(!hant.includes(word), word);
});
