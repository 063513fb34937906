// The table's refusals (limits R21/R22, funds R27, seats R20…) as readable messages in the page's language.

import { money } from "./format.js";
import { t } from "./i18n.js";

const PATTERNS = [
  [/is below the minimum (\d+)/, (m) => t("refuse_min", { v: money(Number(m[1])) })],
  [/is above the maximum (\d+)/, (m) => t("refuse_max", { v: money(Number(m[1])) })],
  [/not a multiple of the minimum (\d+)/, (m) => t("refuse_multiple", { v: money(Number(m[1])) })],
  [/Banker\/Player limit (\d+)/, (m) => t("refuse_exposure", { v: money(Number(m[1])) })],
  [/commission owed (\d+) is not available/, (m) => t("refuse_funds_owed", { v: money(Number(m[1])) })],
  [/available and cannot stake|only \d+ is available|insufficient|not enough/i, () => t("refuse_funds")],
  [/has nothing to cash out/, () => t("refuse_nothing")],
  [/seat (\d+) is taken/, (m) => t("refuse_seat_taken", { n: m[1] })],
  [/has a bet open and cannot switch|cannot switch to .* with a bet open/i, () => t("switch_locked")],
  [/cannot bring (\d+)/, () => t("refuse_funds")],
  [/has bets on the table|with bets on the table|with a bet open|bets? (is|are) open/i, () => t("refuse_open_bet")],
  [/takes no standing bettors/, () => t("refuse_no_standing")],
  [/is not at the table/, () => t("refuse_not_at_table")],
  [/betting is (closed|not open)|betting is \w+: .* is refused/i, () => t("refuse_closed")],
];

/** The rule a refusal names ("R22"), or null. */
export function ruleOf(detail) {
  const found = /\bR(\d{1,2})\b/.exec(String(detail || ""));
  return found ? `R${found[1]}` : null;
}

/** A refusal's detail from the server as a readable message: "…, (R22)"; unknown ones as they came. */
export function explain(detail) {
  const text = String(detail || "");
  const rule = ruleOf(text);
  for (const [pattern, say] of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return rule ? `${say(match)} (${rule})` : say(match);
  }
  return text;
}
