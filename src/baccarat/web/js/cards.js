// Cards on the table: dealt face down in the order of the coup, then revealed, or squeezed (咪牌).

import { h } from "./dom.js";
import { card } from "./format.js";
import { t } from "./i18n.js";

const STEP_MS = 260;
const AUTO_REVEAL_MS = 9000;

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

/** Let the player peel a card by dragging (or reveal it with Enter / Space); resolves when it is up. */
function squeeze(el) {
  return new Promise((resolve) => {
    el.classList.add("squeezing");
    el.tabIndex = 0;
    el.setAttribute("aria-label", t("squeeze_help"));
    let start = null;
    const done = () => {
      if (el.classList.contains("up")) return;
      reveal(el);
      resolve();
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
      if (!el.classList.contains("up")) el.style.setProperty("--peel", "0");
    });
    el.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        done();
      }
    });
    setTimeout(done, AUTO_REVEAL_MS);
  });
}

/** Which side each card of the coup goes to, in deal order (P B P B, then the third cards). */
export function sidesInDealOrder(result) {
  const sides = ["player", "banker", "player", "banker"];
  if (result.player.cards.length === 3) sides.push("player");
  if (result.banker.cards.length === 3) sides.push("banker");
  return sides;
}

/**
 * Deal a coup's cards into the two hands with animation; the sides in `squeezed` wait for the
 * player to peel them. Resolves once every card is face up.
 */
export async function dealCoup(hands, result, { squeezed = new Set(), animate = true } = {}) {
  hands.player.replaceChildren();
  hands.banker.replaceChildren();
  const counts = { player: 0, banker: 0 };
  const order = sidesInDealOrder(result);
  const pending = [];
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
    if (squeezed.has(side)) pending.push(squeeze(el));
    else reveal(el);
  }
  await Promise.all(pending);
}
