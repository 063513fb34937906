"""The casino floor end to end: the admin creates a dealer; the dealer logs in to the console of a
dealer-paced table (R18) and deals three coups card by card — a card refused with its reason, the
last card corrected before the next —, a player bets from another browser; each result settles
the player's bet exactly; a player and a dealer of another table are refused the console.
Screenshots of the console in three languages and at tablet and phone widths."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import new_context, watched_page

from baccarat.server.game import coup_from_cards, settle_round_bets

pytestmark = pytest.mark.browser

LIVE = "web-live"
COUPS = [
    ["5S", "3H", "KD", "2C"],  # KD is corrected to 4D: Player 9, a natural (Player wins)
    ["2S", "9H", "3D", "KC"],  # Banker 9, a natural
    ["5S", "3H", "KD", "2C", "4S", "7D"],  # Player 5 draws a 4, Banker 5 draws on it: Player 9, Banker 2
]


def _post(server: Any, path: str, token: str, body: Any = None) -> Any:
    answer = server.post(path, token, body)
    assert answer.status_code < 300, answer.text
    return answer.json()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Callable[..., Any]]:
    """Opens pages, each in a context of its own (a locale, a viewport, logged in with a token),
    closed after the test."""
    contexts: list[Any] = []

    def page(locale: str, width: int, height: int, token: str | None = None) -> Any:
        context = new_context(chromium, token=token, locale=locale, viewport={"width": width, "height": height})
        contexts.append(context)
        return watched_page(context)

    yield page
    for context in contexts:
        context.close()


@pytest.fixture
def dealer(server: Any) -> Iterator[tuple[str, str]]:
    """A dealer of the live table, made by the admin over the API (name, password)."""
    name = f"dealer{secrets.token_hex(5)}"
    _post(
        server,
        "/api/admin/dealers",
        server.admin_token(),
        {"name": name, "password": "dealer-pass-1", "tables": [LIVE]},
    )
    yield name, "dealer-pass-1"


def _deal(page: Any, cards: list[str], *, correct: tuple[int, str] | None = None) -> None:
    """Tap each card as its position comes due; after card ``correct[0]`` correct it to ``correct[1]``."""
    for index, code in enumerate(cards):
        page.wait_for_selector("section.dealer[data-next=enter_card]")
        due = page.get_attribute("[data-testid=due]", "data-due")
        page.click(f"[data-testid=card-{code}]")
        page.wait_for_function(
            f"() => document.querySelector('[data-testid=due]').dataset.due !== {due!r}"
            " || document.querySelector('section.dealer').dataset.next !== 'enter_card'"
        )
        if correct and correct[0] == index:
            page.click("[data-testid=correct]")
            assert page.get_attribute("[data-testid=due]", "data-correcting") == "true"
            page.click(f"[data-testid=card-{correct[1]}]")
            page.wait_for_selector(f"figure[data-position={due}] .card[data-card='{correct[1]}']")


def test_a_dealer_deals_three_coups_from_the_console(
    browser: Callable[..., Any], server: Any, dealer: tuple[str, str], artifacts: Path
) -> None:
    _, token = server.register("floor")
    _post(server, f"/api/tables/{LIVE}/join", token, {"buy_in": 100000})
    player = browser("zh-TW", 1280, 900, token)
    player.goto(f"{server.url}/#/table/{LIVE}")
    player.wait_for_selector("#conn[data-state=open]")

    console = browser("zh-TW", 1180, 820)  # a tablet, landscape
    console.goto(f"{server.url}/#/dealer/{LIVE}")
    console.wait_for_selector("[data-testid=dealer-refused]")
    console.click(".dealer-gate + button")
    console.fill("[data-testid=login-name]", dealer[0])
    console.fill("[data-testid=login-password]", dealer[1])
    console.click("[data-testid=login-submit]")
    # start the shoe: shuffled and cut at the table, then burned by method (b), the turned card entered (R4)
    console.wait_for_selector("section.dealer[data-next=new_shoe]")
    console.click("[data-testid=new-shoe]")
    console.wait_for_selector("section.dealer[data-next=burn]")
    console.click("[data-testid=card-7S]")
    console.wait_for_selector("section.dealer[data-next=open_betting]")
    assert "7S" in console.inner_text("[data-testid=dealer-notice]")

    board = browser("zh-TW", 1920, 1080)  # the road display board beside the table: no log-in
    board.goto(f"{server.url}/#/display/{LIVE}")
    board.wait_for_selector("[data-testid=board-big-road]")

    rounds: list[int] = []
    for number, cards in enumerate(COUPS):
        console.click("[data-testid=open-betting]")
        console.wait_for_selector("section.dealer[data-phase=betting]")
        if number == 0:  # a card before betting closes is refused, with the reason, and changes nothing
            console.fill("[data-testid=card-input]", "AS")
            console.press("[data-testid=card-input]", "Enter")
            console.wait_for_selector("[data-testid=dealer-notice][data-kind=error]")
            assert "現在沒有在發牌" in console.inner_text("[data-testid=dealer-notice]")
            console.fill("[data-testid=card-input]", "ZZ")
            console.press("[data-testid=card-input]", "Enter")
            assert "不明的牌 ZZ" in console.inner_text("[data-testid=dealer-notice]")
        player.wait_for_selector("#phase[data-status=betting]")
        player.click("[data-testid=chip-1000]")
        player.click("[data-testid=spot-banker]")
        player.click("[data-testid=confirm]")
        player.wait_for_selector("[data-testid=spot-banker] .stack.confirmed[data-confirmed='1000']")
        console.wait_for_selector("#dealer-totals dd[data-bet=banker]")
        round_id = int(console.get_attribute(".dealer-status li[data-round]", "data-round"))
        rounds.append(round_id)
        console.click("[data-testid=close-betting]")
        console.wait_for_selector("section.dealer[data-next=enter_card]")
        assert console.get_attribute("[data-testid=due]", "data-due") == "player_1"
        if number == 0:
            _deal(console, cards[:3], correct=(2, "4D"))
            console.screenshot(path=str(artifacts / "dealer-console-zh-Hant.png"), full_page=True)
            _deal(console, cards[3:-1])
        elif number == 2:
            _deal(console, cards[:4])
            assert console.get_attribute("[data-testid=due]", "data-due") == "player_3"
            assert "閒家 5 點補牌" in console.inner_text("#dealer-reasons")
            console.select_option("[data-testid=lang]", "en")
            assert "Player 5 draws" in console.inner_text("#dealer-reasons")
            console.screenshot(path=str(artifacts / "dealer-console-en.png"), full_page=True)
            console.select_option("[data-testid=lang]", "zh-Hans")
            _deal(console, cards[4:-1])
        else:
            _deal(console, cards[:-1])
        console.wait_for_selector("section.dealer[data-next=enter_card]")
        console.click(f"[data-testid=card-{cards[-1]}]")
        dealt = time.monotonic()  # the coup's last card: the board shows the result within a second
        board.wait_for_selector(f"[data-testid=board-last-result][data-round='{round_id}']")
        assert time.monotonic() - dealt < 1.0, "the display board showed the result within a second"
        console.wait_for_selector("section.dealer[data-next=open_betting]")

    history = server.get("/api/me/history?limit=10", token)
    mine = {r["round_id"]: r for r in history["rounds"]}
    returned = 0
    for round_id, cards in zip(rounds, [["5S", "3H", "4D", "2C"], *COUPS[1:]], strict=True):
        entry = mine[round_id]
        assert entry["result"]["cards"] == cards
        expected = settle_round_bets(
            coup_from_cards(cards), [(b["id"], b["bet"], b["stake"]) for b in entry["bets"]], variant="macau"
        )
        assert [s.returned for s in expected] == [b["returned"] for b in entry["bets"]]
        returned += sum(s.returned for s in expected)
    me = server.get(f"/api/tables/{LIVE}/me", token)
    assert me["balance"] == 100000 - 3 * 1000 + returned
    # the report's GGR for the table today is the players' net loss in the ledger (one player here)
    boss = server.admin_token()
    report = server.get(f"/api/admin/reports?table={LIVE}", boss)
    wallet = server.get("/api/me", token)["balance"]
    assert report["total"]["ggr"] == 100000 - wallet == 3 * 1000 - returned
    assert report["total"]["handle"] == 3 * 1000
    board.screenshot(path=str(artifacts / "dealer-table-board.png"))
    console.set_viewport_size({"width": 390, "height": 844})
    assert console.evaluate("document.documentElement.scrollWidth") <= 400, "the console fits a phone's width"
    console.screenshot(path=str(artifacts / "dealer-console-zh-Hans-phone.png"), full_page=True)
    audit = server.get(f"/api/admin/audit?table={LIVE}&limit=200", boss)
    mine_actions = {e["action"] for e in audit["entries"] if e["actor"] == dealer[0]}
    assert {"table.open_betting", "table.close_betting", "table.card", "table.correct_card"} <= mine_actions
    refused = [e for e in console.errors if e.startswith("Failed to load resource") and "(Conflict)" in e]
    assert len(refused) == 1, "the card entered during betting, refused by the server"
    assert [e for e in console.errors if e not in refused] == [] and player.errors == []


def test_the_console_refuses_a_player_and_a_dealer_of_another_table(browser: Callable[..., Any], server: Any) -> None:
    _, token = server.register("nodeal")
    page = browser("en", 1180, 820, token)
    page.goto(f"{server.url}/#/dealer/{LIVE}")
    page.wait_for_selector("[data-testid=dealer-refused]")
    assert "needs the dealer or admin role" in page.inner_text("[data-testid=dealer-refused]")
    other = f"other{secrets.token_hex(5)}"
    _post(
        server,
        "/api/admin/dealers",
        server.admin_token(),
        {"name": other, "password": "dealer-pass-2", "tables": ["web-macau"]},
    )
    login = server.post("/api/auth/login", body={"name": other, "password": "dealer-pass-2"}).json()
    page = browser("en", 1180, 820, str(login["token"]))
    page.goto(f"{server.url}/#/dealer/{LIVE}")
    page.wait_for_selector("[data-testid=dealer-notice][data-kind=error]")
    assert f"Dealer {other} is not assigned to table {LIVE}" in page.inner_text("[data-testid=dealer-notice]")
