// @ts-check
// The result panel: the banner (閒贏 9:4 · 你贏 +10.00) kept on screen for a few seconds after the
// round settles, this player's payouts, and which spots won.

import { h, replace } from "../../dom.js";
import { money, signedMoney } from "../../format.js";
import { t } from "../../i18n.js";
import { reasonText } from "../../reasons.js";

/** @param {import("../../state.js").Result} result */
export function winnerText(result) {
  return t(`win_${result.winner}`) + (result.natural ? ` · ${t("natural")}` : "");
}

/** The net of settled bets (returned less staked). @param {import("../../state.js").Payout[]} bets */
export function netOf(bets) {
  return bets.reduce((sum, b) => sum + (b.returned ?? 0) - b.stake, 0);
}

/** The bets that won a round (its winner and the side bets this player's payouts say won). @param {import("../../state.js").Shown|null} shown */
export function winners(shown) {
  /** @type {Set<string>} */
  const won = new Set();
  if (!shown) return won;
  won.add(shown.result.winner);
  const cards = shown.result;
  if (cards.player && cards.player.cards && cards.player.cards.length >= 2) {
    const [a, b] = cards.player.cards;
    if (a.slice(0, -1) === b.slice(0, -1)) won.add("player_pair");
  }
  if (cards.banker && cards.banker.cards && cards.banker.cards.length >= 2) {
    const [a, b] = cards.banker.cards;
    if (a.slice(0, -1) === b.slice(0, -1)) won.add("banker_pair");
  }
  for (const bet of shown.bets || []) if (bet.result === "win") won.add(bet.bet);
  return won;
}

/** @param {import("../../state.js").Payout[]} bets @param {(bet: string) => string} name */
export function settlementTable(bets, name) {
  const net = netOf(bets);
  return h(
    "table",
    { class: "payouts", id: "payouts" },
    h("caption", {}, t("payout")),
    h("thead", {}, h("tr", {}, ...["bet", "stake", "outcome", "payout", "commission", "returned"].map((k) => h("th", { scope: "col", class: `col-${k}` }, t(k))))),
    h(
      "tbody",
      {},
      ...bets.map((b) =>
        h(
          "tr",
          { "data-bet": b.bet, "data-returned": b.returned ?? 0, "data-stake": b.stake },
          h("th", { scope: "row" }, name(b.bet)),
          h("td", {}, money(b.stake)),
          h("td", { class: `outcome-${b.result}` }, t(`outcome_${b.result}`)),
          h("td", { class: "col-payout" }, money(b.paid ?? 0)),
          h("td", {}, money(b.commission ?? 0)),
          h("td", {}, money(b.returned ?? 0)),
        ),
      ),
    ),
    h(
      "tfoot",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "row", colspan: 3 }, t("net")),
        h("td", { class: "col-payout" }),
        h("td", {}),
        h("td", { id: "net", "data-net": net, class: net >= 0 ? "plus" : "minus" }, signedMoney(net)),
      ),
    ),
  );
}

/**
 * Why each hand drew or stood (R12–R15), in the page's language (the server's codes; its English
 * where a result has none). @param {any} result
 */
export function reasonList(result) {
  const texts = Array.isArray(result.explained) && result.explained.length ? result.explained.map(reasonText) : result.reasons || [];
  return texts.length ? h("ul", { class: "reasons small", "data-testid": "reasons" }, ...texts.map((/** @type {string} */ text) => h("li", {}, text))) : null;
}

/** The banner's words: "閒贏 9:4 · 你贏 +10.00". @param {import("../../state.js").Shown} shown */
export function bannerText(shown) {
  const r = shown.result;
  const side = r.winner === "banker" ? `${r.banker.total}:${r.player.total}` : `${r.player.total}:${r.banker.total}`;
  const parts = [`${t(`win_${r.winner}`)} ${side}`];
  if (r.natural) parts.push(t("natural"));
  if (shown.bets && shown.bets.length) {
    const net = netOf(shown.bets);
    parts.push(net > 0 ? t("you_win", { amount: signedMoney(net) }) : net < 0 ? t("you_lose", { amount: signedMoney(net) }) : t("you_even"));
  }
  return parts.join(" · ");
}

/**
 * @param {HTMLElement} el @param {import("../../state.js").Shown|null} shown (null: nothing to show)
 * @param {boolean} banner whether the banner is still up @param {(bet: string) => string} name
 * @param {{compact?: boolean}} [options] the next round is open for bets: the banner and your
 *   payouts only (the winner's line and the reasons stay in the round's recall)
 */
export function renderResult(el, shown, banner, name, { compact = false } = {}) {
  if (!shown) {
    replace(el);
    delete el.dataset.round;
    delete el.dataset.settled;
    return;
  }
  const r = shown.result;
  replace(
    el,
    banner
      ? h("p", { class: `banner winner-${r.winner}`, "data-testid": "result-banner", "data-round": shown.round_id, role: "status" }, bannerText(shown))
      : null,
    compact ? null : h("p", { class: `winner winner-${r.winner}`, "data-round": shown.round_id }, winnerText(r), ` · ${t("player")} ${r.player.total} : ${t("banker")} ${r.banker.total}`),
    compact ? null : reasonList(r),
    shown.bets && shown.bets.length ? settlementTable(shown.bets, name) : null,
  );
  el.dataset.round = String(shown.round_id);
  el.dataset.settled = shown.bets ? "mine" : "table";
}
