"""The lobby as players pick a table: each card shows the seconds of betting left (counting down), the
shoe's Banker / Player / Tie counts as the server counts them, the good roads the big road ends with
now (the server's patterns), a bead plate and a Big Road; a closed table says so and offers no seat.
In 繁體中文, 简体中文 and English, at phone and desktop widths, with no sideways scroll and no console errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import Pit, hold_countdowns, new_context, pause_clock, until, watched_page

pytestmark = pytest.mark.browser

SLOW = "web-slow"  # a countdown to watch, on the page's clock
MACAU = "web-macau"
CLOSED = "web-closed"
ROADS = "web-roads"  # dealer entry: the test deals its cards
#: Player 3 4 = 7 stands, Banker K 9 = a natural 9: Banker wins (in deal order P B P B)
BANKER_NATURAL = ["3S", "KH", "4D", "9C"]
CARD = "li.table-card[data-table={}]"

SHOWN = """(card) => ({
  counts: Object.fromEntries([...card.querySelectorAll('[data-count]')].map(c => [c.dataset.count, Number(c.textContent.replace(/\\D+/g, ''))])),
  alerts: [...card.querySelectorAll('.lobby-alerts [data-pattern]')].map(b => b.dataset.pattern),
  beads: card.querySelectorAll('.thumb-bead .bead').length,
  rings: card.querySelector('.thumb-big svg') !== null,
})"""


def _current_patterns(view: dict[str, Any]) -> list[str]:
    """The server's patterns that end at the big road's last column, longest first."""
    columns = view["roads"]["big_road"]["columns"]
    runs = [p for p in view["stats"]["patterns"] if p["first_column"] + p["columns"] == len(columns)]
    return [p["pattern"] for p in sorted(runs, key=lambda p: -p["coups"])]


def _agrees(page: Any, server: Any, table: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the card shows and what the server says, once they agree (the page follows the server)."""
    failed: list[Any] = []

    def agreeing() -> tuple[dict[str, Any], dict[str, Any]] | None:
        view = server.get(f"/api/tables/{table}")
        shown = page.eval_on_selector(CARD.format(table), SHOWN)
        stats = view["stats"]
        wanted = {"banker": stats["banker"], "player": stats["player"], "tie": stats["tie"]}
        if {k: shown["counts"].get(k) for k in wanted} == wanted and shown["alerts"] == _current_patterns(view):
            return shown, view
        failed[:] = [shown, wanted, _current_patterns(view)]
        return None

    return until(agreeing, f"the lobby card never agreed with the server: {failed}")


