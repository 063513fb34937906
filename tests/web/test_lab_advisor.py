"""The lab's live advisor and oracle in the browser: the advisor follows a live table and shows every
bet's exact EV for the next coup, as POST /api/lab/advise gives it for the cards the table showed,
updated as rounds settle; the oracle run draws its two charts and its figures. In the three
languages, at phone and desktop widths, without console errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import Pit, new_context, watched_page

pytestmark = pytest.mark.browser

TABLE = "web-macau"
LANGS = {"zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "en": "en-US"}
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = new_context(chromium, locale="en-US", viewport={"width": 1280, "height": 900})
    page = watched_page(context)
    yield page
    context.close()


def _figures(page: Any) -> dict[str, float]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#advice tbody tr')].map(
             (row) => [row.dataset.bet, Number(row.querySelector('.ev').textContent)]))"""
    )


#: The cards of the table's stored public messages since its last shoe_started, read in the page.
HISTORY_CARDS = """async (table) => {
  const events = []; let after = 0;
  for (;;) {
    const page = await (await fetch(`/api/tables/${table}/events?after=${after}&limit=200`)).json();
    events.push(...page.events);
    if (page.last === null) break;
    after = page.last;
  }
  const started = events.map((e) => e.type).lastIndexOf('shoe_started');
  return events.slice(started + 1).filter((e) => e.type === 'round_settled').flatMap((e) => e.result.cards);
}"""


def _facts(page: Any) -> tuple[int, int]:
    """The figures received and the cards seen, as the status line says them."""
    status = page.query_selector("#advisor-status")
    return int(status.get_attribute("data-updates")), int(status.get_attribute("data-seen"))


def test_the_advisor_follows_a_live_table_with_each_bets_exact_ev(
    server: Any, page: Any, pit: Pit, artifacts: Path
) -> None:
    pit.play(TABLE)  # a shoe in play with cards seen (and no round of an earlier test's settling meanwhile)
    page.goto(f"{server.url}/#/lab")
    page.wait_for_selector(f"[data-testid=advisor-table] option[value={TABLE}]", state="attached")
    page.select_option("[data-testid=advisor-table]", TABLE)
    page.wait_for_selector("#advisor-status[data-status=live]")
    page.wait_for_selector("#advice tbody tr")
    # the figures on screen are the server's for the cards the table has shown since its shoe started
    # (read again if a round settles between reading the page and reading the table's history)
    for _ in range(5):
        update, seen = _facts(page)
        shown = _figures(page)
        cards = page.evaluate(HISTORY_CARDS, TABLE)
        if len(cards) == seen and _facts(page) == (update, seen):
            break
    else:
        raise AssertionError("the page and the table's history never agreed on the cards seen")
    assert len(shown) == 5  # every bet of the macau variant
    advice = server.post("/api/lab/advise", body={"variant": "macau", "decks": 8, "cards": cards}).json()
    for bet, ev in shown.items():
        assert abs(ev - advice["bets"][bet]["expected_value"]) < 1e-5, bet
    # a round settles: the page moves on by itself
    pit.play(TABLE)
    page.wait_for_function(f"() => Number(document.querySelector('#advisor-status').dataset.updates) > {update}")
    later = _facts(page)
    assert later[1] != seen  # more cards, or a new shoe
    positive = page.query_selector_all("#advice tr.positive")
    assert all(float(row.query_selector(".ev").inner_text()) > 0 for row in positive)
    page.screenshot(path=str(artifacts / "lab-advisor-en.png"), full_page=True)
    assert page.errors == [], page.errors


def test_the_oracle_draws_its_charts_and_figures(server: Any, page: Any) -> None:
    page.goto(f"{server.url}/#/lab")
    page.select_option("#oracle-form select[name=orc_variant]", "ez")
    page.select_option("#oracle-form select[name=orc_decks]", "2")
    page.fill("#oracle-form input[name=orc_shoes]", "4")
    page.fill("#oracle-form input[name=orc_seed]", "7")
    page.click("#oracle-form button[type=submit]")
    page.wait_for_selector("#oracle-figures tbody tr")
    bars = page.query_selector_all("#oracle-gain g[data-bet]")
    lines = page.query_selector_all("#oracle-depth polyline[data-bet]")
    names = [row.get_attribute("data-bet") for row in page.query_selector_all("#oracle-figures tbody tr")]
    assert len(bars) == len(lines) == len(names) == 7 and "dragon7" in names
    expected = server.post("/api/lab/oracle", body={"variant": "ez", "decks": 2, "shoes": 4, "seed": 7}).json()
    assert page.inner_text("#oracle-summary").count(str(expected["coups"])) == 1
    assert page.errors == [], page.errors


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", LANGS)
def test_the_lab_in_every_language_and_width(
    server: Any, chromium: Any, artifacts: Path, language: str, width: str
) -> None:
    w, h = WIDTHS[width]
    context = new_context(chromium, locale=LANGS[language], viewport={"width": w, "height": h})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server.url}/#/lab")
        page.wait_for_selector(f"[data-testid=advisor-table] option[value={TABLE}]", state="attached")
        page.select_option("[data-testid=advisor-table]", TABLE)
        page.wait_for_selector("#advice tbody tr")
        page.fill("#oracle-form input[name=orc_shoes]", "2")
        page.fill("#oracle-form input[name=orc_seed]", "1")
        page.click("#oracle-form button[type=submit]")
        page.wait_for_selector("#oracle-figures tbody tr")
        scroll = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert scroll <= 1, f"the page scrolls sideways by {scroll}px"
        text = page.inner_text("#advisor") + page.inner_text("#oracle")
        if language != "en":
            assert "Live advisor" not in text and "perfect-knowledge" not in text
        page.locator("#advisor").screenshot(path=str(artifacts / f"lab-advisor-{language}-{width}.png"))
        page.locator("#oracle").screenshot(path=str(artifacts / f"lab-oracle-{language}-{width}.png"))
        assert errors == []
    finally:
        context.close()
