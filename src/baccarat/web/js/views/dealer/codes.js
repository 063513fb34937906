// @ts-check
// Card codes as the dealer types them or a card reader sends them (R1's notation: rank A 2–9 T (or
// 10) J Q K, then suit S H D C or ♠ ♥ ♦ ♣, any case), written the server's way ("AS", "TH"), and
// the console's grid of the 52 cards. baccarat.cards.Card.parse reads the same notation; a test
// checks that the two agree on every code. The drawing rules' reasons come from the server by code
// (baccarat.coup.Reason) and are written here in the page's language.

import "../dealer_texts.js";

/** The ranks in the server's notation, in order. */
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
/** The suits in the server's notation, in deck order (S H D C). */
export const SUITS = ["S", "H", "D", "C"];

/** @type {Record<string, string>} */
const SUIT_OF = { S: "S", H: "H", D: "D", C: "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

/**
 * A typed or scanned card as the server writes it ("10h" → "TH", "a♠" → "AS"), or null when the
 * text is no card.
 * @param {string} text
 * @returns {string|null}
 */
export function cardCode(text) {
  const cleaned = String(text).trim().toUpperCase();
  if (cleaned.length < 2) return null;
  const suit = SUIT_OF[cleaned.slice(-1)];
  let rank = cleaned.slice(0, -1);
  if (rank === "10") rank = "T";
  if (!suit || !RANKS.includes(rank)) return null;
  return rank + suit;
}

/** Every card's code, suit by suit (the console's grid: one row per suit). @returns {string[][]} */
export function cardGrid() {
  return SUITS.map((suit) => RANKS.map((rank) => rank + suit));
}

/**
 * The cards entered so far, by side, in the order of the deal.
 * @param {{position: string, short: string, card: string|null}[]} cards
 */
export function bySide(cards) {
  return {
    player: cards.filter((c) => c.position.startsWith("player")),
    banker: cards.filter((c) => c.position.startsWith("banker")),
  };
}

/**
 * The point total of a hand (R2: A = 1, 2–9 their value, T J Q K = 0; the last digit of the sum), or
 * null while a card is face down.
 * @param {(string|null)[]} codes
 */
export function handTotal(codes) {
  let total = 0;
  for (const code of codes) {
    if (!code) return null;
    const index = RANKS.indexOf(code[0]);
    total += index >= 9 ? 0 : index + 1;
  }
  return total % 10;
}

/** The drawing rules' reasons, written once for the console and the table. */
export { reasonKey, reasonText } from "../../reasons.js";