def test_lobby_cards_show_the_countdown_counts_good_roads_and_bead_plate(
    chromium: Any, server: Any, pit: Pit, artifacts: Path
) -> None:
    context = new_context(chromium, gate=True, locale="zh-TW", viewport={"width": 1280, "height": 900})
    context.clock.install()
    admin = server.admin_token()
    try:
        page = watched_page(context)
        page.goto(f"{server.url}/#/")
        page.wait_for_selector(f"{CARD.format(MACAU)} .thumb-bead svg")
        # a round settles while we watch: the counts follow the server's
        first = server.get(f"/api/tables/{MACAU}")["stats"]["coups"]
        pit.play(MACAU)
        assert server.get(f"/api/tables/{MACAU}")["stats"]["coups"] != first, "no round settled"
        shown, view = _agrees(page, server, MACAU)
        # the bead plate's last six columns of six
        coups = len(view["roads"]["results"])
        assert shown["beads"] == coups - 6 * max(0, -(-coups // 6) - 6)
        assert shown["rings"]
        # the countdown of a table open for bets, counting down on the page's clock
        pit.betting(SLOW)
        selector = f"{CARD.format(SLOW)}[data-status=betting] [data-testid=lobby-countdown]"
        page.wait_for_function("(s) => Number(document.querySelector(s)?.dataset.seconds) >= 6", arg=selector)
        hold_countdowns(page)
        pause_clock(page)
        countdown = page.locator(selector)
        before, text = countdown.evaluate("el => [Number(el.dataset.seconds), el.textContent]")
        assert text == f"剩餘 {before} 秒"
        page.clock.run_for(2100)
        after = int(countdown.get_attribute("data-seconds") or 0)
        assert before - 3 <= after <= before - 1, (before, after)
        page.clock.resume()
        # a closed table says so and offers no seat
        answer = server.post(f"/api/admin/tables/{CLOSED}/close", admin)
        assert answer.status_code in (200, 409), answer.text  # 409: closed already
        page.wait_for_selector(f"{CARD.format(CLOSED)}.closed")
        closed = page.locator(CARD.format(CLOSED))
        assert "關閉" in closed.inner_text()
        assert closed.locator("a.button").count() == 0
        assert page.errors == []
    finally:
        context.close()
        server.post(f"/api/admin/tables/{CLOSED}/open", admin)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_lobby_in_each_language_and_width(
    chromium: Any, server: Any, artifacts: Path, lang: str, width: int
) -> None:
    context = new_context(chromium, locale="zh-TW", viewport={"width": width, "height": 900})
    try:
        page = watched_page(context)
        page.goto(f"{server.url}/#/")
        page.select_option("[data-testid=lang]", lang)
        page.wait_for_selector(f"{CARD.format(MACAU)} .thumb-bead svg")
        _agrees(page, server, MACAU)
        counts = page.inner_text(f"{CARD.format(MACAU)} [data-testid=lobby-counts]")
        assert {"zh-Hant": "莊", "zh-Hans": "庄", "en": "Banker"}[lang] in counts
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(artifacts / f"lobby-{lang}-{width}.png"), full_page=True)
        assert page.errors == []
    finally:
        context.close()


def _banker_wins(server: Any, pit: Pit, rounds: int) -> None:
    """Deal Banker naturals at the dealer-entry table, one a round, as its dealer would."""
    admin = server.admin_token()
    for _ in range(rounds):
        settled = server.get(f"/api/tables/{ROADS}")["stats"]["coups"] + 1
        pit.open(ROADS)
        round_id = pit.close(ROADS)
        until(
            lambda: (t := server.get(f"/api/tables/{ROADS}")["table"])["phase"] == "dealing" and not t["cards"],
            "the table did not wait for the cards",
        )
        for card in BANKER_NATURAL:
            answer = server.post(f"/api/admin/tables/{ROADS}/cards", admin, {"card": card})
            assert answer.status_code == 200, answer.text
        assert pit.settled(round_id)["status"] == "settled"
        assert server.get(f"/api/tables/{ROADS}")["stats"]["coups"] >= settled


def test_a_banker_dragon_is_a_lobby_badge(chromium: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    """Four Banker wins in a row (and more): the card's badge says 長莊 with its length, as the server's patterns say."""
    context = new_context(chromium, locale="zh-TW", viewport={"width": 1280, "height": 900})
    try:
        page = watched_page(context)
        page.goto(f"{server.url}/#/")
        page.wait_for_selector(f"{CARD.format(ROADS)} .thumb")
        _banker_wins(server, pit, 4)
        badge = page.wait_for_selector(f"{CARD.format(ROADS)} .lobby-alerts [data-pattern=long_banker]")
        _, view = _agrees(page, server, ROADS)
        run = next(
            p
            for p in view["stats"]["patterns"]
            if p["pattern"] == "long_banker"
            and p["first_column"] + p["columns"] == len(view["roads"]["big_road"]["columns"])
        )
        assert badge.inner_text() == f"長莊（長龍） · {run['coups']} 連"
        page.locator(CARD.format(ROADS)).screenshot(path=str(artifacts / "lobby-badge-zh-Hant.png"))
        page.select_option("[data-testid=lang]", "en")
        assert page.inner_text(f"{CARD.format(ROADS)} .lobby-alerts") == f"Banker dragon · {run['coups']} in a row"
        assert page.errors == []
    finally:
        context.close()
