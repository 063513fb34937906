// @ts-check
// The lab's live advisor: follows a table of this server from its public messages (its stored
// history, then its websocket) and shows every bet's exact EV for the next coup from the cards left
// (POST /api/lab/advise: `baccarat advise --json`'s figures), the +EV bets marked.

import { api } from "../../api.js";
import { h, replace } from "../../dom.js";
import { pct, signed } from "../../format.js";
import { betName, t } from "../../i18n.js";
import { explain } from "../../refusals.js";
import { TableSocket } from "../../socket.js";
import { ShoeFollower } from "./follow.js";

/** Events per page of GET /api/tables/{id}/events (the server's most). */
const PAGE = 200;
/** Updates closer together than this are asked for once (a burst of messages, one price). */
const UPDATE_MS = 100;

/** The rows of the advice table, best EV first. @param {any} advice */
export function adviceRows(advice) {
  return Object.entries(advice.bets)
    .map(([id, bet]) => ({ id, bet, positive: Boolean(bet.positive) }))
    .sort((a, b) => b.bet.expected_value - a.bet.expected_value);
}

export class LiveAdvisor {
  constructor() {
    /** @type {any[]} */
    this.tables = [];
    /** @type {any} the table followed */
    this.table = null;
    /** @type {ShoeFollower|null} */
    this.follower = null;
    /** @type {TableSocket|null} */
    this.socket = null;
    /** @type {any} the last figures */
    this.advice = null;
    this.updates = 0; // figures received for the table followed
    /** @type {string} "idle" | "reading" | "live" | "closed" | error text */
    this.status = "idle";
    /** @type {any[]|null} websocket messages held while the history is read */
    this.held = null;
    this.timer = 0;
    this.generation = 0; // a new table makes every pending answer of the old one stale
    /** @type {HTMLElement|null} */
    this.box = null;
  }

  /** Draw into `box` (again after a language change: what is followed stays). @param {HTMLElement} box */
  async mount(box) {
    this.box = box;
    this.render();
    if (!this.tables.length) {
      try {
        this.tables = (await api("/api/tables")).tables || [];
      } catch (error) {
        this.status = explain(error);
      }
      this.render();
    }
  }

  /** Follow table `id` (empty: stop following). @param {string} id */
  async follow(id) {
    this.stop();
    const generation = ++this.generation;
    this.table = this.tables.find((table) => table.id === id) || null;
    if (!this.table) return this.render();
    this.follower = new ShoeFollower(this.table.decks || 8);
    this.advice = null;
    this.updates = 0;
    this.status = "reading";
    this.held = [];
    this.socket = new TableSocket(id, {
      onMessage: (message) => this.received(message, generation),
      onState: (state) => this.connection(state, generation),
    });
    this.render();
    await this.readHistory(generation);
  }

  /** The table's stored public messages after the last one applied, oldest first. @param {number} generation */
  async readHistory(generation) {
    try {
      let after = this.follower ? this.follower.last : 0;
      for (;;) {
        const page = await api(`/api/tables/${encodeURIComponent(this.table.id)}/events?after=${after}&limit=${PAGE}`);
        if (generation !== this.generation || !this.follower) return;
        for (const message of page.events) this.follower.apply(message);
        if (!Number.isInteger(page.last)) break; // the page read no stored event: none is left
        after = page.last;
      }
    } catch (error) {
      if (generation === this.generation) this.status = explain(error);
      return this.render();
    }
    const held = this.held || [];
    this.held = null;
    for (const message of held) this.follower.apply(message);
    this.status = "live";
    this.schedule(generation);
  }

  /** @param {any} message @param {number} generation */
  received(message, generation) {
    if (generation !== this.generation || !this.follower) return;
    if (this.held) this.held.push(message);
    else if (this.follower.apply(message)) this.schedule(generation);
  }

  /** After a reconnection, the messages missed meanwhile come from the history. @param {string} state @param {number} generation */
  connection(state, generation) {
    if (generation !== this.generation) return;
    if (state === "missing") this.status = t("adv_table_gone");
    else if (state === "closed") this.status = "closed";
    else if (state === "open" && this.status === "closed") {
      this.held = [];
      this.readHistory(generation);
    }
    this.render();
  }

  /** @param {number} generation */
  schedule(generation) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.price(generation), UPDATE_MS);
  }

  /** @param {number} generation */
  async price(generation) {
    const follower = this.follower;
    if (!follower || !this.table) return;
    try {
      const body = { variant: this.table.variant, decks: follower.decks, cards: follower.cards };
      const advice = await api("/api/lab/advise", { method: "POST", body });
      if (generation !== this.generation) return;
      this.advice = advice;
      this.updates += 1;
      this.status = "live";
    } catch (error) {
      if (generation === this.generation) this.status = explain(error);
    }
    this.render();
  }

  stop() {
    clearTimeout(this.timer);
    if (this.socket) this.socket.close();
    this.socket = null;
    this.follower = null;
  }

  render() {
    const box = this.box;
    if (!box) return;
    const choose = h(
      "select",
      { id: "advisor-table", "data-testid": "advisor-table", onchange: (/** @type {Event} */ e) => this.follow(/** @type {HTMLSelectElement} */ (e.target).value) },
      h("option", { value: "" }, t("adv_choose")),
      ...this.tables.map((table) => h("option", { value: table.id, selected: this.table && this.table.id === table.id }, table.name || table.id)),
    );
    replace(box, h("label", { class: "field" }, h("span", {}, t("adv_table")), choose), this.statusLine(), this.figures());
  }

  statusLine() {
    const words = { idle: t("adv_idle"), reading: t("adv_reading"), live: t("adv_live"), closed: t("adv_reconnecting") };
    const text = words[this.status] ?? this.status;
    const facts = this.advice && this.follower
      ? ` · ${t("adv_cards", { seen: this.advice.cards_seen, left: this.advice.cards_left })} · ${t("adv_update", { n: this.updates })}`
      : "";
    const data = this.advice ? { "data-seen": this.advice.cards_seen, "data-updates": this.updates } : {};
    return h("p", { id: "advisor-status", class: "muted", role: "status", "data-status": this.status, ...data }, text + facts);
  }

  figures() {
    if (!this.advice) return null;
    const rows = adviceRows(this.advice).map(({ id, bet, positive }) =>
      h(
        "tr",
        { class: positive ? "positive" : null, "data-bet": id },
        h("th", { scope: "row" }, betName(bet)),
        h("td", {}, bet.pays_text),
        h("td", {}, pct(bet.probability_win)),
        h("td", { class: "ev" }, signed(bet.expected_value)),
        h("td", {}, positive ? h("strong", { class: "badge positive" }, t("adv_positive")) : ""),
      ),
    );
    const heads = ["bet", "pays_levels", "win", "ev", ""].map((key) => h("th", { scope: "col" }, key ? t(key) : ""));
    return h(
      "div",
      { class: "scroll-x" },
      h("table", { class: "sheet", id: "advice" }, h("caption", {}, t("adv_caption")), h("thead", {}, h("tr", {}, ...heads)), h("tbody", {}, ...rows)),
    );
  }
}
