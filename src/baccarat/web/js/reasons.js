// @ts-check
// Why a hand draws or stands (R12–R15), as the server explains it by code and params
// (baccarat.coup.Reason), written in the page's language: the dealer's console while the cards are
// entered, the table with each result and its recall. The English is the server's own text; a test
// checks that every reason the engine gives is written here in all three languages.

import { extend, hasText, t } from "./i18n.js";

extend({
  "zh-Hant": {
    reason_natural: "天牌：{side}兩張牌 {total} 點，雙方都不補牌",
    reason_player_two_cards_draws: "閒家 {total} 點補牌：閒家 0–5 點補牌，6–7 點不補",
    reason_player_two_cards_stands: "閒家 {total} 點不補：閒家 0–5 點補牌，6–7 點不補",
    reason_banker_player_stood_draws: "莊家 {total} 點補牌：閒家不補時，莊家 0–5 點補牌，6–7 點不補",
    reason_banker_player_stood_stands: "莊家 {total} 點不補：閒家不補時，莊家 0–5 點補牌，6–7 點不補",
    reason_banker_low: "莊家 {total} 點補牌：莊家 0–2 點必定補牌",
    reason_banker_seven: "莊家 7 點不補：莊家 7 點必定不補",
    reason_banker_on_third_draws: "莊家 {total} 點補牌：閒家第三張牌是 {third} 點",
    reason_banker_on_third_stands: "莊家 {total} 點不補：閒家第三張牌是 {third} 點",
  },
  en: {
    reason_natural: "Natural: {side} {total} on two cards, neither hand draws",
    reason_player_two_cards_draws: "Player {total} draws: Player draws on 0–5 and stands on 6–7",
    reason_player_two_cards_stands: "Player {total} stands: Player draws on 0–5 and stands on 6–7",
    reason_banker_player_stood_draws: "Banker {total} draws: Player stood, Banker draws on 0–5 and stands on 6–7",
    reason_banker_player_stood_stands: "Banker {total} stands: Player stood, Banker draws on 0–5 and stands on 6–7",
    reason_banker_low: "Banker {total} draws: Banker always draws on 0–2",
    reason_banker_seven: "Banker 7 stands: Banker always stands on 7",
    reason_banker_on_third_draws: "Banker {total} draws: Player's third card is a {third}",
    reason_banker_on_third_stands: "Banker {total} stands: Player's third card is a {third}",
  },
});

/**
 * @typedef {{code: string, params: Record<string, any>, text: string}} Reason
 */

/**
 * The text key of a reason: `reason_<code>` (with `_draws` / `_stands` where it draws or stands).
 * @param {{code: string, params: Record<string, unknown>}} reason
 */
export function reasonKey(reason) {
  const verb = "draws" in reason.params ? (reason.params.draws ? "_draws" : "_stands") : "";
  return `reason_${reason.code}${verb}`;
}

/** A reason in the page's language (the server's English where the page has no words for its code). @param {Reason} reason */
export function reasonText(reason) {
  const key = reasonKey(reason);
  if (!hasText(key)) return reason.text;
  const params = { ...reason.params };
  if (typeof params.side === "string") params.side = t(`${params.side}_side`);
  return t(key, params);
}
