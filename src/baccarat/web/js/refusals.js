// The table's refusals (limits R21/R22, funds R27, seats R20…) as readable messages in the page's language.
// The server sends a refusal as {code, rule, params, detail}: it is translated by its code and params
// (the texts "refusal.<code>" of i18n.js), never by its English detail.

import { money } from "./format.js";
import { hasText, t } from "./i18n.js";
import { variantName } from "./variants.js";

/** Params that are money (minor units). */
const MONEY = new Set([
  "amount", "available", "balance", "difference", "least", "limit", "maximum", "minimum", "owed", "stake",
  "suggestion", "wallet", "lost", "left",
]);

/** A text of i18n.js when there is one, else the value as it came. */
function named(key, value) {
  return hasText(key) ? t(key) : String(value);
}

/** One param as the page shows it: money as an amount, bets, sides, positions and variants by name. */
function shown(name, value) {
  if (value === null || value === undefined) return name === "holder" ? t("the_dealer") : "";
  if (MONEY.has(name) && typeof value === "number") return money(value);
  if (name === "bet" || name === "other") return named(String(value), value);
  if (name === "side" || name === "first") return named(`${value}_side`, value);
  if (name === "position" || name === "due") return named(`pos_${value}`, value);
  if (name === "variant") return variantName(String(value));
  if (name === "seconds" && typeof value === "number") return String(Math.ceil(value));
  return String(value);
}

/** The text key of a refusal's code (a refusal that names commission owed has its own). */
function keyOf(code, params) {
  const key = `refusal.${code}`;
  if (code === "balance.insufficient" && Number(params.owed) > 0) return `${key}.owed`;
  return key;
}

/** The English text a refusal came with (an object's detail or message, or the text itself). */
function textOf(refusal) {
  if (refusal && typeof refusal === "object") return String(refusal.detail ?? refusal.message ?? "");
  return String(refusal ?? "");
}

/** The rule a refusal names ("R22"), or null: the refusal's rule, or the first rule id in a text. */
export function ruleOf(refusal) {
  if (refusal && typeof refusal === "object" && refusal.code) return refusal.rule || null;
  const found = /\bR(\d{1,2})\b/.exec(textOf(refusal));
  return found ? `R${found[1]}` : null;
}

/**
 * A refusal as a readable message in the page's language: "…, (R22)". Takes the refusal object
 * ({code, rule, params, detail}, or an error that carries them) or a plain text; a text, or a code
 * the page has no words for, is shown as it came.
 */
export function explain(refusal) {
  const text = textOf(refusal);
  if (!refusal || typeof refusal !== "object" || !refusal.code) return text;
  const rule = refusal.rule || null;
  const params = refusal.params || {};
  const key = keyOf(refusal.code, params);
  let said = null;
  if (hasText(key)) {
    const values = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, shown(name, value)]));
    said = t(key, values);
    if (/\{\w+\}/.test(said)) said = null; // a param the text needs did not come: the English detail instead
  }
  if (said === null) return rule && !text.includes(rule) ? `${text} (${rule})` : text;
  return rule ? `${said} (${rule})` : said;
}
