"""A Playwright session leaves no asyncio event loop behind: while it runs, its loop is marked as
running in the process (``asyncio.run()`` refuses to start); once it is stopped, as the browser
tests' ``chromium`` fixture stops it at the end of each test module, ``asyncio.run()`` works again
in the same process (the server tests that run their own loops may come after the browser tests)."""

from __future__ import annotations

import asyncio

import pytest
from tests.web.conftest import playwright_chromium

pytestmark = pytest.mark.browser


async def _answer() -> int:
    await asyncio.sleep(0)
    return 42


def test_asyncio_runs_again_once_a_playwright_session_is_stopped() -> None:
    with playwright_chromium() as browser:
        page = browser.new_page()
        page.set_content("<p id=hello>hello</p>")
        assert page.inner_text("#hello") == "hello"
        coroutine = _answer()
        with pytest.raises(RuntimeError, match="running event loop"):
            asyncio.run(coroutine)  # the session's loop is the process's running loop meanwhile
        coroutine.close()
    assert asyncio.run(_answer()) == 42
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()  # and none is left marked as running
