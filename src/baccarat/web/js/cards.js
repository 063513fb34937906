// Cards on the table: dealt in the order of the coup and revealed, or, when the server names this player
// as a side's squeezer, left face down for them to peel (咪牌) until the server turns them. A face has
// corner indices and pips as a real card has; small cards show the rank and suit alone.

import { h } from "./dom.js";
import { card } from "./format.js";
import { t } from "./i18n.js";
import { pipsOf } from "./pips.js";

const STEP_MS = 260;

function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The children of a card's face: corner indices, pips (or a court card's frame) and the plain centre. @param {string} code */
function faceOf(code) {
  const face = card(code);
  const index = (/** @type {string} */ corner) => h("span", { class: `index ${corner}` }, h("b", {}, face.rank), h("i", {}, face.suit));
  const pips = pipsOf(face.rank);
  const field = pips.length
    ? h("span", { class: `pips${pips.length === 1 ? " ace" : ""}` }, ...pips.map(([x, y]) => pip(face.suit, x, y)))
    : h("span", { class: "court" }, h("b", {}, face.rank), h("i", {}, face.suit));
  return [index("tl"), field, h("span", { class: "rank" }, face.rank), h("span", { class: "suit" }, face.suit), index("br")];
}

/** @param {string} suit @param {number} x @param {number} y */
function pip(suit, x, y) {
  const el = h("span", { class: `pip${y > 50 ? " down" : ""}` }, suit);
  el.style.setProperty("--x", `${x}%`);
  el.style.setProperty("--y", `${y}%`);
  return el;
}

/** Draw `code` on a card element's face (without turning it). @param {HTMLElement} el @param {string} code */
function dress(el, code) {
  el.dataset.card = code;
  el.classList.remove("hidden");
  el.classList.toggle("red", card(code).red);
  el.querySelector(".face")?.replaceChildren(...faceOf(code));
}

/** A card element (face down until revealed). */
export function cardElement(code, { up = false } = {}) {
  const el = h(
    "div",
    { class: `card${up ? " up" : ""}`, role: "img", "aria-label": up ? card(code).spoken : t("face_down") },
    h("div", { class: "face", "aria-hidden": "true" }),
    h("div", { class: "back", "aria-hidden": "true" }),
  );
  dress(el, code);
  return el;
}

function reveal(el, { flip = true } = {}) {
  el.classList.add("up");
  if (flip) el.classList.add("flip");
  el.classList.remove("squeezing", "peeled", "peeling");
  el.style.removeProperty("--peel");
  el.removeAttribute("tabindex");
  el.setAttribute("aria-label", card(el.dataset.card).spoken);
}

/** A card the server holds face down (its code unknown to the page until it is turned, or peeked). */
export function hiddenCard() {
  return h(
    "div",
    { class: "card hidden", role: "img", "aria-label": t("face_down") },
    h("div", { class: "face", "aria-hidden": "true" }),
    h("div", { class: "back", "aria-hidden": "true" }),
  );
}

/** Turn a card element face up as `code` (a card the server has just revealed). */
export function turnCard(el, code) {
  dress(el, code);
  reveal(el);
}

/**
 * Draw the face of a card this player squeezes (the server tells its squeezer alone), still face down:
 * peeling it then shows the face bit by bit.
 */
export function peek(el, code) {
  if (el.classList.contains("up") || el.dataset.card === code) return;
  dress(el, code);
  el.classList.add("known");
}

const PEELED = 0.75; // a card peeled this far is open
const KEY_STEP = 0.25; // ↑ / ↓ peel a quarter at a time

/**
 * Let the squeezer peel a face-down card by dragging from its edge (or with ↑ / ↓, Enter / Space).
 * A card whose face the page knows shows it from the edge up as it is peeled: the pips come first, the
 * corner indices last. Once peeled far enough it stays open and `onPeeled` runs; the server turns the
 * side's cards once all of them are open.
 */
export function peelable(el, onPeeled) {
  if (el.dataset.peelable) return;
  el.dataset.peelable = "1";
  el.classList.add("squeezing");
  el.tabIndex = 0;
  el.setAttribute("aria-label", t("squeeze_help"));
  let start = null;
  const peeledSoFar = () => Number(el.dataset.peel || 0);
  const set = (value) => {
    if (el.classList.contains("peeled") || !el.classList.contains("squeezing")) return;
    const peel = Math.max(0, Math.min(1, value));
    el.style.setProperty("--peel", (peel >= PEELED ? 1 : peel).toFixed(3));
    el.dataset.peel = peel.toFixed(2);
    if (peel >= PEELED) {
      el.classList.add("peeled");
      onPeeled();
    }
  };
  el.addEventListener("pointerdown", (event) => {
    start = { x: event.clientX, y: event.clientY, peel: peeledSoFar() };
    el.setPointerCapture(event.pointerId);
  });
  el.addEventListener("pointermove", (event) => {
    if (!start) return;
    const distance = Math.hypot(event.clientX - start.x, event.clientY - start.y);
    set(start.peel + distance / el.offsetHeight);
  });
  el.addEventListener("pointerup", () => {
    start = null;
    if (!el.classList.contains("known")) set(0); // nothing to look at: a card unseen falls back
  });
  el.addEventListener("keydown", (event) => {
    const step = { ArrowUp: KEY_STEP, ArrowDown: -KEY_STEP, Enter: 1, " ": 1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    set(step === 1 ? 1 : peeledSoFar() + step);
  });
}

/** Let a peel that the server refused be tried again. */
export function unpeel(el) {
  el.classList.remove("peeled", "peeling");
  el.style.setProperty("--peel", "0");
  el.dataset.peel = "0";
}

/** Which side each card of the coup goes to, in deal order (P B P B, then the third cards). */
export function sidesInDealOrder(result) {
  const sides = ["player", "banker", "player", "banker"];
  if (result.player.cards.length === 3) sides.push("player");
  if (result.banker.cards.length === 3) sides.push("banker");
  return sides;
}

/** Deal a coup's cards into the two hands with animation; resolves once every card is face up. */
export async function dealCoup(hands, result, { animate = true } = {}) {
  hands.player.replaceChildren();
  hands.banker.replaceChildren();
  const counts = { player: 0, banker: 0 };
  const order = sidesInDealOrder(result);
  for (const side of order) {
    const code = result[side].cards[counts[side]];
    counts[side] += 1;
    const el = cardElement(code);
    hands[side].append(el);
    if (!animate) {
      reveal(el, { flip: false });
      continue;
    }
    await wait(STEP_MS);
    reveal(el);
  }
}
