// @ts-check
// The page: language switch, session, and the views behind #/ (lobby), #/table/ID, #/fairness/ID, #/lab,
// the dealer's console #/dealer/ID, the road display board #/display/ID and the back office #/admin.

import { byId, h, replace, retranslateToast } from "./dom.js";
import { lang, setLang, t, translate, onLangChange } from "./i18n.js";
import { initSession, render as renderAccount } from "./session.js";
import { mountAdmin } from "./views/admin.js";
import { mountDealer } from "./views/dealer.js";
import { mountDisplay } from "./views/display.js";
import { mountFairness } from "./views/fairness.js";
import { mountLab } from "./views/lab.js";
import { mountLimits } from "./views/limits.js";
import { mountLobby } from "./views/lobby.js";
import { mountTable } from "./views/table.js";

let leave = null;

function route() {
  const view = byId("view");
  if (leave) leave();
  leave = null;
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const [page, arg] = parts;
  let section = "lobby";
  if (!page) leave = mountLobby(view);
  else if (page === "table" && arg) {
    section = "table";
    leave = mountTable(view, arg);
  } else if (page === "fairness") {
    section = "fairness";
    leave = mountFairness(view, arg || "");
  } else if (page === "lab") {
    section = "lab";
    leave = mountLab(view);
  } else if (page === "dealer" && arg) {
    section = "dealer";
    leave = mountDealer(view, arg);
  } else if (page === "display" && arg) {
    section = "display";
    leave = mountDisplay(view, arg);
  } else if (page === "limits") {
    section = "safer_play";
    leave = mountLimits(view);
  } else if (page === "admin") {
    section = "admin";
    leave = mountAdmin(view, parts.slice(1));
  } else {
    replace(view, h("h1", {}, t("not_found")), h("a", { href: "#/" }, t("back_to_lobby")));
  }
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (/** @type {HTMLElement} */ (link).dataset.nav === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.title = `${t(section === "table" ? "lobby" : section)} · 百家樂 Baccarat`;
}

function start() {
  const switcher = /** @type {HTMLSelectElement} */ (document.getElementById("lang-switch"));
  switcher.value = lang();
  switcher.addEventListener("change", () => setLang(switcher.value));
  onLangChange(() => {
    switcher.value = lang();
    renderAccount();
    retranslateToast();
  });
  translate();
  initSession();
  window.addEventListener("hashchange", route);
  route();
}

start();
