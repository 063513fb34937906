// Cards on the table: dealt in the order of the coup and revealed, or, when the server names this player
// as a side's squeezer, left face down for them to peel (咪牌) until the server turns them.

import { h } from "./dom.js";
import { card } from "./format.js";
import { t } from "./i18n.js";

const STEP_MS = 260;

function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A card element (face down until revealed). */
export function cardElement(code, { up = false } = {}) {
  const face = card(code);
  return h(
    "div",
    { class: `card${up ? " up" : ""}${face.red ? " red" : ""}`, "data-card": code, role: "img", "aria-label": up ? face.spoken : t("face_down") },
    h("div", { class: "face", "aria-hidden": "true" }, h("span", { class: "rank" }, face.rank), h("span", { class: "suit" }, face.suit)),
    h("div", { class: "back", "aria-hidden": "true" }),
  );
}

function reveal(el, { flip = true } = {}) {
  el.classList.add("up");
  if (flip) el.classList.add("flip");
  el.classList.remove("squeezing");
  el.style.removeProperty("--peel");
  el.removeAttribute("tabindex");
  el.setAttribute("aria-label", card(el.dataset.card).spoken);
}

/** A card the server holds face down (its code unknown to the page until it is turned). */
export function hiddenCard() {
  return h(
    "div",
    { class: "card hidden", role: "img", "aria-label": t("face_down") },
    h("div", { class: "face", "aria-hidden": "true" }, h("span", { class: "rank" }), h("span", { class: "suit" })),
    h("div", { class: "back", "aria-hidden": "true" }),
  );
}

/** Turn a card element face up as `code` (a card the server has just revealed). */
export function turnCard(el, code) {
  const face = card(code);
  el.dataset.card = code;
  el.classList.remove("hidden", "squeezing", "peeling");
  el.classList.toggle("red", face.red);
  el.querySelector(".rank").textContent = face.rank;
  el.querySelector(".suit").textContent = face.suit;
  reveal(el);
}

/**
 * Let the squeezer peel a face-down card by dragging its corner (or with Enter / Space); `onPeeled`
 * runs once when the card is peeled far enough, and the server then turns the side's cards.
 */
export function peelable(el, onPeeled) {
  if (el.dataset.peelable) return;
  el.dataset.peelable = "1";
  el.classList.add("squeezing");
  el.tabIndex = 0;
  el.setAttribute("aria-label", t("squeeze_help"));
  let start = null;
  const done = () => {
    if (el.classList.contains("peeling") || !el.classList.contains("squeezing")) return;
    el.classList.add("peeling");
    onPeeled();
  };
  el.addEventListener("pointerdown", (event) => {
    start = { x: event.clientX, y: event.clientY };
    el.setPointerCapture(event.pointerId);
  });
  el.addEventListener("pointermove", (event) => {
    if (!start) return;
    const distance = Math.hypot(event.clientX - start.x, event.clientY - start.y);
    const peel = Math.min(1, distance / el.offsetHeight);
    el.style.setProperty("--peel", peel.toFixed(3));
    if (peel >= 0.75) done();
  });
  el.addEventListener("pointerup", () => {
    start = null;
    if (!el.classList.contains("peeling")) el.style.setProperty("--peel", "0");
  });
  el.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      done();
    }
  });
}

/** Let a peel that the server refused be tried again. */
export function unpeel(el) {
  el.classList.remove("peeling");
  el.style.setProperty("--peel", "0");
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
