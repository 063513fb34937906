"""The browser table's play beyond one plain round: the squeeze (R23) peeled by drag and by keyboard, and
left to the dealer when the time is up; bets over the websocket with REST as the fallback; a refused bet
shown readably in both languages; the buy-in asked when joining; the variant switch (R28). No console
errors anywhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import Pit, new_context, open_in_page, watched_page

pytestmark = pytest.mark.browser

SQUEEZE = "web-squeeze"  # the squeeze time is long: the player peels every card
SQUEEZE_DEALER = "web-squeeze-dealer"  # the squeeze time is short: the dealer turns the cards
MACAU = "web-macau"
NO_COMMISSION = "web-nocomm"

# Lets a test take the page's websocket down (and keep it down) to exercise the REST fallback.
SOCKET_SWITCH = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__blockSockets = false;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      if (window.__blockSockets) {
        const dead = new EventTarget();
        dead.readyState = 3;
        dead.send = () => {};
        dead.close = () => {};
        return dead;
      }
      super(url, protocols);
      window.__sockets.push(this);
    }
  };
})();
"""

# Records every round whose payouts the page showed: on a squeeze table the cards are already turned
# when the round settles, so the result is on screen only for the table's settle pause.
PAYOUTS_RECORDER = """
(() => {
  window.__payoutsShown = [];
  new MutationObserver(() => {
    const result = document.getElementById("result");
    const round = result && result.querySelector("#payouts") ? result.dataset.round : null;
    if (round && !window.__payoutsShown.includes(round)) window.__payoutsShown.push(round);
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-round"] });
})();
"""


@pytest.fixture
def player(chromium: Any, server: Any) -> Iterator[tuple[Any, str, str]]:
    """A page (Traditional Chinese) of a freshly registered player that records console errors."""
    name, token = server.register("w")
    context = new_context(chromium, token=token, gate=True, locale="zh-TW", viewport={"width": 1280, "height": 900})
    context.add_init_script(SOCKET_SWITCH)
    context.add_init_script(PAYOUTS_RECORDER)
    page = watched_page(context)
    yield page, name, token
    context.close()


def _open_table(page: Any, server: Any, table: str) -> None:
    page.goto(f"{server.url}/#/table/{table}")
    page.wait_for_selector("[data-testid=spot-banker]")
    page.wait_for_selector("#conn[data-state=open]")
    page.wait_for_selector("#seat-status[data-seat=none]")


def _sit(page: Any, buy_in: str | None = None) -> str:
    seat = str(page.get_attribute("#seats button.seat[data-state=free]", "data-seat"))
    page.click(f"#seats button.seat[data-seat='{seat}']")
    page.wait_for_selector("#buy-in-dialog[open]")
    if buy_in is not None:
        page.fill("#buy-in-amount", buy_in)
    page.click("#buy-in-confirm")
    page.wait_for_selector(f"#seat-status[data-seat='{seat}']")
    return seat


def _payouts_shown(page: Any, round_id: int) -> None:
    """Wait until the page has shown this player's payouts of the round (however briefly)."""
    page.wait_for_function(f"() => window.__payoutsShown.includes('{round_id}')")


def _bet(page: Any, pit: Pit, table: str, stakes: dict[str, int]) -> int:
    """Open a round's betting, place and confirm bets in it; returns its id."""
    round_id = open_in_page(pit, table, page)
    for bet, stake in stakes.items():
        page.click(f"[data-testid=chip-{stake}]")
        page.click(f"[data-testid=spot-{bet}]")
    page.click("[data-testid=confirm]")
    for bet, stake in stakes.items():
        page.wait_for_selector(f"[data-testid=spot-{bet}] .stack.confirmed[data-confirmed='{stake}']")
    assert _round_id(page) == round_id
    return round_id


def _round_id(page: Any) -> int:
    table = page.evaluate("() => location.hash.split('/').pop()")
    return int(page.evaluate(f"() => fetch('/api/tables/{table}').then(r => r.json()).then(t => t.round.id)"))


def _reveals(server: Any, table: str, round_id: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    after = 0
    while events := server.get(f"/api/tables/{table}/events?after={after}&limit=200")["events"]:
        found += [e for e in events if e.get("round_id") == round_id and e["type"] == "card_revealed"]
        after = max(int(e["id"]) for e in events)
    return found


def _peel_partly(page: Any, card: Any, artifacts: Path) -> None:
    """Drag a squeezed card's edge two fifths of the way: its face shows from that edge (the pips)
    while the rest lies under the back and the corner indices stay out of sight."""
    box = card.bounding_box()
    x = box["x"] + box["width"] / 2
    page.mouse.move(x, box["y"] + box["height"] - 3)
    page.mouse.down()
    page.mouse.move(x, box["y"] + box["height"] * 0.6, steps=6)
    page.mouse.up()
    peel = float(card.get_attribute("data-peel"))
    assert 0.3 < peel < 0.5 and "peeled" not in str(card.get_attribute("class")), peel

    def hit(fraction: float) -> str:
        """The class of what lies on top at the card's middle, this far down."""
        y = box["y"] + box["height"] * fraction
        return str(page.evaluate(f"() => document.elementFromPoint({x}, {y}).closest('.face, .back').className"))

    assert hit(0.9) == "face" and hit(0.2) == "back"
    assert card.evaluate("el => getComputedStyle(el.querySelector('.index.br')).opacity") == "0"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "squeeze-peeling-zh-Hant.png"), full_page=True)


