"""The browser table keeps the server's account of this player: confirmed bets survive a reload and show
in a second tab of the same user with the balance and the payouts; Double; the chips not confirmed are
warned about and dropped; 简体中文; an unknown table and a closed table say so; refusals follow the
language switch. Screenshots of the table in the three languages at phone and desktop sizes. Every
selector is a data-testid hook."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import Pit, freeze_at_seconds_left, hold_countdowns, new_context, open_in_page, pause_clock

pytestmark = pytest.mark.browser

SLOW = "web-slow"  # a dealer-paced table: the test opens and closes each round's betting
CLOSED = "web-closed"
LANGS = ("zh-Hant", "zh-Hans", "en")


def _tid(name: str) -> str:
    return f"[data-testid='{name}']"


def _player_context(chromium: Any, server: Any) -> Any:
    """A browser context of a freshly registered player (Traditional Chinese), with its console errors;
    its pages' sockets go through the gate, and its clock is Playwright's (it runs as the real one
    until a test moves it)."""
    name, token = server.register("s")
    context = new_context(chromium, token=token, gate=True, locale="zh-TW", viewport={"width": 1280, "height": 800})
    context.clock.install()
    context.errors = []
    context.player = (name, token)
    return context


@pytest.fixture
def context(chromium: Any, server: Any) -> Iterator[Any]:
    """A browser context of a freshly registered player (see :func:`_player_context`)."""
    context = _player_context(chromium, server)
    yield context
    context.close()


def _page(context: Any) -> Any:
    page = context.new_page()
    page.on("console", lambda message: context.errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: context.errors.append(str(error)))
    return page


def _open(page: Any, server: Any, table: str) -> None:
    page.goto(f"{server.url}/#/table/{table}")
    page.wait_for_selector(f"{_tid('spot-banker')}")
    page.wait_for_selector("#conn[data-state=open]")


def _join(page: Any, buy_in: str = "500") -> None:
    page.click("#stand")
    page.wait_for_selector("#buy-in-dialog[open]")
    page.fill("#buy-in-amount", buy_in)
    page.click("#buy-in-confirm")
    page.wait_for_selector("#seat-status[data-seat=standing]")


def _bet(page: Any, stakes: dict[str, int]) -> None:
    for bet, stake in stakes.items():
        page.click(_tid(f"chip-{stake}"))
        page.click(_tid(f"spot-{bet}"))
    page.click(_tid("confirm"))
    for bet, stake in stakes.items():
        page.wait_for_selector(f"{_tid(f'spot-{bet}')} .stack.confirmed[data-confirmed='{stake}']")


def _balance(page: Any) -> int:
    return int(page.get_attribute(_tid("balance"), "data-value"))


def test_reload_and_a_second_tab_keep_the_servers_bets_balance_and_payout(context: Any, server: Any, pit: Pit) -> None:
    _, token = context.player
    page = _page(context)
    _open(page, server, SLOW)
    _join(page)
    round_id = open_in_page(pit, SLOW, page)  # open until the pit closes it: the reload comes well before
    _bet(page, {"banker": 1000, "player": 500})
    page.wait_for_selector(f"{_tid('balance')}[data-value='98500']")
    # a reload mid-round: the bets come back from the server, whichever answers first (the account
    # held back here until they are on screen: the socket's snapshot and authentication bring them)
    held: list[Any] = []
    page.route("**/api/me", lambda route: held.append(route))
    page.reload()
    page.wait_for_selector(f"{_tid('spot-banker')} .stack.confirmed[data-confirmed='1000']")
    page.wait_for_selector(f"{_tid('spot-player')} .stack.confirmed[data-confirmed='500']")
    assert page.get_attribute(_tid("my-bets"), "data-total") == "1500"
    assert page.query_selector(".stack.pending") is None
    for route in held:
        route.continue_()
    page.unroute("**/api/me")
    # a second tab of the same user sees the same bets and balance, and what the first tab adds
    other = _page(context)
    _open(other, server, SLOW)
    other.wait_for_selector(f"{_tid('spot-banker')} .stack.confirmed[data-confirmed='1000']")
    assert other.get_attribute(_tid("my-bets"), "data-total") == "1500"
    assert _balance(other) == 98500
    # Double in the first tab: the second tab hears it (my_bet) without asking
    page.click(_tid("double"))
    page.wait_for_selector(f"{_tid('spot-banker')} .stack.confirmed[data-confirmed='2000']")
    other.wait_for_selector(f"{_tid('spot-banker')} .stack.confirmed[data-confirmed='2000']")
    other.wait_for_selector(f"{_tid('spot-player')} .stack.confirmed[data-confirmed='1000']")
    other.wait_for_selector(f"{_tid('balance')}[data-value='97000']")
    assert server.get("/api/me", token)["balance"] == 97000
    # the round settles: both tabs show the payouts and the same final balance, the server's
    assert int(server.get(f"/api/tables/{SLOW}")["round"]["id"]) == round_id
    pit.close(SLOW)
    for tab in (page, other):
        tab.wait_for_selector(f"{_tid('result-banner')}[data-round='{round_id}']")
        tab.wait_for_selector(f"#result[data-round='{round_id}'] #payouts")
    mine = next(r for r in server.get("/api/me/history?limit=5", token)["rounds"] if r["round_id"] == round_id)
    final = 97000 + sum(b["returned"] for b in mine["bets"])
    for tab in (page, other):
        tab.wait_for_selector(f"{_tid('balance')}[data-value='{final}']")
        assert tab.get_attribute("#net", "data-net") == str(final - 100000)
    assert server.get("/api/me", token)["balance"] == final
    winner = mine["result"]["winner"]
    assert page.get_attribute(_tid(f"spot-{winner}"), "data-won") == "true"
    assert context.errors == []


def test_unconfirmed_chips_are_warned_about_then_dropped(context: Any, server: Any, pit: Pit) -> None:
    page = _page(context)
    _open(page, server, SLOW)
    _join(page)
    open_in_page(pit, SLOW, page)
    page.click(_tid("chip-500"))
    page.click(_tid("spot-tie"))
    assert page.query_selector(f"{_tid('chips-warning')}[data-kind]") is None
    # the page's own countdown, moved on its clock: a little over the warning's five seconds left
    hold_countdowns(page)
    freeze_at_seconds_left(page, _tid("countdown"), 6.5)
    assert page.query_selector(f"{_tid('chips-warning')}[data-kind]") is None
    page.clock.run_for(2000)
    page.wait_for_selector(f"{_tid('chips-warning')}[data-kind=warning]")
    left = int(page.get_attribute(_tid("countdown"), "data-seconds"))
    assert 0 <= left <= 5
    pit.close(SLOW)  # betting closes (as the page's countdown said it would): the chips go
    page.wait_for_selector(f"{_tid('chips-warning')}[data-kind=dropped]")
    assert "5.00" in page.inner_text(_tid("chips-warning"))
    assert page.query_selector(".stack.pending") is None
    assert page.get_attribute(_tid("my-bets"), "data-total") == "0"
    assert context.errors == []


def test_unconfirmed_chips_confirmed_automatically_when_the_player_asks(context: Any, server: Any, pit: Pit) -> None:
    """The player's setting, remembered: the chips left unconfirmed are sent just before the close."""
    page = _page(context)
    _open(page, server, SLOW)
    _join(page)
    page.check(_tid("auto-confirm"))
    round_id = open_in_page(pit, SLOW, page)
    page.click(_tid("chip-500"))
    page.click(_tid("spot-tie"))
    hold_countdowns(page)
    freeze_at_seconds_left(page, _tid("countdown"), 6.5)
    page.clock.run_for(2000)  # five seconds left: the warning says the chips will be confirmed
    page.wait_for_selector(f"{_tid('chips-warning')}[data-kind=warning]")
    assert "自動確認" in page.inner_text(_tid("chips-warning"))
    assert page.query_selector(f"{_tid('spot-tie')} .stack.confirmed") is None, "not at once"
    page.clock.run_for(3000)  # a second or two before the close: they are sent
    page.wait_for_selector(f"{_tid('spot-tie')} .stack.confirmed[data-confirmed='500']")
    left = int(page.get_attribute(_tid("countdown"), "data-seconds"))
    assert left <= 2, "sent a moment before the close, not at once"
    _, token = context.player
    mine = server.get(f"/api/tables/{SLOW}/me", token)
    assert [(b["bet"], b["stake"]) for b in mine["bets"]] == [("tie", 500)]  # the server holds it
    assert int(server.get(f"/api/tables/{SLOW}")["round"]["id"]) == round_id
    page.clock.resume()
    page.reload()
    page.wait_for_selector(f"{_tid('auto-confirm')}:checked")  # remembered
    assert context.errors == []


