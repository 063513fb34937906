// @ts-check
// The back office (#/admin/SECTION): for the admin only. A shell with a section nav; each section is
// one module in SECTIONS, loaded when the back office opens, that exports `title` (a text key) and
// `mount(element, parts)` returning a function that leaves it.

import { h, replace } from "../dom.js";
import { onLangChange, t } from "../i18n.js";
import { askLogin, currentUser, onUserChange } from "../session.js";
import { sectionOf } from "./admin/figures.js";
import "./admin_texts.js";

/**
 * @typedef {{title: string, mount: (el: HTMLElement, parts: string[]) => (() => void)}} AdminSectionModule
 * @typedef {{id: string, load: () => Promise<AdminSectionModule>}} AdminSection
 */

/** The sections of the back office, in the nav's order: one line each. @type {AdminSection[]} */
export const SECTIONS = [
  { id: "tables", load: () => import("./admin/tables.js") },
  { id: "reports", load: () => import("./admin/reports.js") },
  { id: "players", load: () => import("./admin/players.js") },
  { id: "dealers", load: () => import("./admin/dealers.js") },
  { id: "audit", load: () => import("./admin/audit.js") },
];

/** The section modules once loaded, by id. @type {Map<string, AdminSectionModule>} */
const loaded = new Map();

async function loadAll() {
  await Promise.all(SECTIONS.filter((s) => !loaded.has(s.id)).map(async (s) => loaded.set(s.id, await s.load())));
}

/** A page for someone who may not use the back office: not logged in, or not an admin. */
function gate(view, user) {
  const message = user ? t("admin_refused", { name: user.name }) : t("admin_login_needed");
  replace(
    view,
    h("h1", {}, t("admin_title")),
    h("p", { class: "admin-gate", role: "alert", "data-testid": "admin-refused" }, message),
    h("button", { type: "button", class: "primary", "data-testid": "admin-login", onclick: askLogin }, t("admin_login")),
  );
}

function nav(current) {
  return h(
    "nav",
    { class: "admin-nav", "aria-label": t("admin_sections") },
    ...SECTIONS.map((s) =>
      h(
        "a",
        { href: `#/admin/${s.id}`, "data-testid": `admin-nav-${s.id}`, "aria-current": s.id === current ? "page" : null },
        t(/** @type {AdminSectionModule} */ (loaded.get(s.id)).title),
      ),
    ),
  );
}

/**
 * Show the back office in `view`; `parts` is the hash path after #/admin.
 * @param {HTMLElement} view @param {string[]} parts
 */
export function mountAdmin(view, parts) {
  let leaveSection = () => {};
  let gone = false;

  async function draw() {
    leaveSection();
    leaveSection = () => {};
    const user = currentUser();
    if (!user || user.role !== "admin") return gate(view, user);
    replace(view, h("p", { class: "muted" }, t("loading")));
    await loadAll();
    if (gone) return;
    const id = sectionOf(parts, SECTIONS.map((s) => s.id));
    const body = h("section", { class: "admin-body", "data-section": id || "" });
    replace(view, h("div", { class: "admin" }, h("h1", {}, t("admin_title")), nav(id), body));
    if (!id) return replace(body, h("p", {}, t("admin_no_section")));
    leaveSection = /** @type {AdminSectionModule} */ (loaded.get(id)).mount(body, parts.slice(1));
  }

  const who = () => {
    const user = currentUser();
    return user ? `${user.id}:${user.role}` : "";
  };
  let drawnFor = who();
  const offUser = onUserChange(() => {
    if (who() === drawnFor) return; // a new balance: the same page
    drawnFor = who();
    draw();
  });
  const offLang = onLangChange(() => draw());
  draw();
  return () => {
    gone = true;
    offUser();
    offLang();
    leaveSection();
  };
}