#: A squeezed card of this player's still to be peeled.
SQUEEZABLE = ".hand-cards .card.squeezing:not(.up):not(.peeled)"


def _peel_every_card(page: Any, round_id: int) -> tuple[int, int]:
    """Peel each squeezed card as it comes, by dragging its corner and from the keyboard in turn, until
    the page shows the round's payouts; how many were dragged and how many peeled by key."""
    drags = keys = 0
    while True:
        page.wait_for_function(
            f"() => window.__payoutsShown.includes('{round_id}') || document.querySelector('{SQUEEZABLE}')"
        )
        card = page.query_selector(SQUEEZABLE)
        if card is None:
            return drags, keys
        box = card.bounding_box()
        if drags <= keys and box is not None:  # peel by dragging the card's corner
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 4)
            page.mouse.down()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * 1.2, steps=8)
            page.mouse.up()
            drags += 1
        else:  # or from the keyboard
            card.focus()
            page.keyboard.press("Enter")
            keys += 1


def test_squeeze_peeled_by_drag_and_keyboard(player: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    page, name, _ = player
    _open_table(page, server, SQUEEZE)
    _sit(page)
    # alone at the table, with the largest bets on both sides: the squeeze of both sides is ours
    round_id = _bet(page, pit, SQUEEZE, {"player": 500, "banker": 1000})
    pit.close(SQUEEZE)
    page.wait_for_selector("#squeeze-bar [data-who=mine]")
    first = page.wait_for_selector("#player-cards .card.known.squeezing[data-position=player_1]")
    assert page.query_selector("#player-cards .card.up") is None, "the squeezed side's cards lie face down"
    # the server told the squeezer alone what the cards are: the page draws them under the backs
    token = page.evaluate("() => localStorage.getItem('baccarat.token')")
    told = server.get(f"/api/tables/{SQUEEZE}/me", token)["squeeze"]
    assert first.get_attribute("data-card") == told["player_1"]
    assert server.get(f"/api/tables/{SQUEEZE}")["table"]["cards"]["player_1"] is None
    _peel_partly(page, first, artifacts)
    drags, keys = _peel_every_card(page, round_id)
    assert drags >= 1 and keys >= 1
    assert pit.settled(round_id)["status"] == "settled"
    # the page asked the server to turn the cards: every reveal was ours, none the dealer's
    reveals = _reveals(server, SQUEEZE, round_id)
    shown = server.get("/api/me", token).get("display_name", name)  # public messages mask the name
    assert reveals and all(e.get("by") == shown for e in reveals), reveals
    # the page showed the round settled (its result stays in the recent rounds, ours marked)
    recent = page.wait_for_selector(f"#recent-rounds button[data-round='{round_id}']")
    assert "★" in recent.inner_text()
    history = server.get("/api/me/history?limit=5", page.evaluate("() => localStorage.getItem('baccarat.token')"))
    mine = next(r for r in history["rounds"] if r["round_id"] == round_id)
    assert mine["status"] == "settled"
    page.click(f"#recent-rounds button[data-round='{round_id}']")
    page.wait_for_selector("#recall #recall-title")
    assert len(page.query_selector_all("#recall .card.up")) == len(mine["result"]["cards"])
    assert page.errors == []


def test_squeeze_left_to_the_dealer(player: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    page, _, _ = player
    _open_table(page, server, SQUEEZE_DEALER)
    page.select_option("[data-testid=lang]", "en")
    _sit(page)
    round_id = _bet(page, pit, SQUEEZE_DEALER, {"banker": 1000})
    # the table's squeeze time is short: the page holds the dealer's turning of the cards back (and
    # all that follows it) until the squeeze has been looked at
    page.evaluate("() => { window.__gate.holdFrom = 'card_revealed'; }")
    pit.close(SQUEEZE_DEALER)
    page.wait_for_selector("#squeeze-bar [data-side=banker][data-who=mine]")
    page.wait_for_selector("#reveal-deadline")
    assert "dealer" in page.inner_text("#reveal-deadline")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "squeeze-en.png"), full_page=True)
    # we do not peel: the dealer turns the cards when the squeeze time is up, and the round settles
    page.evaluate("() => window.__gate.release()")
    _payouts_shown(page, round_id)
    reveals = _reveals(server, SQUEEZE_DEALER, round_id)
    assert reveals and all(e.get("by") is None for e in reveals), reveals
    assert page.query_selector(".hand-cards .card.hidden") is None
    assert page.errors == []


