// @ts-check
// The bet spots: each bet of this player's variant with its limits and payout (every level of a
// multi-level bet on demand: ⓘ, or a hover), the chips placed (pending) and confirmed on it as a chip
// stack, the table's total on it; while the result is shown, the winning spots lit and this player's
// chips paid (a win, a push) or collected (a loss).

import { h } from "../../dom.js";
import { money } from "../../format.js";
import { betName, levelName, t } from "../../i18n.js";
import { canBet, confirmedStakes, pendingOn } from "../../state.js";
import { CHIPS } from "./chips.js";
import "./spots_texts.js";

/** At most this many chips are drawn in a stack (the amount says the rest). */
export const STACK_CHIPS = 5;

/** A bet's payout as shown on its spot: "0.95:1", or "up to 30:1" for a bet of several levels. @param {any} entry */
export function payText(entry) {
  const pays = entry.pays || [];
  if (pays.length <= 1) return pays.map((level) => `${level.pays}:1`).join("");
  const best = Math.max(...pays.map((level) => Number(level.pays)));
  return t("pays_up_to", { p: `${best}:1` });
}

/** Every level of a bet's payout ("天牌 1:1 · 贏9點 30:1 …"). @param {any} entry */
export function payLevels(entry) {
  return (entry.pays || []).map((level) => ({ level: levelName(level.level), pays: `${level.pays}:1` }));
}

/**
 * The chips of a stack worth `amount` (minor units), largest first, as a dealer would make it up
 * from the table's chips; at most STACK_CHIPS of them.
 * @param {number} amount @param {number[]} [chips] @returns {number[]}
 */
export function chipStack(amount, chips = CHIPS) {
  const out = [];
  let left = amount;
  for (const value of [...chips].sort((a, b) => b - a)) {
    while (left >= value && out.length < STACK_CHIPS) {
      out.push(value);
      left -= value;
    }
  }
  return out.length ? out : amount > 0 ? [Math.min(...chips)] : [];
}

/** A stack of chips with its amount. @param {string} kind @param {number} amount @param {Record<string, any>} [attrs] */
function stack(kind, amount, attrs = {}) {
  return h(
    "span",
    { class: `stack ${kind}`, ...attrs },
    h("span", { class: "discs", "aria-hidden": "true" }, ...chipStack(amount).map((value) => h("i", { class: `disc chip-${value}` }))),
    h("b", {}, money(amount)),
  );
}

/** This player's chips on a spot once the round settled: paid (with what came back) or collected. @param {import("../../state.js").Payout[]} bets @param {string} bet */
function settledStack(bets, bet) {
  const mine = bets.filter((b) => b.bet === bet);
  if (!mine.length) return null;
  const returned = mine.reduce((sum, b) => sum + (b.returned ?? 0), 0);
  const stake = mine.reduce((sum, b) => sum + b.stake, 0);
  if (returned > 0) return stack(returned > stake ? "settled paid" : "settled push", returned, { "data-returned": returned });
  return stack("settled collected", stake, { "data-collected": stake });
}

/**
 * @param {HTMLElement} el @param {import("../../state.js").TableState} state
 * @param {{menu: any[], winners: Set<string>, settled: import("../../state.js").Payout[]|null, place: (bet: string) => void,
 *   shownPays: Set<string>, togglePays: (bet: string) => void}} ctx
 */
export function renderSpots(el, state, ctx) {
  el.setAttribute("aria-label", t("bet_spots"));
  if (!state.table) return;
  const open = canBet(state);
  const confirmed = confirmedStakes(state);
  el.dataset.open = String(open);
  el.replaceChildren(...ctx.menu.map((entry) => spot(entry, state, ctx, open, confirmed[entry.bet] || 0)));
}

/** One spot. @param {any} entry @param {import("../../state.js").TableState} state @param {any} ctx @param {boolean} open @param {number} mine */
function spot(entry, state, ctx, open, mine) {
  const pending = pendingOn(state, entry.bet);
  const name = betName(entry);
  const won = ctx.winners.has(entry.bet);
  const limits = typeof entry.min === "number" && typeof entry.max === "number" ? `${money(entry.min)}–${money(entry.max)}` : "";
  const label = [name, t("pays", { p: payText(entry) }), limits ? `${t("limits")} ${limits}` : "", pending ? `${t("pending")} ${money(pending)}` : "", mine ? `${t("confirmed")} ${money(mine)}` : ""]
    .filter(Boolean)
    .join(", ");
  const levels = payLevels(entry);
  const showing = ctx.shownPays.has(entry.bet);
  return h(
    "div",
    { class: `spot-wrap${levels.length > 1 ? " levels" : ""}${showing ? " showing" : ""}`, "data-bet": entry.bet },
    h(
      "button",
      {
        type: "button",
        class: `spot spot-${entry.bet}${won ? " won" : ""}`,
        "data-bet": entry.bet,
        "data-testid": `spot-${entry.bet}`,
        "data-won": won ? "true" : null,
        "aria-label": label,
        "aria-disabled": open ? null : "true",
        onclick: () => ctx.place(entry.bet),
      },
      h("span", { class: "spot-name" }, name),
      h("span", { class: "spot-pays" }, payText(entry)),
      limits ? h("span", { class: "spot-limits", "data-testid": `limits-${entry.bet}` }, limits) : null,
      h(
        "span",
        { class: "stacks" },
        ctx.settled ? settledStack(ctx.settled, entry.bet) : null,
        !ctx.settled && mine ? stack("confirmed", mine, { "data-confirmed": mine }) : null,
        pending ? stack("pending", pending, { "data-pending": pending }) : null,
      ),
      state.totals[entry.bet] ? h("span", { class: "spot-total muted" }, money(state.totals[entry.bet])) : null,
    ),
    levels.length > 1 ? payInfo(entry, levels, showing, ctx) : null,
  );
}

/** The ⓘ of a bet of several levels, and its paytable (shown on a tap, or while hovered). @param {any} entry @param {{level: string, pays: string}[]} levels @param {boolean} showing @param {any} ctx */
function payInfo(entry, levels, showing, ctx) {
  const id = `pays-${entry.bet}`;
  return [
    h(
      "button",
      {
        type: "button",
        class: "spot-info",
        "data-testid": `pays-${entry.bet}`,
        "aria-expanded": String(showing),
        "aria-controls": id,
        "aria-label": `${t("pays_levels")}: ${betName(entry)}`,
        onclick: () => ctx.togglePays(entry.bet),
      },
      "ⓘ",
    ),
    h(
      "div",
      { class: "spot-paytable", id, role: "tooltip" },
      h("dl", {}, ...levels.flatMap((level) => [h("dt", {}, level.level), h("dd", {}, level.pays)])),
    ),
  ];
}
