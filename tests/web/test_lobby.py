"""The lobby as players pick a table: each card shows the seconds of betting left (counting down), the
shoe's Banker / Player / Tie counts as the server counts them, the good roads the big road ends with
now (the server's patterns), a bead plate and a Big Road; a closed table says so and offers no seat.
In 繁體中文, 简体中文 and English, at phone and desktop widths, with no sideways scroll and no console errors."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.web.conftest import watched_page

pytestmark = pytest.mark.browser

SLOW = "web-slow"  # 20 s of betting: a countdown to watch
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
    """What the card shows and what the server says, once they agree (rounds go on meanwhile)."""
    deadline = time.monotonic() + 20
    while True:
        view = server.get(f"/api/tables/{table}")
        shown = page.eval_on_selector(CARD.format(table), SHOWN)
        stats = view["stats"]
        wanted = {"banker": stats["banker"], "player": stats["player"], "tie": stats["tie"]}
        if {k: shown["counts"].get(k) for k in wanted} == wanted and shown["alerts"] == _current_patterns(view):
            return shown, view
        assert time.monotonic() < deadline, (shown, wanted, _current_patterns(view))
        time.sleep(0.3)


def test_lobby_cards_show_the_countdown_counts_good_roads_and_bead_plate(
    chromium: Any, server: Any, artifacts: Path
) -> None:
    context = chromium.new_context(locale="zh-TW", viewport={"width": 1280, "height": 900})
    try:
        page = watched_page(context)
        page.goto(f"{server.url}/#/")
        page.wait_for_selector(f"{CARD.format(MACAU)} .thumb-bead svg", timeout=20_000)
        # a round settles while we watch: the counts follow the server's
        first = server.get(f"/api/tables/{MACAU}")["stats"]["coups"]
        deadline = time.monotonic() + 30
        while server.get(f"/api/tables/{MACAU}")["stats"]["coups"] == first:
            assert time.monotonic() < deadline, "no round settled"
            time.sleep(0.3)
        shown, view = _agrees(page, server, MACAU)
        # the bead plate's last six columns of six
        coups = len(view["roads"]["results"])
        assert shown["beads"] == coups - 6 * max(0, -(-coups // 6) - 6)
        assert shown["rings"]
        # the countdown of a table open for bets, counting down
        selector = f"{CARD.format(SLOW)}[data-status=betting] [data-testid=lobby-countdown]"
        page.wait_for_function(
            "(s) => Number(document.querySelector(s)?.dataset.seconds) >= 6", arg=selector, timeout=40_000
        )
        countdown = page.locator(selector)
        before, text = countdown.evaluate("el => [Number(el.dataset.seconds), el.textContent]")
        assert text == f"剩餘 {before} 秒"
        page.wait_for_timeout(2100)
        after = int(countdown.get_attribute("data-seconds") or 0)
        assert before - 3 <= after <= before - 1, (before, after)
        # a closed table says so and offers no seat
        admin = {"Authorization": f"Bearer {server.admin_token()}"}
        answer = httpx.post(f"{server.url}/api/admin/tables/{CLOSED}/close", headers=admin, timeout=10)
        assert answer.status_code in (200, 409), answer.text  # 409: closed already
        page.wait_for_selector(f"{CARD.format(CLOSED)}.closed")
        closed = page.locator(CARD.format(CLOSED))
        assert "關閉" in closed.inner_text()
        assert closed.locator("a.button").count() == 0
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_lobby_in_each_language_and_width(
    chromium: Any, server: Any, artifacts: Path, lang: str, width: int
) -> None:
    context = chromium.new_context(locale="zh-TW", viewport={"width": width, "height": 900})
    try:
        page = watched_page(context)
        page.goto(f"{server.url}/#/")
        page.select_option("[data-testid=lang]", lang)
        page.wait_for_selector(f"{CARD.format(MACAU)} .thumb-bead svg", timeout=20_000)
        _agrees(page, server, MACAU)
        counts = page.inner_text(f"{CARD.format(MACAU)} [data-testid=lobby-counts]")
        assert {"zh-Hant": "莊", "zh-Hans": "庄", "en": "Banker"}[lang] in counts
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(artifacts / f"lobby-{lang}-{width}.png"), full_page=True)
        assert page.errors == []
    finally:
        context.close()


def _banker_wins(server: Any, rounds: int) -> None:
    """Deal Banker naturals at the dealer-entry table, one a round, as its dealer would."""
    admin = {"Authorization": f"Bearer {server.admin_token()}"}
    for _ in range(rounds):
        deadline = time.monotonic() + 20
        while (view := server.get(f"/api/tables/{ROADS}"))["table"]["phase"] != "dealing" or view["table"]["cards"]:
            assert time.monotonic() < deadline, view["table"]
            time.sleep(0.1)
        settled = view["stats"]["coups"] + 1
        for card in BANKER_NATURAL:
            answer = httpx.post(
                f"{server.url}/api/admin/tables/{ROADS}/cards", json={"card": card}, headers=admin, timeout=10
            )
            assert answer.status_code == 200, answer.text
        while server.get(f"/api/tables/{ROADS}")["stats"]["coups"] < settled:
            assert time.monotonic() < deadline, "the round did not settle"
            time.sleep(0.1)


def test_a_banker_dragon_is_a_lobby_badge(chromium: Any, server: Any, artifacts: Path) -> None:
    """Four Banker wins in a row (and more): the card's badge says 長莊 with its length, as the server's patterns say."""
    context = chromium.new_context(locale="zh-TW", viewport={"width": 1280, "height": 900})
    try:
        page = watched_page(context)
        page.goto(f"{server.url}/#/")
        page.wait_for_selector(f"{CARD.format(ROADS)} .thumb", timeout=20_000)
        _banker_wins(server, 4)
        badge = page.wait_for_selector(f"{CARD.format(ROADS)} .lobby-alerts [data-pattern=long_banker]", timeout=10_000)
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
