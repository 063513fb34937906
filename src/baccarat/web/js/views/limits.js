// @ts-check
// Safer play (#/limits): the player's own responsible-gaming settings — a daily loss limit, a
// play-time reminder, a self-exclusion — and what they lost today. The server enforces them and
// refuses a loosening (the house's), which this page explains in the player's language.

import { api } from "../api.js";
import { h, replace, toast } from "../dom.js";
import { money } from "../format.js";
import { lang, onLangChange, t } from "../i18n.js";
import { explain } from "../refusals.js";
import { askLogin, currentUser, onUserChange, refreshUser } from "../session.js";
import "./limits_texts.js";

/** An amount typed in units ("200" or "200.50") as minor units, or null when blank. @param {string} text */
export function minorOf(text) {
  const cleaned = text.trim();
  if (!cleaned) return null;
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return Number.NaN;
  return Math.round(Number(cleaned) * 100);
}

/** A whole number typed, or null when blank. @param {string} text */
function wholeOf(text) {
  const cleaned = text.trim();
  return cleaned ? Number.parseInt(cleaned, 10) : null;
}

/** Show the page in `view`; returns a function that leaves it. @param {HTMLElement} view */
export function mountLimits(view) {
  let gone = false;
  const loss = /** @type {HTMLInputElement} */ (h("input", { id: "limit-loss", "data-testid": "limit-loss", inputmode: "decimal" }));
  const reminder = /** @type {HTMLInputElement} */ (h("input", { id: "limit-reminder", "data-testid": "limit-reminder", type: "number", min: "5", max: "1440" }));
  const exclude = /** @type {HTMLInputElement} */ (h("input", { id: "limit-exclude", "data-testid": "limit-exclude", type: "number", min: "1", max: "3650" }));
  const facts = h("dl", { class: "limits-facts", "data-testid": "limits-facts" });
  const error = h("p", { class: "error", role: "alert", id: "limits-error" });
  /** @type {(() => string)|null} */
  let refusal = null;

  /** Show why the server refused (written again in each language), or nothing. @param {(() => string)|null} text */
  function refuse(text) {
    refusal = text;
    error.textContent = text ? text() : "";
  }

  /** @param {any} limits */
  function draw(limits) {
    loss.value = limits.daily_loss_limit === null ? "" : (limits.daily_loss_limit / 100).toFixed(2);
    reminder.value = limits.session_reminder_minutes === null ? "" : String(limits.session_reminder_minutes);
    exclude.value = "";
    const rows = [[t("limits_lost"), money(limits.lost_today)], [t("limits_left"), limits.left_today === null ? t("limits_loss_none") : money(limits.left_today)]];
    if (limits.excluded_until) rows.push(["", t("limits_excluded_until", { when: new Date(limits.excluded_until * 1000).toLocaleString(lang()) })]);
    replace(facts, ...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
  }

  async function load() {
    if (!currentUser()) {
      replace(view, h("h1", {}, t("limits_title")), h("p", {}, t("limits_login")), h("button", { type: "button", class: "primary", onclick: askLogin }, t("login")));
      return;
    }
    const form = h(
      "form",
      { class: "limits-form", onsubmit: save },
      h("label", { for: "limit-loss" }, t("limits_loss")), loss,
      h("label", { for: "limit-reminder" }, t("limits_reminder")), reminder,
      h("label", { for: "limit-exclude" }, t("limits_exclude")), h("div", {}, exclude, h("small", { class: "muted" }, ` ${t("limits_exclude_help")}`)),
      h("span", {}), h("button", { type: "submit", class: "primary", "data-testid": "limits-save" }, t("limits_save")),
    );
    replace(view, h("section", { class: "limits" }, h("h1", {}, t("limits_title")), h("p", { class: "muted" }, t("limits_intro")), facts, form, error));
    try {
      const limits = await api("/api/me/limits");
      if (!gone) draw(limits);
    } catch (failure) {
      refuse(() => explain(failure));
    }
  }

  /** @param {Event} event */
  async function save(event) {
    event.preventDefault();
    refuse(null);
    const body = { daily_loss_limit: minorOf(loss.value), session_reminder_minutes: wholeOf(reminder.value), exclude_days: wholeOf(exclude.value) };
    if (Number.isNaN(body.daily_loss_limit)) {
      const typed = loss.value;
      refuse(() => t("limits_bad_amount", { amount: typed }));
      return;
    }
    try {
      draw(await api("/api/me/limits", { method: "PUT", body }));
      toast(() => t("limits_saved"));
      if (body.exclude_days) await refreshUser();
    } catch (failure) {
      refuse(() => explain(failure));
    }
  }

  const who = () => {
    const user = currentUser();
    return user ? String(user.id) : "";
  };
  let drawnFor = who();
  const offUser = onUserChange(() => {
    if (who() === drawnFor) return; // a new balance: the same page
    drawnFor = who();
    load();
  });
  const offLang = onLangChange(() => {
    load();
    if (refusal) error.textContent = refusal();
  });
  load();
  return () => {
    gone = true;
    offUser();
    offLang();
  };
}
