// @ts-check
// The logged-in player: the account area in the header and the log-in / register dialog.

import { api, ApiError, setToken, token } from "./api.js";
import { byId, h, replace, toast } from "./dom.js";
import { money } from "./format.js";
import { t, translate } from "./i18n.js";
import { explain } from "./refusals.js";

let user = null;
const listeners = new Set();

/** The logged-in user ({id, name, balance, commission_owed, role}) or null. */
export function currentUser() {
  return user;
}

/** Call fn whenever the user or their balance changes. */
export function onUserChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Replace the user (e.g. with a fresh balance from the server) and redraw. */
export function setUser(value) {
  user = value;
  render();
  for (const fn of listeners) fn(user);
}

/** Fetch /api/me again (after settlement). */
export async function refreshUser() {
  if (!token()) return setUser(null);
  try {
    setUser(await api("/api/me"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setToken(null);
      setUser(null);
    }
  }
}

/** Open the log-in dialog; resolves once logged in or cancelled. */
export function askLogin() {
  const dialog = /** @type {HTMLDialogElement} */ (byId("auth-dialog"));
  byId("auth-error").textContent = "";
  dialog.showModal();
  /** @type {HTMLInputElement} */ (dialog.querySelector("input[name=name]")).focus();
}

async function submit(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const action = event.submitter ? event.submitter.value : "login";
  const data = new FormData(form);
  const body = { name: String(data.get("name")), password: String(data.get("password")) };
  const error = byId("auth-error");
  error.textContent = "";
  try {
    const answer = await api(action === "register" ? "/api/auth/register" : "/api/auth/login", { method: "POST", body });
    setToken(answer.token);
    form.reset();
    /** @type {HTMLDialogElement} */ (byId("auth-dialog")).close();
    setUser(answer.user);
    toast(t("logged_in_as", { name: answer.user.name }));
  } catch (err) {
    error.textContent = explain(err);
  }
}

async function logout() {
  try {
    await api("/api/auth/logout", { method: "POST" });
  } catch {
    // the session may have expired already; forget it either way
  }
  setToken(null);
  setUser(null);
}

/** Draw the account area of the header. */
export function render() {
  const area = document.getElementById("account");
  if (!area) return;
  if (!user) {
    replace(area, h("button", { type: "button", id: "login-button", onclick: askLogin }, t("login"), " / ", t("register")));
    return;
  }
  replace(
    area,
    h("span", { class: "who" }, user.name),
    h(
      "span",
      { class: "balance", id: "balance", "data-testid": "balance", "data-value": user.balance, "aria-label": `${t("balance")} ${money(user.balance)}` },
      h("small", {}, t("balance")),
      " ",
      money(user.balance),
    ),
    user.commission_owed
      ? h("span", { class: "owed", id: "owed", "data-value": user.commission_owed }, h("small", {}, t("commission_owed")), " ", money(user.commission_owed))
      : null,
    h("button", { type: "button", class: "ghost", id: "logout-button", onclick: logout }, t("logout")),
  );
}

/** Wire the dialog and load the user from a stored token. */
export async function initSession() {
  const form = byId("auth-form");
  form.addEventListener("submit", submit);
  byId("auth-cancel").addEventListener("click", () => /** @type {HTMLDialogElement} */ (byId("auth-dialog")).close());
  translate(byId("auth-dialog"));
  render();
  await refreshUser();
}
