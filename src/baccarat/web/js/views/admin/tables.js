// @ts-check
// The back office's Tables section: every table with its settings and state, and the house's actions
// on it (open, close, change the shoe), each audited by the server.

import { api } from "../../api.js";
import { h, replace, toast } from "../../dom.js";
import { money } from "../../format.js";
import { t } from "../../i18n.js";
import { explain } from "../../refusals.js";
import { variantName } from "../../variants.js";
import "./people_texts.js";

/** The nav's text key of this section. */
export const title = "admin_tables";

/** A table setting's text, or the raw value where there is none. @param {string} prefix @param {unknown} value */
function named(prefix, value) {
  const key = `${prefix}_${value}`;
  const text = t(key);
  return text === key ? String(value) : text;
}

function settings(table) {
  const rules = table.rules || {};
  /** @type {[string, string][]} */
  const rows = [
    ["admin_variant", variantName(table.variant)],
    ["admin_dealing", named("admin_dealing", table.dealing)],
    ["admin_decks", table.decks === null || table.decks === undefined ? "–" : String(table.decks)],
    ["admin_limits", `${money(table.min_bet)} – ${money(table.max_bet)}`],
    ["admin_betting_seconds", t("admin_seconds", { n: table.betting_seconds })],
    ["admin_commission", named("admin_commission", rules.commission)],
    ["admin_on_tie", named("admin_on_tie", rules.on_tie)],
  ];
  return h("dl", { class: "admin-settings" }, ...rows.flatMap(([key, value]) => [h("dt", {}, t(key)), h("dd", {}, value)]));
}

function state(table) {
  const shoe = table.shoe ? t("admin_shoe_n", { n: table.shoe.number }) : "–";
  const round = table.round ? `#${table.round.number} · ${named("admin_round", table.round.status)}` : "–";
  return h(
    "div",
    { class: "admin-state" },
    h("span", { class: `admin-badge ${table.open ? "open" : "closed"}`, "data-testid": `table-state-${table.id}` }, t(table.open ? "admin_open" : "admin_closed")),
    table.change_shoe_requested ? h("span", { class: "admin-badge pending" }, t("admin_shoe_change_pending")) : null,
    h("span", { class: "muted small" }, `${t("admin_shoe")}: ${shoe}`),
    h("span", { class: "muted small" }, `${t("admin_round_now")}: ${round}`),
    h("span", { class: "muted small" }, `${t("admin_players")}: ${table.players}`),
  );
}

/**
 * Show the tables in `el`.
 * @param {HTMLElement} el @param {string[]} _parts
 */
export function mount(el, _parts) {
  let gone = false;

  async function act(table, action) {
    try {
      await api(`/api/admin/tables/${encodeURIComponent(table.id)}/${action}`, { method: "POST" });
      toast(() => t(`admin_done_${action.replace("-", "_")}`, { table: table.name }));
    } catch (error) {
      toast(explain(error), "error");
    }
    await load();
  }

  /** The form that changes the table's limits and betting time, from the next round (audited). */
  function settingsForm(table) {
    const id = table.id;
    const field = (/** @type {string} */ name, /** @type {string} */ key, /** @type {string} */ value) =>
      h("label", { class: "field" }, t(key), h("input", { name, value, inputmode: "decimal", "data-testid": `setting-${name}-${id}`, size: "8" }));
    const form = h(
      "form",
      { class: "admin-settings-form", "data-testid": `table-settings-${id}` },
      field("min_bet", "staff_min_bet", (table.min_bet / 100).toFixed(2)),
      field("max_bet", "staff_max_bet", (table.max_bet / 100).toFixed(2)),
      field("betting_seconds", "staff_betting_seconds", String(table.betting_seconds)),
      h("button", { type: "submit", "data-testid": `table-settings-save-${id}` }, t("staff_save_settings")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = new FormData(/** @type {HTMLFormElement} */ (form));
      const body = {
        min_bet: Math.round(Number(data.get("min_bet")) * 100),
        max_bet: Math.round(Number(data.get("max_bet")) * 100),
        betting_seconds: Number(data.get("betting_seconds")),
      };
      if (Object.values(body).some((v) => !Number.isFinite(v) || v <= 0)) return toast(() => t("staff_settings_invalid"), "error");
      try {
        await api(`/api/admin/tables/${encodeURIComponent(id)}/settings`, { method: "PUT", body });
        toast(() => t("staff_settings_saved", { table: table.name }));
      } catch (error) {
        toast(explain(error), "error");
      }
      await load();
    });
    return form;
  }

  function card(table) {
    const id = table.id;
    const button = (action, key, testid, disabled) =>
      h("button", { type: "button", "data-testid": testid, disabled, onclick: () => act(table, action) }, t(key));
    return h(
      "article",
      { class: "admin-table", "data-testid": `admin-table-${id}` },
      h("header", {}, h("h3", {}, table.name, " ", h("span", { class: "muted small mono" }, id)), state(table)),
      settings(table),
      settingsForm(table),
      h(
        "div",
        { class: "row admin-actions" },
        button("open", "admin_open_table", `table-open-${id}`, table.open),
        button("close", "admin_close_table", `table-close-${id}`, !table.open),
        table.dealing === "dealer_entry" ? null : button("change-shoe", "admin_change_shoe", `table-change-shoe-${id}`, table.change_shoe_requested),
      ),
    );
  }

  async function load() {
    try {
      const lobby = await api("/api/tables");
      if (gone) return;
      replace(
        el,
        h("div", { class: "admin-head" }, h("h2", {}, t("admin_tables")), h("button", { type: "button", class: "ghost", onclick: load }, t("admin_refresh"))),
        h("div", { class: "admin-tables", "data-testid": "admin-tables" }, ...lobby.tables.map(card)),
      );
    } catch (error) {
      if (!gone) replace(el, h("p", { class: "error", role: "alert" }, t("admin_failed", { reason: explain(error) })));
    }
  }

  replace(el, h("p", { class: "muted" }, t("loading")));
  load();
  return () => {
    gone = true;
  };
}
