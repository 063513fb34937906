// @ts-check
// The back office's Players section: players by name with their wallet and commission owed, and
// suspension (a suspended player cannot log in; their sessions end at once), each change audited.

import { api } from "../../api.js";
import { h, replace, toast } from "../../dom.js";
import { money } from "../../format.js";
import { lang, t } from "../../i18n.js";
import { explain } from "../../refusals.js";
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
        toast(t(who.suspended ? "staff_done_reinstated" : "staff_done_suspended", { name: who.name }));
        done();
      } catch (error) {
        toast(explain(error), "error");
      }
    },
  }, t(who.suspended ? "staff_reinstate" : "staff_suspend"));
  return h("div", { class: "staff-suspension" }, who.suspended ? null : reason, button);
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
              h("td", {}, suspension(p, load)),
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
