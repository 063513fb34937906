"""The browser table end to end: the lobby's player counts, register, sit at a seat, bet, watch the round
settle, check the money, the roads, the table's refusals, leave the table, both languages, the fairness
page after the shoe ends, and the odds lab; no console errors."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import Pit, new_context, open_in_page, until, watched_page

from baccarat.server.game import coup_from_cards, settle_round_bets

pytestmark = pytest.mark.browser

TABLE = "web-macau"


@pytest.fixture
def page(chromium: Any, server: Any) -> Iterator[Any]:
    """A fresh page in Traditional Chinese that records console errors."""
    context = new_context(chromium, locale="zh-TW", viewport={"width": 1280, "height": 900})
    page = watched_page(context)
    yield page
    context.close()


def _bet_in_a_round(page: Any, pit: Pit) -> int:
    """Open a round's betting, place Banker 10.00 and Player 5.00 and confirm them; returns the round id."""
    round_id = open_in_page(pit, TABLE, page)
    page.click("[data-testid=chip-1000]")
    page.click("[data-testid=spot-banker]")
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-player]")
    assert page.get_attribute("[data-testid=spot-banker] .stack.pending", "data-pending") == "1000"
    page.click("[data-testid=confirm]")
    page.wait_for_selector("[data-testid=spot-player] .stack.confirmed")
    page.wait_for_selector("[data-testid=spot-banker] .stack.confirmed")
    assert page.get_attribute("[data-testid=spot-banker] .stack.confirmed", "data-confirmed") == "1000"
    shown = page.evaluate("() => fetch('/api/tables/web-macau').then(r => r.json()).then(t => t.round.id)")
    assert int(shown) == round_id
    return round_id


