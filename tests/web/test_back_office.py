"""The back office in the browser: a player bets over the REST API, the admin logs in through the
dialog and reads the report (its GGR is the players' net loss), downloads the CSV, closes and reopens
a table in the Tables section and finds both changes in the audit log; a player is refused; the
three languages and a phone's width; no console errors."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import Pit, new_context, watched_page

pytestmark = pytest.mark.browser

TABLE = "web-macau"
BETS = [("banker", 1000), ("player", 500), ("tie", 100)]
ROUNDS = 2


def _context(chromium: Any, locale: str = "zh-TW", width: int = 1280) -> Any:
    return new_context(chromium, locale=locale, viewport={"width": width, "height": 900})


def _page(context: Any) -> Any:
    page = watched_page(context)
    return page


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    """A fresh desktop page in Traditional Chinese that records console errors."""
    context = _context(chromium)
    yield _page(context)
    context.close()


def _play(server: Any, pit: Pit, token: str) -> int:
    """Bet the plan in ``ROUNDS`` rounds of the table over the REST API; returns the stakes."""
    assert server.post(f"/api/tables/{TABLE}/join", token, {"buy_in": 50000}).status_code == 201
    staked, serial = 0, 0
    for _ in range(ROUNDS):
        round_id = pit.open(TABLE)
        for bet, stake in BETS:
            serial += 1
            body = {"client_id": f"bo-{round_id}-{serial}", "bet": bet, "stake": stake, "round_id": round_id}
            answer = server.post(f"/api/tables/{TABLE}/bets", token, body)
            assert answer.status_code == 201, answer.text
            staked += stake
        assert pit.settled(pit.close(TABLE))["status"] == "settled"
    return staked


def _today_total(report: dict[str, Any], day: str) -> dict[str, Any]:
    rows = [row for row in report["days"] if row["table"] == TABLE and row["day"] == day]
    return rows[0]["total"] if rows else {"ggr": 0, "handle": 0}


def _log_in_as_admin(page: Any, server: Any) -> None:
    page.click("#login-button")
    page.fill("[data-testid=login-name]", "admin")
    page.fill("[data-testid=login-password]", server.admin_password)
    page.click("[data-testid=login-submit]")
    page.wait_for_selector("#logout-button")


def test_back_office_reports_tables_and_audit(page: Any, chromium: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    boss = server.admin_token()
    today = datetime.now(UTC).date().isoformat()
    pit.finish(TABLE)  # no round of an earlier test's still to settle
    before = _today_total(server.get("/api/admin/reports", boss), today)
    name, player = server.register("bo")
    staked = _play(server, pit, player)
    me = server.get("/api/me", player)
    net_loss = 100000 - me["balance"] + me["commission_owed"]

    # a player is refused, whatever the section
    page.goto(f"{server.url}/")
    page.evaluate("(token) => localStorage.setItem('baccarat.token', token)", player)
    page.goto(f"{server.url}/#/admin/reports")
    page.reload()  # the session is read from the stored token as the page loads
    refused = page.wait_for_selector(f"[data-testid=admin-refused]:has-text('{name}')")
    assert "管理者" in refused.inner_text()
    assert page.query_selector("[data-testid=report-table]") is None
    page.click("#logout-button")
    page.wait_for_selector("[data-testid=admin-refused]:has-text('管理者')")

    # the admin logs in through the dialog and reads today's report of the table
    _log_in_as_admin(page, server)
    page.wait_for_selector("[data-testid=report-table]")
    assert page.get_attribute("[data-testid=admin-nav-reports]", "aria-current") == "page"
    cell = f"tbody[data-table={TABLE}][data-day='{today}'] tr[data-bet=total] td[data-field=%s]"
    shown_ggr = int(page.get_attribute(cell % "ggr", "data-value"))
    shown_handle = int(page.get_attribute(cell % "handle", "data-value"))
    assert shown_handle - before["handle"] == staked
    assert shown_ggr - before["ggr"] == net_loss
    after = _today_total(server.get("/api/admin/reports", boss), today)
    assert (shown_ggr, shown_handle) == (after["ggr"], after["handle"])
    assert "σ" in page.inner_text("[data-testid=report-table]")
    assert "毛收入" in page.inner_text("[data-testid=report-table] thead")
    page.screenshot(path=str(artifacts / "back-office-reports-zh-Hant.png"), full_page=True)

    # the CSV download, one row per table, day and bet, agreeing with the page
    with page.expect_download() as download:
        page.click("[data-testid=report-csv]")
    assert download.value.suggested_filename == "report-all-tables-start-end.csv"
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    mine = [row for row in rows if row["table"] == TABLE and row["day"] == today]
    assert {row["bet"] for row in mine} >= {bet for bet, _ in BETS}
    assert sum(int(row["ggr"]) for row in mine) == shown_ggr
    assert sum(int(row["handle"]) for row in mine) == shown_handle

    # the Tables section in English: close and reopen a table (or open and close it again)
    page.select_option("[data-testid=lang]", "en")
    page.click("[data-testid=admin-nav-tables]")
    target = "web-closed"
    page.wait_for_selector(f"[data-testid=table-state-{target}]")
    was_open = server.get(f"/api/tables/{target}")["open"]
    first, second = ("close", "open") if was_open else ("open", "close")
    page.click(f"[data-testid=table-{first}-{target}]")
    page.wait_for_selector(f"[data-testid=table-{second}-{target}]:not([disabled])")
    assert server.get(f"/api/tables/{target}")["open"] is not was_open
    page.click(f"[data-testid=table-{second}-{target}]")
    page.wait_for_selector(f"[data-testid=table-{first}-{target}]:not([disabled])")
    assert server.get(f"/api/tables/{target}")["open"] is was_open
    assert "Change shoe" in page.inner_text(f"[data-testid=admin-table-{target}]")
    page.screenshot(path=str(artifacts / "back-office-tables-en.png"), full_page=True)

    # the Audit section in 简体中文: both changes, newest first, the table filter
    page.select_option("[data-testid=lang]", "zh-Hans")
    page.click("[data-testid=admin-nav-audit]")
    page.wait_for_selector("[data-testid=audit-log] li")
    page.select_option("[data-testid=audit-filter-table]", target)
    page.wait_for_function(
        f"() => [...document.querySelectorAll('[data-testid=audit-log] li')].every(li => li.dataset.table === '{target}')"
    )
    actions = page.eval_on_selector_all("[data-testid=audit-log] li", "items => items.map(li => li.dataset.action)")
    assert actions[:2] == [f"settings.{second}", f"settings.{first}"]
    assert "开桌" in page.inner_text("[data-testid=audit-log]") and "关桌" in page.inner_text("[data-testid=audit-log]")
    page.screenshot(path=str(artifacts / "back-office-audit-zh-Hans.png"), full_page=True)
    assert page.errors == []

    # a phone's width
    phone = _context(chromium, width=390)
    try:
        small = _page(phone)
        small.goto(f"{server.url}/")
        small.evaluate("(token) => localStorage.setItem('baccarat.token', token)", boss)
        small.goto(f"{server.url}/#/admin/reports")
        small.reload()
        small.wait_for_selector("[data-testid=report-table]")
        width = small.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 400, f"the page is {width} px wide on a 390 px screen"
        small.screenshot(path=str(artifacts / "back-office-reports-phone.png"), full_page=True)
        assert small.errors == []
    finally:
        phone.close()
