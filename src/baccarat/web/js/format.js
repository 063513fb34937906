// @ts-check
// Money (minor units), percentages and cards as the page shows them.

import { chinese, lang } from "./i18n.js";

/** The number locale of the page's language. */
function locale() {
  return { "zh-Hant": "zh-Hant-TW", "zh-Hans": "zh-Hans-CN" }[lang()] || "en-US";
}

/**
 * Minor units (cents) as an amount: 123456 → "1,234.56"; null or undefined → "–".
 * @param {number|null|undefined} minor
 */
export function money(minor) {
  if (minor === null || minor === undefined || Number.isNaN(minor)) return "–";
  return (minor / 100).toLocaleString(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Minor units with a sign: 1000 → "+10.00", -500 → "-5.00", 0 → "0.00". @param {number} minor */
export function signedMoney(minor) {
  if (minor > 0) return `+${money(minor)}`;
  if (minor < 0) return `-${money(-minor)}`;
  return money(0);
}

/** Minor units as a short chip label: 10000 → "100", 100000 → "1K", 50 → "0.5". @param {number} minor */
export function chipLabel(minor) {
  const units = minor / 100;
  if (units >= 1000 && units % 1000 === 0) return `${units / 1000}K`;
  return String(units);
}

/** A probability or rate as a percentage. @param {number|null|undefined} value @param {number} [digits] */
export function pct(value, digits = 4) {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  return `${(value * 100).toFixed(digits)}%`;
}

/** A signed number with a fixed number of digits. @param {number} value @param {number} [digits] */
export function signed(value, digits = 5) {
  return `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES_EN = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_NAMES_ZH = { S: "黑桃", H: "紅心", D: "方塊", C: "梅花" };

/** A card code ("10H", "KS", "AS") as rank, suit symbol, colour and a spoken name. @param {string} code */
export function card(code) {
  const text = String(code).toUpperCase();
  const suit = text.slice(-1);
  let rank = text.slice(0, -1);
  if (rank === "T") rank = "10";
  const spoken = lang() === "en" ? `${rank} of ${SUIT_NAMES_EN[suit] || suit}` : chinese(`${SUIT_NAMES_ZH[suit] || suit}${rank}`);
  return { rank, suit: SUITS[suit] || suit, red: suit === "H" || suit === "D", spoken };
}
