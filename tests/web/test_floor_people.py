"""The back office's people and safer play in the browser: the admin creates a dealer and assigns
their tables, suspends and reinstates a player and sets the player's loss limit; the player
tightens their own limits, is refused a loosening in their language, and a bet past the limit is
refused at the table. Screenshots in three languages, desktop and phone."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.web.conftest import HTTP_SECONDS, Pit, new_context, until, watched_page

pytestmark = pytest.mark.browser


@pytest.fixture
def browser(chromium: Any, server: Any) -> Iterator[Callable[..., Any]]:
    """Opens pages logged in with a token, each in a context of its own, closed after the test."""
    contexts: list[Any] = []

    def page(token: str, *, locale: str = "zh-TW", width: int = 1280) -> Any:
        context = new_context(chromium, token=token, locale=locale, viewport={"width": width, "height": 900})
        contexts.append(context)
        return watched_page(context)

    yield page
    for context in contexts:
        context.close()


def _get(server: Any, path: str, headers: dict[str, str]) -> httpx.Response:
    return httpx.get(f"{server.url}{path}", headers=headers, timeout=HTTP_SECONDS)


def test_the_admin_manages_dealers_and_players(browser: Callable[..., Any], server: Any, artifacts: Path) -> None:
    player, token = server.register("people")
    admin = browser(server.admin_token())
    admin.goto(f"{server.url}/#/admin/dealers")
    dealer = f"deal{secrets.token_hex(4)}"
    admin.fill("[data-testid=dealer-name]", dealer)
    admin.fill("[data-testid=dealer-password]", "dealer-pass-9")
    admin.check("[data-testid=assign-new-web-live]")
    admin.click("[data-testid=dealer-create]")
    admin.wait_for_selector(f"article.staff-dealer[data-dealer={dealer}]")
    assert admin.is_checked(f"[data-testid=assign-{dealer}-web-live]")
    admin.screenshot(path=str(artifacts / "back-office-dealers-zh-Hant.png"), full_page=True)
    login = server.post("/api/auth/login", body={"name": dealer, "password": "dealer-pass-9"})
    assert login.status_code == 200
    tables = _get(server, "/api/dealer/tables", {"Authorization": f"Bearer {login.json()['token']}"})
    assert [t["id"] for t in tables.json()["tables"]] == ["web-live"]

    admin.goto(f"{server.url}/#/admin/players")
    admin.fill("[data-testid=players-search]", player)
    admin.press("[data-testid=players-search]", "Enter")
    admin.wait_for_selector(f"tr[data-player={player}]")
    admin.click(f"[data-testid=suspend-{player}]")
    admin.wait_for_selector(f"[data-testid=reinstate-{player}]")
    me = _get(server, "/api/me", {"Authorization": f"Bearer {token}"})
    assert me.status_code == 401, "a suspended player's session ends at once"
    refused = server.post("/api/auth/login", body={"name": player, "password": "password-123"})
    assert refused.status_code == 403 and refused.json()["code"] == "account.suspended"
    admin.click(f"[data-testid=reinstate-{player}]")
    admin.wait_for_selector(f"[data-testid=suspend-{player}]")
    admin.click(f"tr[data-player={player}] details.staff-limits summary")
    admin.wait_for_selector(f"tr[data-player={player}] details.staff-limits .small:not(:empty)")  # loaded
    admin.fill(f"[data-testid=limits-loss-{player}]", "50")
    admin.click(f"[data-testid=limits-save-{player}]")
    token = server.post("/api/auth/login", body={"name": player, "password": "password-123"}).json()["token"]
    boss = {"Authorization": f"Bearer {server.admin_token()}"}
    until(
        lambda: _get(server, f"/api/admin/players/{player}/limits", boss).json()["daily_loss_limit"] == 5000,
        "the house's limit was not saved",
    )
    admin.select_option("[data-testid=lang]", "en")
    admin.wait_for_selector(f"tr[data-player={player}]")
    admin.click(f"[data-testid=history-{player}] summary")
    admin.wait_for_selector(f"[data-testid=history-{player}] p.muted")  # no round played yet
    admin.screenshot(path=str(artifacts / "back-office-players-en.png"), full_page=True)
    admin.set_viewport_size({"width": 390, "height": 844})
    admin.select_option("[data-testid=lang]", "zh-Hans")
    admin.wait_for_selector(f"tr[data-player={player}]")
    assert admin.evaluate("document.documentElement.scrollWidth") <= 400
    admin.screenshot(path=str(artifacts / "back-office-players-zh-Hans-phone.png"), full_page=True)
    # a table's limits changed from the Tables section, in force from the next round; then put back
    admin.set_viewport_size({"width": 1280, "height": 900})
    admin.goto(f"{server.url}/#/admin/tables")
    try:
        admin.fill("[data-testid=setting-max_bet-web-closed]", "400")
        admin.click("[data-testid=table-settings-save-web-closed]")
        until(
            lambda: (
                _get(server, "/api/admin/tables/web-closed/settings", boss).json()["changes"].get("max_bet") == 40000
            ),
            "the table's settings were not changed",
        )
        admin.wait_for_selector("[data-testid=setting-max_bet-web-closed][value='400.00']")
        admin.evaluate("window.scrollTo(0, 0)")
        admin.screenshot(path=str(artifacts / "back-office-table-settings-zh-Hans.png"), full_page=True)
    finally:
        reset = {"min_bet": None, "max_bet": None, "betting_seconds": None}
        httpx.put(
            f"{server.url}/api/admin/tables/web-closed/settings", json=reset, headers=boss, timeout=HTTP_SECONDS
        ).raise_for_status()
    entries = _get(server, "/api/admin/audit?limit=50", boss).json()["entries"]
    actions = {e["action"] for e in entries if e["actor"] == "admin"}
    assert {
        "staff.dealer_created",
        "staff.suspended",
        "staff.reinstated",
        "staff.limits",
        "settings.changed",
    } <= actions
    assert admin.errors == []


def test_a_player_sets_safer_play_limits_and_the_table_keeps_them(
    browser: Callable[..., Any], server: Any, pit: Pit, artifacts: Path
) -> None:
    _, token = server.register("people")
    page = browser(token)
    page.goto(f"{server.url}/#/limits")
    page.wait_for_selector("[data-testid=limits-facts] dd")
    assert page.get_attribute("nav [data-nav=safer_play]", "aria-current") == "page"
    page.fill("[data-testid=limit-loss]", "12")
    page.fill("[data-testid=limit-reminder]", "30")
    page.click("[data-testid=limits-save]")
    page.wait_for_function("() => document.querySelector('[data-testid=limits-facts]').textContent.includes('12.00')")
    page.fill("[data-testid=limit-loss]", "500")
    page.click("[data-testid=limits-save]")
    page.wait_for_selector("#limits-error:not(:empty)")
    assert "放寬限額請聯絡場方" in page.inner_text("#limits-error")
    page.screenshot(path=str(artifacts / "safer-play-zh-Hant.png"), full_page=True)
    page.select_option("[data-testid=lang]", "en")
    page.wait_for_selector("[data-testid=limits-facts] dd")
    page.screenshot(path=str(artifacts / "safer-play-en.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.select_option("[data-testid=lang]", "zh-Hans")
    page.wait_for_selector("[data-testid=limits-facts] dd")
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    page.screenshot(path=str(artifacts / "safer-play-zh-Hans-phone.png"), full_page=True)
    # at the table: 10.00 is within the 12.00 limit, 5.00 more is not
    pit.betting("web-slow")  # a round open for bets (until the pit closes it)
    first = server.post("/api/tables/web-slow/bets", token, {"client_id": "p1", "bet": "player", "stake": 1000})
    assert first.status_code == 201, first.text
    second = server.post("/api/tables/web-slow/bets", token, {"client_id": "p2", "bet": "player", "stake": 500})
    assert second.status_code == 409 and second.json()["code"] == "limit.daily_loss"
    assert second.json()["params"]["left"] == 200
    explained = page.evaluate("(p) => import('/js/refusals.js').then((m) => m.explain(p))", second.json())
    assert "1,200.00" not in explained and "12.00" in explained and "2.00" in explained
    refused = [e for e in page.errors if e.startswith("Failed to load resource") and "(Forbidden)" in e]
    assert len(refused) == 1, "the loosening the server refused"
    assert [e for e in page.errors if e not in refused] == []