def test_simplified_chinese(context: Any, server: Any) -> None:
    page = _page(context)
    _open(page, server, SLOW)
    page.select_option(_tid("lang"), "zh-Hans")
    assert page.get_attribute("html", "lang") == "zh-Hans"
    assert page.inner_text("nav [data-nav=lobby]") == "大厅"
    assert page.inner_text(f"{_tid('spot-banker')} .spot-name") == "庄"
    assert page.inner_text(f"{_tid('spot-player')} .spot-name") == "闲"
    assert page.inner_text(_tid("double")) == "加倍"
    page.reload()
    page.wait_for_selector(_tid("spot-banker"))
    assert page.input_value(_tid("lang")) == "zh-Hans", "the choice is remembered"
    assert page.inner_text("#conn") in {"已连接", "连接中…"}
    assert context.errors == []


def test_an_unknown_table_says_so(context: Any, server: Any, artifacts: Path) -> None:
    page = _page(context)
    page.goto(f"{server.url}/#/table/no-such-table")
    page.wait_for_selector(_tid("table-missing"))
    assert "no-such-table" in page.inner_text(_tid("table-missing"))
    assert "找不到賭桌" in page.inner_text(_tid("table-missing"))
    assert "載入中" not in page.inner_text("#table-title")
    assert page.query_selector(_tid("spot-banker")) is None
    page.wait_for_selector("#conn[data-state=missing]", state="attached")  # the socket's answer: no such table
    page.clock.run_for(30_000)  # any reconnect the page had planned would be tried by now
    assert page.get_attribute("#conn", "data-state") == "missing", "no reconnecting to a table that is not there"
    page.select_option(_tid("lang"), "en")
    assert "There is no table" in page.inner_text(_tid("table-missing"))
    page.screenshot(path=str(artifacts / "table-missing-en.png"))


