// @ts-check
// The back office's Players section: players by name with their wallet and commission owed, and
// suspension (a suspended player cannot log in; their sessions end at once), each change audited.

import { api } from "../../api.js";
import { h, replace, toast } from "../../dom.js";
import { money } from "../../format.js";
import { lang, t } from "../../i18n.js";
import { explain } from "../../refusals.js";
import { minorOf } from "../limits.js";
import "./people_texts.js";

/** The nav's text key of this section. */
export const title = "staff_players";

/** A suspend / reinstate control with its reason field, for a player or a dealer. @param {{name: string, suspended: boolean}} who @param {() => void} done */
export function suspension(who, done) {
  const reason = /** @type {HTMLInputElement} */ (h("input", { "aria-label": t("staff_reason"), placeholder: t("staff_reason"), maxlength: "200", class: "staff-reason" }));
  const button = h("button", {
    type: "button",
    class: who.suspended ? "" : "danger",
    "data-testid": `${who.suspended ? "reinstate" : "suspend"}-${who.name}`,
    onclick: async () => {
      const body = { suspended: !who.suspended, ...(reason.value.trim() ? { reason: reason.value.trim() } : {}) };
      try {
        await api(`/api/admin/users/${encodeURIComponent(who.name)}/suspension`, { method: "POST", body });
        const key = who.suspended ? "staff_done_reinstated" : "staff_done_suspended";
        toast(() => t(key, { name: who.name }));
        done();
      } catch (error) {
        toast(explain(error), "error");
      }
    },
  }, t(who.suspended ? "staff_reinstate" : "staff_suspend"));
  return h("div", { class: "staff-suspension" }, who.suspended ? null : reason, button);
}

/** A player's responsible-gaming settings, loaded when opened and saved by the house (audited). @param {string} name */
function limitsEditor(name) {
  const loss = /** @type {HTMLInputElement} */ (h("input", { inputmode: "decimal", "aria-label": t("limits_loss"), placeholder: t("limits_loss_none"), "data-testid": `limits-loss-${name}` }));
  const reminder = /** @type {HTMLInputElement} */ (h("input", { type: "number", min: "5", max: "1440", "aria-label": t("limits_reminder"), placeholder: t("limits_reminder_none") }));
  const facts = h("span", { class: "muted small" });
  const box = h("details", { class: "staff-limits" }, h("summary", {}, t("safer_play")));
  box.addEventListener("toggle", async () => {
    if (!(/** @type {HTMLDetailsElement} */ (box).open)) return;
    try {
      const limits = await api(`/api/admin/players/${encodeURIComponent(name)}/limits`);
      loss.value = limits.daily_loss_limit === null ? "" : (limits.daily_loss_limit / 100).toFixed(2);
      reminder.value = limits.session_reminder_minutes === null ? "" : String(limits.session_reminder_minutes);
      facts.textContent = `${t("limits_lost")} ${money(limits.lost_today)}`;
    } catch (error) {
      facts.textContent = explain(error);
    }
  });
  const save = h("button", {
    type: "button",
    "data-testid": `limits-save-${name}`,
    onclick: async () => {
      const amount = minorOf(loss.value);
      if (Number.isNaN(amount)) return toast(t("limits_bad_amount", { amount: loss.value }), "error");
      const body = { daily_loss_limit: amount, session_reminder_minutes: reminder.value.trim() ? Number(reminder.value) : null };
      try {
        await api(`/api/admin/players/${encodeURIComponent(name)}/limits`, { method: "PUT", body });
        toast(() => t("limits_saved"));
      } catch (error) {
        toast(explain(error), "error");
      }
    },
  }, t("limits_save"));
  box.append(h("div", { class: "row" }, loss, reminder, save, facts));
  return box;
}

/** A player's last rounds, loaded when opened: table, round, stakes and what came back. @param {string} name */
function historyViewer(name) {
  const body = h("div", { class: "small" });
  const box = h("details", { class: "staff-history", "data-testid": `history-${name}` }, h("summary", {}, t("staff_history")), body);
  box.addEventListener("toggle", async () => {
    if (!(/** @type {HTMLDetailsElement} */ (box).open)) return;
    try {
      const { rounds } = await api(`/api/admin/players/${encodeURIComponent(name)}/history?limit=20`);
      if (!rounds.length) return replace(body, h("p", { class: "muted" }, t("no_rounds")));
      replace(
        body,
        h("ul", { class: "staff-rounds" }, ...rounds.map((/** @type {any} */ r) => {
          const staked = r.bets.reduce((/** @type {number} */ n, /** @type {any} */ b) => n + b.stake, 0);
          const back = r.bets.reduce((/** @type {number} */ n, /** @type {any} */ b) => n + (b.returned || 0), 0);
          return h("li", { "data-round": r.round_id }, `${r.table} #${r.number} · ${t(`phase_${r.status}`)} · ${t("stake")} ${money(staked)} · ${t("returned")} ${money(back)}`);
        })),
      );
    } catch (error) {
      replace(body, h("p", { class: "error" }, explain(error)));
    }
  });
  return box;
}

/** @param {boolean} suspended */
export function stateBadge(suspended) {
  return h("span", { class: `admin-badge ${suspended ? "closed" : "open"}` }, t(suspended ? "staff_suspended" : "staff_active"));
}

/** Show the players in `el`. @param {HTMLElement} el @param {string[]} _parts */
export function mount(el, _parts) {
  let gone = false;
  const query = /** @type {HTMLInputElement} */ (h("input", { type: "search", "data-testid": "players-search", "aria-label": t("staff_search"), placeholder: t("staff_search"), maxlength: "40" }));
  const list = h("div", { class: "staff-list", "data-testid": "players-table" });
  const form = h("form", { class: "admin-filters", onsubmit: (/** @type {Event} */ event) => { event.preventDefault(); load(); } }, query, h("button", { type: "submit" }, t("staff_search_go")));
  replace(el, form, list);

  async function load() {
    const search = query.value.trim();
    try {
      const page = await api(`/api/admin/players?limit=100${search ? `&query=${encodeURIComponent(search)}` : ""}`);
      if (!gone) draw(page);
    } catch (error) {
      replace(list, h("p", { class: "error", role: "alert" }, explain(error)));
    }
  }

  /** @param {{players: any[], total: number}} page */
  function draw(page) {
    if (!page.players.length) return replace(list, h("p", { class: "muted" }, t("staff_none")));
    const when = new Intl.DateTimeFormat(lang(), { dateStyle: "medium" });
    replace(
      list,
      h("p", { class: "muted small" }, t("staff_total", { n: page.total })),
      h(
        "table",
        { class: "admin-report" },
        h("thead", {}, h("tr", {}, ...["staff_name", "staff_wallet", "staff_owed", "staff_joined", "staff_state", ""].map((k) => h("th", { scope: "col" }, k ? t(k) : "")))),
        h(
          "tbody",
          {},
          ...page.players.map((p) =>
            h(
              "tr",
              { "data-player": p.name },
              h("th", { scope: "row" }, p.name),
              h("td", { class: "num" }, money(p.wallet)),
              h("td", { class: "num" }, money(p.owed)),
              h("td", {}, when.format(new Date(p.created_at * 1000))),
              h("td", {}, stateBadge(p.suspended)),
              h("td", {}, suspension(p, load), limitsEditor(p.name), historyViewer(p.name)),
            ),
          ),
        ),
      ),
    );
  }

  load();
  return () => {
    gone = true;
  };
}
