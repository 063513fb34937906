// @ts-check
// The history panel: the recent rounds (★ the rounds this player bet on), each a button that recalls
// the round, and the round recalled.

import { cardElement } from "../../cards.js";
import { h, replace } from "../../dom.js";
import { t } from "../../i18n.js";
import { reasonList, settlementTable, winnerText } from "./result.js";

/** @param {HTMLElement} el @param {import("../../state.js").TableState} state @param {(roundId: number) => void} recall */
export function renderHistory(el, state, recall) {
  if (!state.recent.length) {
    el.replaceChildren(h("li", { class: "muted" }, t("no_rounds")));
    return;
  }
  el.replaceChildren(
    ...state.recent.slice(0, 12).map((entry) =>
      h(
        "li",
        {},
        h(
          "button",
          { type: "button", class: `link winner-${entry.result.winner}`, "data-round": entry.round_id, onclick: () => recall(entry.round_id) },
          `${t("round_n", { n: entry.number })}: ${winnerText(entry.result)} ${entry.result.player.total}–${entry.result.banker.total}`,
          entry.mine ? " ★" : "",
        ),
      ),
    ),
  );
}

/**
 * A recalled round: its hands, the winner and why each card was drawn, this player's payouts, and
 * the link to verify it.
 * @param {HTMLElement} el @param {any} round (GET /api/rounds/{id}) @param {import("../../state.js").Payout[]|null} bets
 * @param {(bet: string) => string} name
 */
export function renderRecall(el, round, bets, name) {
  const result = round.result;
  const hand = (/** @type {"player"|"banker"} */ side) =>
    h(
      "div",
      {},
      h("strong", { class: side }, `${t(side)} ${result[side].total}`),
      h("div", { class: "hand-cards small" }, ...result[side].cards.map((/** @type {string} */ c) => cardElement(c, { up: true }))),
    );
  replace(
    el,
    h("h3", { id: "recall-title", tabindex: "-1" }, `${t("recall")} · ${t("round_n", { n: round.number })}`),
    result
      ? h(
          "div",
          { class: "recall-hands" },
          hand("player"),
          hand("banker"),
          h("p", {}, winnerText(result)),
          reasonList(result),
        )
      : h("p", {}, t(`phase_${round.status}`)),
    bets && bets.length ? settlementTable(bets, name) : null,
    h("a", { href: `#/fairness/${round.id ?? ""}`, class: "button" }, t("verify_round")),
  );
}