def test_a_closed_table_says_so_and_offers_no_seat(context: Any, server: Any, artifacts: Path) -> None:
    admin = server.admin_token()
    answer = server.post(f"/api/admin/tables/{CLOSED}/close", admin)
    assert answer.status_code == 200
    try:
        page = _page(context)
        page.goto(f"{server.url}/#/table/{CLOSED}")
        page.wait_for_selector(_tid("table-closed"))
        assert "關閉" in page.inner_text(_tid("table-closed"))
        assert page.query_selector("#seats button.seat") is None
        assert page.query_selector("#stand") is None
        assert page.is_disabled(_tid("confirm"))
        page.screenshot(path=str(artifacts / "table-closed-zh-Hant.png"))
        assert context.errors == []
    finally:
        assert server.post(f"/api/admin/tables/{CLOSED}/open", admin).status_code == 200


# Lets a test drop the page's websocket: while blocked, every new one goes to a path with no socket.
SOCKET_DROP = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__blocked = false;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(window.__blocked ? String(url).replace("/ws/tables/", "/ws/nowhere/") : url, protocols);
      window.__sockets.push(this);
    }
  };
})();
"""
#: The longest the page waits before it tries to connect again (js/socket.js MAX_DELAY_MS).
MAX_RECONNECT_MS = 8000


def test_reconnecting_is_shown_with_its_seconds(context: Any, server: Any) -> None:
    context.add_init_script(SOCKET_DROP)
    page = _page(context)
    _open(page, server, SLOW)
    page.evaluate("() => { window.__blocked = true; for (const ws of window.__sockets) ws.close(); }")
    page.wait_for_selector("#conn[data-state=closed]")
    page.wait_for_function("() => /\\d+ 秒後重新連線/.test(document.querySelector('#conn').textContent)")
    page.evaluate("() => { window.__blocked = false; }")
    page.clock.fast_forward(MAX_RECONNECT_MS)  # the next try comes now, not after its seconds
    page.wait_for_selector("#conn[data-state=open]")
    page.wait_for_selector(_tid("spot-banker"))


def test_a_refusal_follows_the_language_switch(context: Any, server: Any, pit: Pit) -> None:
    page = _page(context)
    _open(page, server, SLOW)
    _join(page, "5")
    open_in_page(pit, SLOW, page)
    page.click(_tid("chip-1000"))
    page.click(_tid("spot-banker"))
    page.click(_tid("confirm"))
    page.wait_for_selector("#table-notice[data-kind=error]")
    assert "可用餘額不足" in page.inner_text("#toast")
    page.select_option(_tid("lang"), "en")
    assert "Not enough money available at the table" in page.inner_text("#toast")
    assert "Not enough money available at the table" in page.inner_text("#table-notice")
    page.select_option(_tid("lang"), "zh-Hans")
    assert "可用余额不足" in page.inner_text("#toast")


def _screenshots_while_betting(page: Any, artifacts: Path, lang: str) -> None:
    """Bets confirmed and a chip not yet confirmed: the table at a desktop's and a phone's width."""
    _bet(page, {"banker": 1000, "player": 500})
    page.click(_tid("chip-100"))
    page.click(_tid("spot-tie"))
    page.wait_for_selector(_tid("result-banner"), state="detached")  # the last round's banner is gone
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 10, "the table fits the width"
        page.screenshot(path=str(artifacts / f"table-betting-{lang}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def _screenshots_of_the_result(
    page: Any, artifacts: Path, lang: str, round_id: int, explained: list[dict[str, Any]]
) -> None:
    """The round's result, why each hand drew or stood in the page's language, at both widths."""
    assert "你" in page.inner_text(_tid("result-banner")) or "You" in page.inner_text(_tid("result-banner"))
    # why each hand drew or stood, in the page's language, one line per reason the server gave
    # (with the result until the next round opens, and in the round's recall)
    page.click(f"#recent-rounds button[data-round='{round_id}']")
    page.wait_for_selector(f"#recall {_tid('reasons')}")
    reasons = page.locator(f"#recall {_tid('reasons')} li").all_inner_texts()
    assert len(reasons) == len(explained) >= 1
    assert all(("點" if lang == "zh-Hant" else "点" if lang == "zh-Hans" else " ") in text for text in reasons), reasons
    if lang == "en":
        assert reasons == [r["text"] for r in explained]
    page.screenshot(path=str(artifacts / f"table-result-{lang}-1280.png"), full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    if page.query_selector(_tid("result-banner")):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 10, "the result fits a phone"
        page.screenshot(path=str(artifacts / f"table-result-{lang}-390.png"), full_page=True)


def test_screenshots_of_the_table_in_three_languages_from_one_round(
    chromium: Any, server: Any, pit: Pit, artifacts: Path
) -> None:
    """One player a language at the same table, all betting on one round: each language's table while
    betting and with the round's result."""
    contexts = {lang: _player_context(chromium, server) for lang in LANGS}
    try:
        pages: dict[str, Any] = {}
        for lang, context in contexts.items():
            page = pages[lang] = _page(context)
            _open(page, server, SLOW)
            page.select_option(_tid("lang"), lang)
            _join(page)
        round_id = open_in_page(pit, SLOW, *pages.values())
        for lang, page in pages.items():
            _screenshots_while_betting(page, artifacts, lang)
        assert int(server.get(f"/api/tables/{SLOW}")["round"]["id"]) == round_id
        pit.close(SLOW)
        for page in pages.values():  # each banner stays up (its page's clock paused) for the screenshots
            page.wait_for_selector(f"{_tid('result-banner')}[data-round='{round_id}']")
            pause_clock(page)
        explained = server.get(f"/api/rounds/{round_id}")["result"]["explained"]
        for lang, page in pages.items():
            _screenshots_of_the_result(page, artifacts, lang, round_id, explained)
    finally:
        for context in contexts.values():
            context.close()