def test_play_a_round_in_the_browser(page: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    page.goto(f"{server.url}/")
    assert page.get_attribute("html", "lang") == "zh-Hant"
    page.wait_for_selector(f"li.table-card[data-table={TABLE}] .thumb svg")
    assert page.inner_text("nav [data-nav=lobby]") == "大廳"
    lobby = {t["id"]: t for t in server.get("/api/tables")["tables"]}
    shown = page.get_attribute(f"li.table-card[data-table={TABLE}] dd.players", "data-players")
    assert shown == str(lobby[TABLE]["players"])
    assert "座位" in page.inner_text(f"li.table-card[data-table={TABLE}] ul.rules")

    # register through the dialog
    name = f"web{secrets.token_hex(5)}"
    page.click("#login-button")
    page.fill("[data-testid=login-name]", name)
    page.fill("[data-testid=login-password]", "password-123")
    page.click("[data-testid=register-submit]")
    page.wait_for_selector("[data-testid=balance][data-value='100000']")
    token = page.evaluate("() => localStorage.getItem('baccarat.token')")

    # join the table and bet
    page.click(f"li.table-card[data-table={TABLE}] a.button")
    page.wait_for_selector("[data-testid=spot-banker]")
    page.wait_for_selector("#seat-status[data-seat=none]")
    # sit at the first free seat, bringing the whole wallet (the buy-in's default)
    seat = page.get_attribute("#seats button.seat[data-state=free]", "data-seat")
    page.click(f"#seats button.seat[data-seat='{seat}']")
    page.wait_for_selector("#buy-in-dialog[open]")
    assert page.input_value("#buy-in-amount") == "1000.00", "the buy-in is the whole wallet by default"
    page.click("#buy-in-confirm")
    page.wait_for_selector(f"#seat-status[data-seat='{seat}']")
    page.wait_for_selector(f"#seats button.seat[data-seat='{seat}'][data-state=mine]")
    at_table = server.get(f"/api/tables/{TABLE}/me", token)
    assert at_table["at_table"] and at_table["seat"] == int(seat)
    page.wait_for_selector("#table-stack[data-value='100000']")
    assert page.get_attribute("#table-owed", "data-value") == "0"
    page.screenshot(path=str(artifacts / "table-seated-zh-Hant.png"), full_page=True)
    assert "莊" in page.inner_text("[data-testid=spot-banker]")
    assert "0.95:1" in page.inner_text("[data-testid=spot-banker]")
    round_id = _bet_in_a_round(page, pit)
    assert page.is_disabled("#table-switch"), "no table switch with an open bet"
    assert page.is_hidden("#variant-switch"), "a Macau table plays one variant (R28)"
    left = int("".join(c for c in page.inner_text("[data-testid=countdown]") if c.isdigit()) or 0)
    if left >= 2:  # the bets are surely still open: the server refuses to let us leave, readably
        page.click("#leave-table")
        page.wait_for_selector("#table-notice[data-kind=error]")
        assert "有未結算的注碼" in page.inner_text("#table-notice")
    # the page explains the table's limit refusals in both languages
    explained = page.evaluate(
        """() => import('/js/refusals.js').then((m) => m.explain({
            code: 'limit.banker_multiple', rule: 'R22',
            params: {bet: 'banker', stake: 150, minimum: 100, suggestion: 100},
            detail: 'banker bet 150 is not a multiple of the minimum 100 (R22: …)'}))"""
    )
    assert "倍數" in explained and "(R22)" in explained
    roads_before = page.get_attribute("#roads", "data-results") or ""

    # the round settles: the payouts shown are the server's, and the balance moved by exactly that
    pit.close(TABLE)
    page.wait_for_selector(f"#result[data-round='{round_id}'] #payouts")
    history = server.get("/api/me/history?limit=5", token)["rounds"]
    mine = next(r for r in history if r["round_id"] == round_id)
    assert mine["status"] == "settled"
    bets = {b["bet"]: b for b in mine["bets"]}
    assert {k: b["stake"] for k, b in bets.items()} == {"banker": 1000, "player": 500}
    coup = coup_from_cards(mine["result"]["cards"])
    expected = settle_round_bets(coup, [(b["id"], b["bet"], b["stake"]) for b in mine["bets"]], variant="macau")
    assert [s.returned for s in expected] == [b["returned"] for b in mine["bets"]]
    final = 100000 - 1500 + sum(s.returned for s in expected)
    page.wait_for_selector(f"[data-testid=balance][data-value='{final}']")
    assert server.get("/api/me", token)["balance"] == final
    for kind, bet in bets.items():
        assert page.get_attribute(f"#payouts tr[data-bet={kind}]", "data-returned") == str(bet["returned"])
    assert page.get_attribute("#net", "data-net") == str(final - 100000)
    shown = len(mine["result"]["player"]["cards"])  # every card face up once the deal's animation ends
    page.wait_for_function(f"() => document.querySelectorAll('#player-cards .card.up').length === {shown}")

    # the roads took the result
    roads_after = page.get_attribute("#roads", "data-results") or ""
    letter = {"banker": "B", "player": "P", "tie": "T"}[mine["result"]["winner"]]
    # the first result after those shown while we bet is ours (a slow machine may have seen the next one too)
    assert len(roads_after) > len(roads_before) and roads_after[len(roads_before)] == letter
    assert page.query_selector("figure[data-road=big_road] svg") is not None
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "table-zh-Hant.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 400, "the table fits a phone's width"
    page.screenshot(path=str(artifacts / "table-zh-Hant-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})

    # recall the round from the recent rounds
    page.click(f"#recent-rounds button[data-round='{round_id}']")
    page.wait_for_selector("#recall #recall-title")
    assert page.query_selector(f"#recall a[href='#/fairness/{round_id}']") is not None

    # leave the table: the money goes back to the wallet, the commission box is collected
    page.click("#leave-table")
    page.wait_for_selector("#seat-status[data-seat=none]")
    page.wait_for_selector("#table-notice[data-kind=info]")
    me = server.get("/api/me", token)
    assert me["balance"] == final and me["wallet"] == final - me["at_tables"].get(TABLE, 0) == final
    assert not server.get(f"/api/tables/{TABLE}/me", token)["at_table"]
    page.wait_for_selector(f"#seats button.seat[data-seat='{seat}'][data-state=free]")

    # switch the language
    page.select_option("[data-testid=lang]", "en")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("nav [data-nav=lobby]") == "Lobby"
    assert "Banker" in page.inner_text("[data-testid=spot-banker]")
    open_in_page(pit, TABLE, page)
    page.wait_for_selector("#phase[data-status=betting]")
    assert not page.is_disabled("#table-switch")
    assert "Left the table" in page.inner_text("#table-notice")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "table-en.png"), full_page=True)

    # end the shoe (the admin changes it, and it ends as the next round opens), so the round's seed is
    # revealed, then verify the round
    pit.finish(TABLE)
    response = server.post(f"/api/admin/tables/{TABLE}/change-shoe", server.admin_token())
    assert response.status_code == 200
    pit.open(TABLE)
    until(lambda: server.get(f"/api/rounds/{round_id}")["proof"]["server_seed"], "the shoe did not end")
    page.goto(f"{server.url}/#/fairness/{round_id}")
    page.wait_for_selector("#verdict[data-ok=true]")
    assert "match" in page.inner_text("#sha-check")
    coup_in_shoe = server.get(f"/api/rounds/{round_id}")["coup_in_shoe"]
    row = page.wait_for_selector(f"#recomputed tr.this-round[data-coup='{coup_in_shoe}']")
    shown = [el.get_attribute("data-card") for el in row.query_selector_all(".card")]
    assert shown == mine["result"]["cards"]
    page.screenshot(path=str(artifacts / "fairness-en.png"), full_page=True)

    # the odds lab: a par sheet and a simulation chart
    page.goto(f"{server.url}/#/lab")
    page.select_option("#decks", "8")
    page.click("#sheet-form button[type=submit]")
    page.wait_for_selector("#sheet tbody tr")
    assert "1.058%" in page.inner_text("#sheet")
    page.fill("#sim-form input[name=shoes]", "10")
    page.fill("#sim-form input[name=seed]", "3")
    page.click("#sim-form button[type=submit]")
    page.wait_for_selector("#sim-out svg.chart path.median")
    page.screenshot(path=str(artifacts / "lab-en.png"), full_page=True)

    assert page.errors == []
