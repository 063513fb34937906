// @ts-check
// This player's money and bets at the table: balance, wallet, money at the table, the confirmed bets
// of the round (every tab of the user shows the same: they come from the server), the commission box.

import { h, replace } from "../../dom.js";
import { money } from "../../format.js";
import { t } from "../../i18n.js";
import { confirmedStakes, confirmedTotal } from "../../state.js";

/**
 * @param {HTMLElement} el @param {import("../../state.js").TableState} state
 * @param {{login: () => void, name: (bet: string) => string}} ctx
 */
export function renderWallet(el, state, ctx) {
  const user = state.user;
  if (!user) {
    replace(el, h("button", { type: "button", onclick: ctx.login }, t("need_login")));
    return;
  }
  const stakes = Object.entries(confirmedStakes(state));
  const stack = state.atTable ?? 0;
  const owed = state.owed ?? 0;
  replace(
    el,
    h("span", {}, h("small", {}, t("balance")), " ", h("strong", { id: "table-balance", "data-value": user.balance }, money(user.balance))),
    user.wallet !== undefined ? h("span", {}, h("small", {}, t("wallet")), " ", h("span", { id: "table-wallet", "data-value": user.wallet }, money(user.wallet))) : null,
    h("span", {}, h("small", {}, t("at_table")), " ", h("span", { id: "table-stack", "data-value": stack }, money(stack))),
    h(
      "span",
      { class: "my-bets", id: "my-bets", "data-testid": "my-bets", "data-total": confirmedTotal(state) },
      h("small", {}, t("my_bets")),
      " ",
      stakes.length
        ? stakes.map(([bet, stake], i) => [i ? " · " : "", h("span", { "data-bet": bet, "data-stake": stake }, `${ctx.name(bet)} ${money(stake)}`)])
        : t("no_bets"),
    ),
    h(
      "span",
      { class: "owed-box", title: t("commission_on_leave") },
      h("small", {}, t("commission_box")),
      " ",
      h("span", { id: "table-owed", "data-value": owed }, money(owed)),
      " ",
      h("small", {}, `(${t("commission_on_leave")})`),
    ),
  );
}
