// @ts-check
// The seats panel: this player's place at the table, the seats (free, mine, taken), stand, cash out, leave.

import { h, replace } from "../../dom.js";
import { t } from "../../i18n.js";
import { me } from "../../state.js";

/**
 * @typedef {{sit: (seat: number) => void, stand: () => void, cashOut: () => void, leave: () => void}} SeatActions
 * @param {HTMLElement} el @param {import("../../state.js").TableState} state @param {SeatActions} on
 */
export function renderSeats(el, state, on) {
  el.setAttribute("aria-label", t("seats"));
  const pub = state.pub;
  if (!pub || !pub.seats || !state.open) {
    el.replaceChildren();
    return;
  }
  const mine = me(state);
  const rules = (state.table && state.table.rules) || {};
  const status = mine ? (mine.seat ? t("seat_n", { n: mine.seat }) : t("standing")) : t("not_at_table");
  replace(
    el,
    h("span", { class: "seat-status", id: "seat-status", "data-seat": mine ? mine.seat ?? "standing" : "none" }, status),
    h("span", { class: "muted", id: "table-players", "data-players": pub.players ?? 0 }, `${t("players")} ${pub.players ?? 0}`),
    ...pub.seats.map(({ seat, bettor }) => {
      const kind = bettor === null ? "free" : mine && bettor === mine.id ? "mine" : "taken";
      const label = kind === "free" ? t("seat_free") : kind === "mine" ? t("seat_mine") : bettor;
      return h(
        "button",
        {
          type: "button",
          class: "seat",
          "data-seat": seat,
          "data-state": kind,
          "data-testid": `seat-${seat}`,
          disabled: kind !== "free",
          "aria-label": `${t("seat_n", { n: seat })}: ${label}${kind === "free" ? ` · ${t("sit")}` : ""}`,
          onclick: () => on.sit(seat),
        },
        String(seat),
        h("small", {}, ` ${label}`),
      );
    }),
    !mine && rules.standing_bettors !== false ? h("button", { type: "button", id: "stand", onclick: on.stand }, t("stand")) : null,
    mine ? h("button", { type: "button", id: "cash-out", onclick: on.cashOut }, t("cash_out")) : null,
    mine ? h("button", { type: "button", id: "leave-table", onclick: on.leave }, t("leave_table")) : null,
  );
}
