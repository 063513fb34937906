"""A player registers with a Chinese name (張三…) in the log-in dialog, sees it as typed, sits, and
the other players see it masked (張***…); a name typed full width is the same name. No console errors."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import new_context, watched_page

from baccarat.server.observer.names import display_name

pytestmark = pytest.mark.browser

TABLE = "web-slow"


def _register(page: Any, name: str) -> None:
    page.click("#login-button")
    page.fill("[data-testid=login-name]", name)
    page.fill("[data-testid=login-password]", "password-123")
    page.click("[data-testid=register-submit]")
    page.wait_for_selector("[data-testid=balance]")


def test_a_chinese_name_is_shown_as_typed_to_its_player_and_masked_to_the_others(
    chromium: Any, server: Any, artifacts: Path
) -> None:
    name = f"張三{secrets.randbelow(10**6):06d}"
    player = new_context(chromium, locale="zh-TW", viewport={"width": 1280, "height": 900})
    other = new_context(chromium, locale="zh-TW", viewport={"width": 390, "height": 844})
    try:
        page = watched_page(player)
        page.goto(f"{server.url}/#/table/{TABLE}")
        page.wait_for_selector("#conn[data-state=open]")
        _register(page, name)
        assert page.inner_text(".account .who") == name
        seat = str(page.get_attribute("#seats button.seat[data-state=free]", "data-seat"))
        page.click(f"#seats button.seat[data-seat='{seat}']")
        page.wait_for_selector("#buy-in-dialog[open]")
        page.click("#buy-in-confirm")
        page.wait_for_selector(f"#seat-status[data-seat='{seat}']")
        watcher = watched_page(other)
        watcher.goto(f"{server.url}/#/table/{TABLE}")
        masked = display_name(name)
        assert masked is not None and masked.startswith("張***")
        taken = watcher.wait_for_selector(f"#seats button.seat[data-seat='{seat}'][data-state=taken]")
        assert masked in taken.inner_text() and name not in watcher.content()
        watcher.screenshot(path=str(artifacts / "name-masked-zh-Hant-390.png"))
        page.screenshot(path=str(artifacts / "name-own-zh-Hant-1280.png"))
        assert page.errors == [] and watcher.errors == []
    finally:
        player.close()
        other.close()


def test_a_name_typed_full_width_logs_in_to_the_same_account(chromium: Any, server: Any) -> None:
    digits = f"{secrets.randbelow(10**6):06d}"
    context = new_context(chromium, locale="zh-TW", viewport={"width": 1280, "height": 900})
    try:
        page = watched_page(context)
        page.goto(f"{server.url}/#/")
        _register(page, f"ｗｉｄｅ{digits}")  # full-width letters
        assert page.inner_text(".account .who") == f"wide{digits}"
        assert page.errors == []
    finally:
        context.close()
