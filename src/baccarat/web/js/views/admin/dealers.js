// @ts-check
// The back office's Dealers section: the dealers with the tables each may run from the console,
// a new dealer with their own credentials, the tables reassigned, suspension; each change audited.

import { api } from "../../api.js";
import { h, replace, toast } from "../../dom.js";
import { t } from "../../i18n.js";
import { explain } from "../../refusals.js";
import { stateBadge, suspension } from "./players.js";
import "./people_texts.js";

/** The nav's text key of this section. */
export const title = "staff_dealers";

/** Checkboxes of the tables, the given ones ticked. @param {{id: string, name: string}[]} tables @param {string[]} ticked @param {string} who */
function tableChoice(tables, ticked, who) {
  return h(
    "fieldset",
    { class: "staff-tables" },
    h("legend", {}, t("staff_tables")),
    ...tables.map((table) =>
      h("label", {}, h("input", { type: "checkbox", value: table.id, checked: ticked.includes(table.id), "data-testid": `assign-${who}-${table.id}` }), ` ${table.name}`),
    ),
  );
}

/** @param {HTMLElement} box */
function ticked(box) {
  return [...box.querySelectorAll("input[type=checkbox]:checked")].map((input) => /** @type {HTMLInputElement} */ (input).value);
}

/** Show the dealers in `el`. @param {HTMLElement} el @param {string[]} _parts */
export function mount(el, _parts) {
  let gone = false;
  /** @type {{id: string, name: string, dealing: string}[]} */
  let tables = [];
  const list = h("div", { class: "staff-list", "data-testid": "dealers-table" });
  const name = /** @type {HTMLInputElement} */ (h("input", { required: true, minlength: "3", maxlength: "32", pattern: "[A-Za-z0-9_.\\-]+", autocomplete: "off", "data-testid": "dealer-name" }));
  const password = /** @type {HTMLInputElement} */ (h("input", { type: "password", required: true, minlength: "8", maxlength: "128", autocomplete: "new-password", "data-testid": "dealer-password" }));
  const form = h("form", { class: "staff-new" });
  replace(el, form, list);

  async function create(/** @type {Event} */ event) {
    event.preventDefault();
    const body = { name: name.value.trim(), password: password.value, tables: ticked(form) };
    try {
      await api("/api/admin/dealers", { method: "POST", body });
      toast(() => t("staff_created", { name: body.name }));
      name.value = "";
      password.value = "";
      load();
    } catch (error) {
      toast(explain(error), "error");
    }
  }

  async function save(/** @type {string} */ who, /** @type {HTMLElement} */ box) {
    try {
      await api(`/api/admin/dealers/${encodeURIComponent(who)}/tables`, { method: "PUT", body: { tables: ticked(box) } });
      toast(() => t("staff_saved", { name: who }));
      load();
    } catch (error) {
      toast(explain(error), "error");
    }
  }

  function draw(/** @type {any[]} */ dealers) {
    const entry = tables.filter((table) => table.dealing === "dealer_entry");
    replace(
      form,
      h("h2", {}, t("staff_new_dealer")),
      h("label", {}, t("staff_name"), name),
      h("label", {}, t("staff_password"), password),
      tableChoice(entry, [], "new"),
      h("button", { type: "submit", class: "primary", "data-testid": "dealer-create" }, t("staff_create")),
    );
    form.onsubmit = create;
    if (!dealers.length) return replace(list, h("p", { class: "muted" }, t("staff_none")));
    replace(
      list,
      ...dealers.map((dealer) => {
        const box = tableChoice(entry, dealer.tables, dealer.name);
        return h(
          "article",
          { class: "staff-dealer", "data-dealer": dealer.name },
          h("h3", {}, dealer.name, " ", stateBadge(dealer.suspended)),
          h("p", { class: "small" }, dealer.tables.length ? dealer.tables.map((/** @type {string} */ id) => h("a", { href: `#/dealer/${encodeURIComponent(id)}` }, `${t("staff_console")} ${id}`)) : t("staff_no_tables")),
          box,
          h("div", { class: "row" }, h("button", { type: "button", "data-testid": `save-${dealer.name}`, onclick: () => save(dealer.name, box) }, t("staff_save_tables")), suspension(dealer, load)),
        );
      }),
    );
  }

  async function load() {
    try {
      const [lobby, found] = await Promise.all([api("/api/tables"), api("/api/admin/dealers")]);
      tables = lobby.tables;
      if (!gone) draw(found.dealers);
    } catch (error) {
      replace(list, h("p", { class: "error", role: "alert" }, explain(error)));
    }
  }

  load();
  return () => {
    gone = true;
  };
}
