// @ts-check
// The hands panel: Player's and Banker's cards and totals, dealt and turned as the server does (the
// squeeze when the server names this player, R23), or laid out at once for a finished round.

import { cardElement, dealCoup, hiddenCard, peek, peelable, turnCard } from "../../cards.js";
import { h } from "../../dom.js";
import { t } from "../../i18n.js";

/** The cards on the table: the live round's card elements by position. */
export class Hands {
  /** @param {{player: HTMLElement, banker: HTMLElement, playerTotal: HTMLElement, bankerTotal: HTMLElement, squeeze: HTMLElement}} el */
  constructor(el) {
    this.el = el;
    /** @type {number|null} */
    this.round = null;
    /** @type {Record<string, HTMLElement>} */
    this.cards = {};
    /** @type {Record<string, string|null>} */
    this.squeezers = {};
    /** @type {Record<string, string>} the face-down cards this player squeezes, as the server told them alone */
    this.known = {};
    this.revealAt = 0;
  }

  clear() {
    this.el.player.replaceChildren();
    this.el.banker.replaceChildren();
    this.totals(null);
  }

  /** @param {import("../../state.js").Result|null} result */
  totals(result) {
    this.el.playerTotal.textContent = result ? String(result.player.total) : "";
    this.el.bankerTotal.textContent = result ? String(result.banker.total) : "";
  }

  /** A finished round's cards, face up at once. @param {import("../../state.js").Result} result */
  showStatic(result) {
    this.el.player.replaceChildren(...result.player.cards.map((c) => cardElement(c, { up: true })));
    this.el.banker.replaceChildren(...result.banker.cards.map((c) => cardElement(c, { up: true })));
    this.totals(result);
  }

  /** Whether this round's cards are on the table already (dealt live). @param {number} roundId */
  dealtLive(roundId) {
    return this.round === roundId && Object.keys(this.cards).length > 0;
  }

  /** The round's result: turned over the live cards, or dealt with the animation. @param {number} roundId @param {import("../../state.js").Result} result */
  async settle(roundId, result) {
    this.totals(null);
    if (this.dealtLive(roundId)) {
      for (const side of ["player", "banker"]) result[side].cards.forEach((/** @type {string} */ code, /** @type {number} */ i) => this.setCard(`${side}_${i + 1}`, code));
      this.revealAt = 0;
    } else {
      await dealCoup({ player: this.el.player, banker: this.el.banker }, result);
    }
    this.totals(result);
  }

  /** Start showing a live round's cards. @param {number} roundId */
  live(roundId) {
    if (this.round === roundId) return;
    this.reset(roundId);
  }

  /** @param {number|null} roundId */
  reset(roundId) {
    this.round = roundId;
    this.cards = {};
    this.squeezers = {};
    this.known = {};
    this.revealAt = 0;
    this.clear();
  }

  /**
   * The face-down cards this player squeezes (`GET /api/tables/{id}/me`'s `squeeze`): their faces are
   * drawn under the backs, to be seen as they are peeled. @param {number|null} roundId @param {Record<string, string>|undefined} squeeze
   */
  peek(roundId, squeeze) {
    if (!squeeze || roundId === null || roundId !== this.round) return;
    this.known = { ...this.known, ...squeeze };
    for (const [position, code] of Object.entries(squeeze)) {
      const el = this.cards[position];
      if (el) peek(el, code);
    }
  }

  /** @param {string} position @param {string|null} code */
  setCard(position, code) {
    let card = this.cards[position];
    if (!card) {
      card = code ? cardElement(code) : hiddenCard();
      card.dataset.position = position;
      if (!code && this.known[position]) peek(card, this.known[position]);
      this.cards[position] = card;
      (position.startsWith("player") ? this.el.player : this.el.banker).append(card);
      if (code) turnCard(card, code);
    } else if (code && !card.classList.contains("up")) {
      turnCard(card, code);
    }
  }

  /** @param {string} side @returns {HTMLElement[]} */
  hiddenOf(side) {
    return Object.entries(this.cards)
      .filter(([position, card]) => position.startsWith(side) && !card.classList.contains("up"))
      .map(([, card]) => card);
  }

  /**
   * The squeeze bar: whose turn it is to turn each side's face-down cards.
   * @param {string|null} me this user's bettor name @param {{reveal: (side: string) => void, handOver: (side: string) => void}} on
   */
  renderSqueeze(me, on) {
    /** @type {HTMLElement[]} */
    const parts = [];
    for (const side of ["player", "banker"]) {
      const hidden = this.hiddenOf(side);
      if (!hidden.length) continue;
      const who = this.squeezers[side] ?? null;
      const sideName = t(`${side}_side`);
      if (me && who === me) {
        for (const card of hidden) peelable(card, () => this.opened(side, on.reveal));
        parts.push(
          h("span", { class: "squeeze-mine", "data-side": side, "data-who": "mine" }, t("squeeze_yours", { side: sideName })),
          h("button", { type: "button", class: "hand-over", "data-side": side, onclick: () => on.handOver(side) }, t("hand_over")),
        );
      } else {
        parts.push(h("span", { "data-side": side, "data-who": who ? "other" : "dealer" }, who ? t("squeeze_other", { who, side: sideName }) : t("squeeze_dealer", { side: sideName })));
      }
    }
    if (parts.length && this.revealAt) parts.push(h("span", { class: "timer", id: "reveal-deadline" }));
    this.el.squeeze.replaceChildren(...parts);
  }

  /**
   * A card of `side` was peeled open: once all of the side's face-down cards are, ask the server to turn them.
   * @param {string} side @param {(side: string) => void} reveal
   */
  opened(side, reveal) {
    const hidden = this.hiddenOf(side);
    if (!hidden.length || hidden.some((card) => !card.classList.contains("peeled") || card.classList.contains("peeling"))) return;
    for (const card of hidden) card.classList.add("peeling");
    reveal(side);
  }

  /** The seconds until the dealer turns the cards, on the squeeze bar. @param {number} now performance.now() */
  tick(now) {
    const deadline = this.el.squeeze.querySelector("#reveal-deadline");
    if (!(deadline instanceof HTMLElement)) return;
    const s = Math.max(0, Math.ceil((this.revealAt - now) / 1000));
    deadline.textContent = t("squeeze_deadline", { s });
    deadline.dataset.seconds = String(s);
  }
}
