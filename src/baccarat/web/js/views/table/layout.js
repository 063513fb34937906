// @ts-check
// The table's page: every panel's element, built once; the panels draw into them.

import { h, replace } from "../../dom.js";

/** @param {HTMLElement} view */
export function buildLayout(view) {
  const el = {
    title: h("h1", { id: "table-title" }),
    conn: h("span", { class: "conn", id: "conn", "data-testid": "connection", "aria-live": "polite" }),
    switcher: /** @type {HTMLSelectElement} */ (h("select", { id: "table-switch" })),
    variant: /** @type {HTMLSelectElement} */ (h("select", { id: "variant-switch" })),
    shoe: h("span", { class: "muted", id: "shoe-info" }),
    status: h("div", { class: "table-status", id: "table-status", role: "status", "aria-live": "polite" }),
    phase: h("div", { class: "phase", id: "phase", role: "status", "aria-live": "polite" }),
    timer: h("div", { class: "timer", role: "timer", id: "timer", "data-testid": "countdown", "aria-live": "off" }),
    timerBar: h("div", { class: "timer-bar" }, h("span", {})),
    strip: h("div", { class: "road-strip", id: "road-strip", "data-testid": "road-strip" }),
    cue: h("div", { class: "cue-line", id: "cue", "data-testid": "cue", "aria-live": "assertive" }),
    soundToggle: /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "sound-toggle", id: "sound", "data-testid": "sound", "aria-pressed": "false" })),
    playerHand: h("div", { class: "hand-cards full", id: "player-cards" }),
    bankerHand: h("div", { class: "hand-cards full", id: "banker-cards" }),
    playerTotal: h("span", { class: "total", id: "player-total" }),
    bankerTotal: h("span", { class: "total", id: "banker-total" }),
    result: h("div", { class: "result", id: "result", role: "status", "aria-live": "polite" }),
    spots: h("div", { class: "spots", id: "spots", role: "group" }),
    chips: h("div", { class: "chips", id: "chips", role: "radiogroup" }),
    actions: h("div", { class: "actions", id: "actions" }),
    warning: h("p", { class: "chips-warning", id: "chips-warning", "data-testid": "chips-warning", role: "alert" }),
    wallet: h("div", { class: "wallet", id: "wallet", "aria-live": "polite" }),
    roads: h("div", { class: "roads", id: "roads" }),
    stats: h("div", { class: "stats", id: "shoe-stats" }),
    recent: h("ol", { class: "recent", id: "recent-rounds", reversed: true }),
    recall: h("div", { class: "recall", id: "recall", "aria-live": "polite" }),
    seats: h("div", { class: "seats", id: "seats", role: "group" }),
    notice: h("p", { class: "notice", id: "table-notice", role: "alert" }),
    squeezeBar: h("div", { class: "squeeze-bar", id: "squeeze-bar", "aria-live": "polite" }),
    buyIn: /** @type {HTMLDialogElement} */ (h("dialog", { id: "buy-in-dialog", "aria-labelledby": "buy-in-title" })),
    switchLabel: h("label", { class: "switch" }),
    variantLabel: h("label", { class: "switch" }),
    felt: h("div", { class: "felt" }),
    board: h("aside", { class: "board", "aria-labelledby": "roads-title" }),
    history: h("section", { class: "history", "aria-labelledby": "recent-title" }),
  };
  replace(el.switchLabel, h("span", {}), " ", el.switcher);
  replace(el.variantLabel, h("span", {}), " ", el.variant);
  replace(
    el.felt,
    h("div", { class: "phase-row" }, el.phase, el.timer, el.soundToggle, el.timerBar, el.cue),
    el.strip,
    el.seats,
    h(
      "div",
      { class: "hands" },
      h("section", { class: "hand player", "aria-labelledby": "player-label" }, h("h2", { id: "player-label", class: "side-label" }), el.playerTotal, el.playerHand),
      h("section", { class: "hand banker", "aria-labelledby": "banker-label" }, h("h2", { id: "banker-label", class: "side-label" }), el.bankerTotal, el.bankerHand),
    ),
    el.squeezeBar,
    el.result,
    el.spots,
    h("div", { class: "chip-row" }, el.chips),
    el.actions,
    el.warning,
    el.notice,
    el.wallet,
    el.buyIn,
  );
  replace(el.board, h("h2", { id: "roads-title" }), el.roads, h("h3", { id: "stats-title" }), el.stats);
  replace(el.history, h("h2", { id: "recent-title" }), el.recent, el.recall);
  replace(
    view,
    h(
      "section",
      { class: "table-view", "aria-labelledby": "table-title" },
      h("div", { class: "table-head" }, el.title, el.shoe, el.conn, el.variantLabel, el.switchLabel, el.status),
      el.felt,
      el.board,
      el.history,
    ),
  );
  return el;
}
