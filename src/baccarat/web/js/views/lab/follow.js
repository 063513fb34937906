// @ts-check
// A live table's shoe, followed from its public messages only, as `baccarat advise --follow` does
// (src/baccarat/cli/advise_follow.py; tests/test_advise_follow_js.py checks both on the same
// messages): a `shoe_started` starts a new shoe of the decks its `config` names; the cards of a
// `round_settled` (and those a `round_voided` shows) leave the shoe. A stored event's message comes
// both from the table's history and over the websocket: each is applied once, by its event id.

const CARD = /^[2-9TJQKA][SHDC]$/;

/** Every card code in a message's value, face-down cards (null) left out. @param {any} value @returns {string[]} */
export function cardsIn(value) {
  if (typeof value === "string") return CARD.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(cardsIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(cardsIn);
  return [];
}

/** The cards a public message shows leaving the shoe. @param {any} message @returns {string[]} */
export function messageCards(message) {
  if (!message || typeof message !== "object") return [];
  if (message.type === "round_settled") return cardsIn((message.result || {}).cards || []);
  if (message.type === "round_voided") return cardsIn(message.cards || []);
  return [];
}

export class ShoeFollower {
  /** @param {number} decks the table's decks, until a `shoe_started` names them */
  constructor(decks) {
    this.decks = decks;
    /** @type {string[]} the cards seen since the shoe was shuffled */
    this.cards = [];
    /** whether a `shoe_started` was seen: before it, the cards seen are only those of the shoe's end */
    this.started = false;
    this.last = 0; // the newest event id applied
  }

  /** Apply one message; true when the next coup's figures change. @param {any} message */
  apply(message) {
    if (!message || typeof message !== "object") return false;
    if (Number.isInteger(message.id)) {
      if (message.id <= this.last) return false;
      this.last = message.id;
    }
    if (message.type === "shoe_started") {
      const decks = (message.config || {}).decks;
      if (Number.isInteger(decks)) this.decks = decks;
      this.cards = [];
      this.started = true;
      return true;
    }
    const cards = messageCards(message);
    if (!cards.length) return false;
    this.cards.push(...cards);
    return true;
  }
}