def test_buy_in_and_a_refused_bet(player: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    page, _, token = player
    _open_table(page, server, MACAU)
    page.click("#stand")
    page.wait_for_selector("#buy-in-dialog[open]")
    assert page.input_value("#buy-in-amount") == "1000.00"
    for typed, says in [("abc", "兩位小數"), ("2000", "錢包只有"), ("0.5", "最少要帶"), ("1.234", "兩位小數")]:
        page.fill("#buy-in-amount", typed)
        page.click("#buy-in-confirm")
        page.wait_for_selector("#buy-in-amount[aria-invalid=true]")
        assert says in page.inner_text("#buy-in-error"), typed
        assert page.is_visible("#buy-in-dialog")
    page.screenshot(path=str(artifacts / "buy-in-zh-Hant.png"))
    page.fill("#buy-in-amount", "5")
    page.click("#buy-in-confirm")
    page.wait_for_selector("#seat-status[data-seat=standing]")
    page.wait_for_selector("#table-stack[data-value='500']")
    assert server.get(f"/api/tables/{MACAU}/me", token)["balance"] == 500

    # a bet over what is at the table: the table refuses it (over the websocket), readably, and no money moves
    open_in_page(pit, MACAU, page)
    page.click("[data-testid=chip-1000]")
    page.click("[data-testid=spot-banker]")
    page.click("[data-testid=confirm]")
    page.wait_for_selector("#table-notice[data-kind=error]")
    assert "可用餘額不足" in page.inner_text("#table-notice")
    assert page.query_selector("[data-testid=spot-banker] .stack.confirmed") is None
    page.select_option("[data-testid=lang]", "en")
    assert "Not enough money available at the table" in page.inner_text("#table-notice")
    assert page.get_attribute("#table-stack", "data-value") == "500"
    assert page.get_attribute("[data-testid=balance]", "data-value") == "100000"
    me = server.get(f"/api/tables/{MACAU}/me", token)
    assert me["balance"] == 500 and not me.get("bets")
    assert server.get("/api/me", token)["balance"] == 100000
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "refused-bet-en.png"), full_page=True)
    assert page.errors == []


def test_bets_fall_back_to_rest_when_the_socket_is_down(player: Any, server: Any, pit: Pit) -> None:
    page, _, token = player
    _open_table(page, server, MACAU)
    open_in_page(pit, MACAU, page)
    page.evaluate("() => { window.__blockSockets = true; for (const ws of window.__sockets) ws.close(); }")
    page.wait_for_selector("#conn[data-state=closed]")
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-player]")
    page.click("[data-testid=confirm]")
    # the first bet brings us to the table: the page asks the buy-in first (joined over REST too)
    page.wait_for_selector("#buy-in-dialog[open]")
    page.fill("#buy-in-amount", "50")
    page.click("#buy-in-confirm")
    page.wait_for_selector("[data-testid=spot-player] .stack.confirmed[data-confirmed='500']")
    round_id = _round_id(page)
    history = server.get("/api/me/history?limit=5", token)["rounds"]
    mine = next(r for r in history if r["round_id"] == round_id)
    assert [(b["bet"], b["stake"]) for b in mine["bets"]] == [("player", 500)]
    assert server.get("/api/me", token)["at_tables"][MACAU] == 5000 - 500
    assert page.errors == []


def test_variant_switch(player: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    page, _, token = player
    _open_table(page, server, NO_COMMISSION)
    assert page.is_disabled("#variant-switch"), "not at the table yet"
    page.click("#stand")
    page.wait_for_selector("#buy-in-dialog[open]")
    page.click("#buy-in-confirm")
    page.wait_for_selector("#seat-status[data-seat=standing]")
    page.wait_for_selector("#variant-switch:not([disabled])")
    assert page.input_value("#variant-switch") == "no_commission"
    assert "0.95:1" not in page.inner_text("[data-testid=spot-banker]")

    # with a bet open the table refuses the switch (R28), and the page says why
    round_id = _bet(page, pit, NO_COMMISSION, {"player": 1000})
    page.select_option("#variant-switch", "standard")
    page.wait_for_selector("#table-notice[data-kind=error][data-rule=R28]")
    assert "有未結算的注碼時不能切換玩法" in page.inner_text("#table-notice")
    assert page.input_value("#variant-switch") == "no_commission"
    assert server.get(f"/api/tables/{NO_COMMISSION}/me", token)["variant"] == "no_commission"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "variant-refused-zh-Hant.png"), full_page=True)

    # once the bet is settled the switch goes through: the server's /variant (over the websocket)
    pit.close(NO_COMMISSION)
    _payouts_shown(page, round_id)
    page.select_option("[data-testid=lang]", "en")
    page.select_option("#variant-switch", "standard")
    page.wait_for_selector("#table-notice[data-kind=info]")
    assert "Now playing Standard" in page.inner_text("#table-notice")
    assert server.get(f"/api/tables/{NO_COMMISSION}/me", token)["variant"] == "standard"
    page.wait_for_function("() => document.querySelector('[data-testid=spot-banker]').innerText.includes('0.95:1')")
    assert page.input_value("#variant-switch") == "standard"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "variant-en.png"), full_page=True)
    assert page.errors == []
