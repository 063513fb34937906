// @ts-check
// The back office's Reports section: filters (table, from, to), the report per table and UTC day with
// a row per bet (handle, GGR, hold, theoretical win, difference in σ), and its CSV download.

import { api, ApiError, token } from "../../api.js";
import { h, replace } from "../../dom.js";
import { money } from "../../format.js";
import { betName, t } from "../../i18n.js";
import { explain } from "../../refusals.js";
import { amountText, fileNameOf, holdText, reportQuery, sigmaLevel, sigmaText } from "./figures.js";

/** The nav's text key of this section. */
export const title = "admin_reports";

/** The filters, kept while the back office is open (a language switch redraws the section). */
const filters = { table: "", from: "", to: "" };

const COLUMNS = ["admin_bet", "admin_bets", "admin_handle", "admin_ggr", "admin_hold", "admin_theoretical", "admin_sigma", "admin_difference"];

function figureCells(f) {
  return [
    h("td", { class: "num" }, String(f.bets)),
    h("td", { class: "num", "data-field": "handle", "data-value": f.handle }, money(f.handle)),
    h("td", { class: `num ${f.ggr < 0 ? "neg" : ""}`, "data-field": "ggr", "data-value": f.ggr }, money(f.ggr)),
    h("td", { class: "num", "data-field": "hold" }, holdText(f.hold)),
    h("td", { class: "num", "data-field": "theoretical" }, amountText(f.theoretical)),
    h("td", { class: "num" }, amountText(f.sigma)),
    h("td", { class: `num sigma ${sigmaLevel(f.deviation)}`, "data-field": "deviation" }, sigmaText(f.deviation)),
  ];
}

function nameOf(report, kind) {
  const names = report.names[kind];
  return names ? betName({ english: names.english, chinese: names.chinese }) : kind;
}

function dayBlock(report, day) {
  const kinds = Object.keys(day.bets);
  return h(
    "tbody",
    { "data-table": day.table, "data-day": day.day },
    h(
      "tr",
      { class: "admin-day" },
      h("th", { scope: "rowgroup", colspan: COLUMNS.length }, `${day.table} · ${day.day} · `, h("span", { class: "muted" }, t("admin_rounds_n", { settled: day.rounds_settled, voided: day.rounds_voided }))),
    ),
    ...kinds.map((kind) => h("tr", { "data-bet": kind }, h("th", { scope: "row" }, nameOf(report, kind)), ...figureCells(day.bets[kind]))),
    h("tr", { class: "admin-total", "data-bet": "total" }, h("th", { scope: "row" }, t("admin_total")), ...figureCells(day.total)),
  );
}

function summary(report) {
  return h(
    "tbody",
    { class: "admin-summary", "data-summary": "all" },
    h("tr", { class: "admin-day" }, h("th", { scope: "rowgroup", colspan: COLUMNS.length }, t("admin_all_days"))),
    ...Object.keys(report.bets).map((kind) => h("tr", { "data-bet": kind }, h("th", { scope: "row" }, nameOf(report, kind)), ...figureCells(report.bets[kind]))),
    h("tr", { class: "admin-total", "data-bet": "total" }, h("th", { scope: "row" }, t("admin_total")), ...figureCells(report.total)),
  );
}

function reportTable(report) {
  if (!report.days.length) return h("p", { class: "muted", "data-testid": "report-empty" }, t("admin_no_report"));
  return h(
    "div",
    { class: "scroll-x" },
    h(
      "table",
      { class: "admin-report", "data-testid": "report-table" },
      h("thead", {}, h("tr", {}, ...COLUMNS.map((key) => h("th", { scope: "col" }, t(key))))),
      ...report.days.map((day) => dayBlock(report, day)),
      summary(report),
    ),
  );
}

/** Download the CSV with the session token (a plain link could not send it). */
async function downloadCsv() {
  const query = reportQuery(filters);
  const response = await fetch(`/api/admin/reports.csv${query}`, { headers: { Accept: "text/csv", Authorization: `Bearer ${token()}` } });
  if (!response.ok) {
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    throw new ApiError(response.status, body && body.detail ? body.detail : `HTTP ${response.status}`, body);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = h("a", { href: url, download: fileNameOf(response.headers.get("Content-Disposition"), "report.csv") });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function field(key, control) {
  return h("label", { class: "field" }, h("span", {}, t(key)), control);
}

/**
 * Show the reports in `el`.
 * @param {HTMLElement} el @param {string[]} _parts
 */
export function mount(el, _parts) {
  let gone = false;
  const out = h("div", { class: "admin-report-out", "aria-live": "polite" });
  const tableSelect = h("select", { name: "table", "data-testid": "report-filter-table" }, h("option", { value: "" }, t("admin_all_tables")));
  const from = h("input", { type: "date", name: "from", value: filters.from, "data-testid": "report-filter-from" });
  const to = h("input", { type: "date", name: "to", value: filters.to, "data-testid": "report-filter-to" });
  const csvButton = h("button", { type: "button", "data-testid": "report-csv", onclick: () => downloadCsv().catch((e) => replace(out, h("p", { class: "error", role: "alert" }, explain(e)))) }, t("admin_csv"));

  async function show() {
    filters.table = /** @type {HTMLSelectElement} */ (tableSelect).value;
    filters.from = /** @type {HTMLInputElement} */ (from).value;
    filters.to = /** @type {HTMLInputElement} */ (to).value;
    replace(out, h("p", { class: "muted" }, t("loading")));
    try {
      const report = await api(`/api/admin/reports${reportQuery(filters)}`);
      if (gone) return;
      replace(
        out,
        reportTable(report),
        h("p", { class: "muted small" }, t("admin_owed_note", { owed: money(report.total.commission_owed) })),
        h("p", { class: "muted small" }, t("admin_report_note")),
      );
    } catch (error) {
      if (!gone) replace(out, h("p", { class: "error", role: "alert", "data-testid": "report-error" }, explain(error)));
    }
  }

  const form = h(
    "form",
    { class: "admin-filters", onsubmit: (/** @type {Event} */ e) => (e.preventDefault(), show()) },
    field("admin_table", tableSelect),
    field("admin_from", from),
    field("admin_to", to),
    h("button", { type: "submit", class: "primary", "data-testid": "report-show" }, t("admin_show")),
    csvButton,
  );
  replace(el, h("div", { class: "admin-head" }, h("h2", {}, t("admin_reports"))), form, out);
  api("/api/tables")
    .then((lobby) => {
      for (const table of lobby.tables) tableSelect.append(h("option", { value: table.id, selected: table.id === filters.table }, `${table.name} (${table.id})`));
    })
    .catch(() => {})
    .finally(() => {
      if (!gone) show();
    });
  return () => {
    gone = true;
  };
}
