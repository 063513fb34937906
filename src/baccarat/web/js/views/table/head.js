// @ts-check
// The table's head: its name and variant, the shoe and limits, the connection (with the seconds to
// the next try while reconnecting), the round's phase and the countdown.

import { money } from "../../format.js";
import { t } from "../../i18n.js";
import { canBet, secondsLeft } from "../../state.js";

/** The connection as words. @param {import("../../state.js").TableState} state @param {number} now Date.now() */
export function connectionText(state, now) {
  if (state.connection === "closed") {
    const s = Math.max(0, Math.ceil((state.retryAt - now) / 1000));
    return state.retryAt ? t("reconnecting_in", { s }) : t("reconnecting");
  }
  return { open: t("connected"), connecting: t("connecting"), missing: "" }[state.connection] || "";
}

/** @param {{conn: HTMLElement}} el @param {import("../../state.js").TableState} state @param {number} now Date.now() */
export function renderConnection(el, state, now) {
  el.conn.textContent = connectionText(state, now);
  el.conn.dataset.state = state.connection;
}

/** @param {{title: HTMLElement, shoe: HTMLElement}} el @param {import("../../state.js").TableState} state @param {string} variant */
export function renderTitle(el, state, variant) {
  const table = state.table;
  el.title.textContent = table ? `${table.name} · ${variant}` : state.status === "missing" ? t("not_found") : t("loading");
  el.shoe.textContent = table && table.shoe ? `${t("shoe_n", { n: table.shoe.number })} · ${t("limits")} ${money(table.min_bet)}–${money(table.max_bet)}` : "";
}

/** @param {{phase: HTMLElement}} el @param {import("../../state.js").TableState} state */
export function renderPhase(el, state) {
  const round = state.round;
  const status = !state.open ? "table_closed" : round ? round.status : "waiting";
  el.phase.dataset.status = status;
  if (!state.open) el.phase.textContent = t("table_closed");
  else el.phase.textContent = round ? `${t("round_n", { n: round.number })} · ${t(`phase_${status}`)}` : t("phase_waiting");
}

/** @param {{timer: HTMLElement, timerBar: HTMLElement}} el @param {import("../../state.js").TableState} state @param {number} now Date.now() */
export function renderCountdown(el, state, now) {
  const open = canBet(state);
  const left = secondsLeft(state, now);
  el.timer.textContent = open ? t("seconds_left", { s: left }) : "";
  el.timer.dataset.seconds = String(left);
  el.timer.setAttribute("aria-label", `${t("countdown")} ${left}`);
  const total = (state.table && state.table.betting_seconds) || 1;
  const exact = open ? Math.max(0, (state.deadline - now) / 1000) : 0;
  const bar = /** @type {HTMLElement} */ (el.timerBar.firstChild);
  bar.style.width = `${Math.min(100, (exact / total) * 100)}%`;
}
