"""Cards as the live hands show them: corner indices and as many pips as the rank (A–10), a framed
court card (J, Q, K), the third card turned sideways; at desktop and phone widths. No console errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import new_context, watched_page

pytestmark = pytest.mark.browser

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
#: Deals every rank into live hands of three cards (the page's own card module), hearts and spades.
DEAL_ALL = """async (ranks) => {
  const { cardElement } = await import("/js/cards.js");
  const felt = document.createElement("div");
  felt.id = "card-gallery";
  felt.className = "felt";
  for (const [i, suit] of ["H", "S", "D", "C"].entries()) {
    for (let start = 0; start < ranks.length; start += 3) {
      const hand = document.createElement("div");
      hand.className = "hand-cards full";
      for (const rank of ranks.slice(start, start + 3)) hand.append(cardElement(rank + suit, { up: true }));
      if (i < 2 || start === 0) felt.append(hand);
    }
  }
  document.querySelector("main").replaceChildren(felt);
}"""


#: Whether every animation of the page (the cards' deal) has finished.
ANIMATIONS_DONE = "() => document.getAnimations().every((a) => a.playState === 'finished' || a.playState === 'idle')"


@pytest.mark.parametrize("width", [1280, 390])
def test_cards_have_corner_indices_and_pips_and_the_third_card_lies_sideways(
    chromium: Any, server: Any, artifacts: Path, width: int
) -> None:
    context = new_context(chromium, locale="zh-TW", viewport={"width": width, "height": 900})
    try:
        page = watched_page(context)
        page.goto(f"{server.url}/#/lab")
        page.wait_for_selector("main h1")
        page.evaluate(DEAL_ALL, RANKS)
        faces = page.eval_on_selector_all(
            "#card-gallery .card",
            """cards => cards.map(c => ({
              card: c.dataset.card,
              pips: c.querySelectorAll(".pip").length,
              court: Boolean(c.querySelector(".court")),
              corners: [...c.querySelectorAll(".index")].filter(i => getComputedStyle(i).display !== "none").length,
              rotate: getComputedStyle(c).rotate,
              third: c === c.parentElement.children[2],
            }))""",
        )
        assert len(faces) == 13 * 2 + 3 * 2
        for face in faces:
            rank = face["card"][:-1]
            value = {"A": 1, "T": 10}.get(rank, int(rank) if rank.isdigit() else 0)
            assert face["pips"] == value and face["court"] == (value == 0), face
            assert face["corners"] == 2, face
            assert (face["rotate"] == "90deg") == face["third"], face
        page.wait_for_function(ANIMATIONS_DONE)  # the deal animation
        page.screenshot(path=str(artifacts / f"cards-{width}.png"), full_page=True)
        assert page.errors == []
    finally:
        context.close()
