// @ts-check
// The bet spots: each bet of this player's variant with its payout, the chips placed (pending) and
// confirmed on it, the table's total on it, and the winning spots lit while the result is shown.

import { h } from "../../dom.js";
import { money } from "../../format.js";
import { betName, levelName, t } from "../../i18n.js";
import { canBet, confirmedStakes, pendingOn } from "../../state.js";

/** A bet's payout as shown on its spot ("0.95:1", or per level). @param {any} entry */
export function payText(entry) {
  const pays = entry.pays || [];
  return pays.map((level) => (pays.length > 1 ? `${levelName(level.level)} ${level.pays}:1` : `${level.pays}:1`)).join(" · ");
}

/**
 * @param {HTMLElement} el @param {import("../../state.js").TableState} state
 * @param {{menu: any[], winners: Set<string>, place: (bet: string) => void}} ctx
 */
export function renderSpots(el, state, ctx) {
  el.setAttribute("aria-label", t("bet_spots"));
  if (!state.table) return;
  const open = canBet(state);
  const confirmed = confirmedStakes(state);
  el.dataset.open = String(open);
  el.replaceChildren(
    ...ctx.menu.map((entry) => {
      const pending = pendingOn(state, entry.bet);
      const mine = confirmed[entry.bet] || 0;
      const name = betName(entry);
      const won = ctx.winners.has(entry.bet);
      const label = [name, t("pays", { p: payText(entry) }), pending ? `${t("pending")} ${money(pending)}` : "", mine ? `${t("confirmed")} ${money(mine)}` : ""]
        .filter(Boolean)
        .join(", ");
      return h(
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
        pending ? h("span", { class: "stack pending", "data-pending": pending }, money(pending)) : null,
        mine ? h("span", { class: "stack confirmed", "data-confirmed": mine }, money(mine)) : null,
        state.totals[entry.bet] ? h("span", { class: "spot-total muted" }, money(state.totals[entry.bet])) : null,
      );
    }),
  );
}
