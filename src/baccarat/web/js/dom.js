// @ts-check
// Small helpers to build elements without innerHTML (so no text is ever parsed as markup).

/** An element: h("div", {class: "x", onclick: fn, "aria-label": "…"}, child, "text", …). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

/** An SVG element with attributes. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** The element with this id (the page's fixed parts: a missing one is a bug). @param {string} id @returns {HTMLElement} */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}`);
  return el;
}

/** @type {{timer: number, text: (() => string)|null}} */
const shown = { timer: 0, text: null };

/**
 * Show a short message in the status area. `message` may be a function that writes it in the page's
 * language: the message is then written again when the language changes (retranslateToast).
 * @param {string|(() => string)} message @param {string} [kind]
 */
export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  if (!box) return;
  shown.text = typeof message === "function" ? message : null;
  box.textContent = typeof message === "function" ? message() : message;
  box.dataset.kind = kind;
  box.classList.add("show");
  clearTimeout(shown.timer);
  shown.timer = window.setTimeout(() => {
    box.classList.remove("show");
    shown.text = null;
  }, 4000);
}

/** Write the message on screen again in the page's language (after a language switch). */
export function retranslateToast() {
  const box = document.getElementById("toast");
  if (box && shown.text && box.classList.contains("show")) box.textContent = shown.text();
}
