// @ts-check
// The back office's figures as it writes them (hold %, deviations in σ, theoretical amounts) and the
// query strings of its API calls: pure functions, tested by tests/web_js/admin.test.js.

import { money } from "../../format.js";

/**
 * A hold (GGR / handle) as a percentage with two decimals: 0.01234 → "1.23%"; null → "–".
 * @param {number|null|undefined} hold
 */
export function holdText(hold) {
  if (hold === null || hold === undefined || !Number.isFinite(hold)) return "–";
  return `${(hold * 100).toFixed(2)}%`;
}

/**
 * A difference in standard deviations, signed, two decimals: 1.234 → "+1.23σ", -0.5 → "−0.50σ",
 * a value that rounds to zero → "0.00σ"; null → "–".
 * @param {number|null|undefined} deviation
 */
export function sigmaText(deviation) {
  if (deviation === null || deviation === undefined || !Number.isFinite(deviation)) return "–";
  const text = Math.abs(deviation).toFixed(2);
  if (text === "0.00") return "0.00σ";
  return `${deviation > 0 ? "+" : "−"}${text}σ`;
}

/**
 * How unusual a deviation is: "" within 2σ, "warn" from 2σ, "alert" from 3σ (the row is marked).
 * @param {number|null|undefined} deviation
 */
export function sigmaLevel(deviation) {
  if (deviation === null || deviation === undefined || !Number.isFinite(deviation)) return "";
  const size = Math.abs(deviation);
  return size >= 3 ? "alert" : size >= 2 ? "warn" : "";
}

/**
 * An amount in minor units that may have fractions of a minor unit (the theoretical win, σ),
 * written like money(): 1234.56 → "12.35".
 * @param {number|null|undefined} minor
 */
export function amountText(minor) {
  if (minor === null || minor === undefined || !Number.isFinite(minor)) return "–";
  return money(Math.round(minor));
}

/**
 * The query string of a report's filters (empty ones left out): {table: "a", from: "2026-01-01"} →
 * "?table=a&from=2026-01-01"; none → "".
 * @param {{table?: string, from?: string, to?: string}} filters
 */
export function reportQuery(filters) {
  const params = new URLSearchParams();
  for (const key of ["table", "from", "to"]) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The query string of a page of the audit log.
 * @param {{table?: string, before?: number|null, limit?: number}} page
 */
export function auditQuery(page) {
  const params = new URLSearchParams({ limit: String(page.limit || 20) });
  if (page.before) params.set("before", String(page.before));
  if (page.table) params.set("table", page.table);
  return `?${params}`;
}

/**
 * The CSV file name the server gives in Content-Disposition (`filename="…"`), or a default.
 * @param {string|null} disposition @param {string} fallback
 */
export function fileNameOf(disposition, fallback) {
  const found = /filename="?([^";]+)"?/.exec(disposition || "");
  return found ? found[1] : fallback;
}

/**
 * The section the hash names (#/admin/reports → "reports"), or the first one.
 * @param {string[]} parts @param {string[]} ids
 */
export function sectionOf(parts, ids) {
  const wanted = parts[0] || ids[0];
  return ids.includes(wanted) ? wanted : null;
}
