// @ts-check
// The back office's Audit section: the audit log, newest first, a page at a time (`next`), filtered by
// table: who did what, when, why, and how the server answered.

import { api } from "../../api.js";
import { h, replace } from "../../dom.js";
import { t } from "../../i18n.js";
import { explain } from "../../refusals.js";
import { auditQuery } from "./figures.js";

/** The nav's text key of this section. */
export const title = "admin_audit";

const PAGE = 20;
/** The table filter, kept while the back office is open. */
const filter = { table: "" };

function actionName(action) {
  const key = `admin_action_${action}`;
  const text = t(key);
  return text === key ? action : text;
}

function when(at) {
  return new Date(at * 1000).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

function detailText(entry) {
  const detail = entry.detail && typeof entry.detail === "object" ? entry.detail : {};
  const parts = Object.entries(detail).map(([key, value]) => `${key}=${typeof value === "object" ? JSON.stringify(value) : value}`);
  return parts.join(" · ");
}

function item(entry) {
  return h(
    "li",
    { class: `admin-entry ${entry.status >= 400 ? "refused" : ""}`, "data-action": entry.action, "data-table": entry.table_id || "", "data-id": entry.id },
    h("time", { datetime: new Date(entry.at * 1000).toISOString(), class: "muted small" }, when(entry.at)),
    h("strong", {}, actionName(entry.action)),
    h("span", {}, entry.table_id || "–"),
    entry.round_id ? h("span", { class: "muted" }, `${t("admin_round")} #${entry.round_id}`) : null,
    h("span", {}, `${t("admin_who")}: ${entry.actor}${entry.role === entry.actor ? "" : ` (${entry.role})`}`),
    h("span", { class: "muted small" }, `${t("admin_status")}: ${entry.status}`),
    entry.reason ? h("span", {}, `${t("admin_reason")}: ${entry.reason}`) : null,
    detailText(entry) ? h("span", { class: "mono small muted" }, detailText(entry)) : null,
  );
}

/**
 * Show the audit log in `el`.
 * @param {HTMLElement} el @param {string[]} _parts
 */
export function mount(el, _parts) {
  let gone = false;
  const list = h("ol", { class: "admin-audit", "data-testid": "audit-log" });
  const status = h("p", { class: "muted small", "data-testid": "audit-count" });
  const more = h("button", { type: "button", "data-testid": "audit-more", hidden: true }, t("admin_more"));
  const tableSelect = h("select", { name: "table", "data-testid": "audit-filter-table" }, h("option", { value: "" }, t("admin_all_tables")));
  /** @type {number|null} */
  let next = null;

  async function page(before) {
    try {
      const answer = await api(`/api/admin/audit${auditQuery({ table: filter.table, before, limit: PAGE })}`);
      if (gone) return;
      if (!before) list.replaceChildren();
      for (const entry of answer.entries) list.append(item(entry));
      next = answer.next;
      more.hidden = !next;
      status.textContent = answer.total ? t("admin_entries_n", { n: answer.total }) : t("admin_no_entries");
    } catch (error) {
      if (!gone) status.textContent = t("admin_failed", { reason: explain(error) });
    }
  }

  more.addEventListener("click", () => next && page(next));
  tableSelect.addEventListener("change", () => {
    filter.table = /** @type {HTMLSelectElement} */ (tableSelect).value;
    page(null);
  });
  replace(
    el,
    h("div", { class: "admin-head" }, h("h2", {}, t("admin_audit")), h("button", { type: "button", class: "ghost", "data-testid": "audit-refresh", onclick: () => page(null) }, t("admin_refresh"))),
    h("div", { class: "admin-filters" }, h("label", { class: "field" }, h("span", {}, t("admin_table")), tableSelect)),
    status,
    list,
    more,
  );
  api("/api/tables")
    .then((lobby) => {
      for (const table of lobby.tables) tableSelect.append(h("option", { value: table.id, selected: table.id === filter.table }, `${table.name} (${table.id})`));
    })
    .catch(() => {});
  page(null);
  return () => {
    gone = true;
  };
}
