"""Fixtures of the browser tests: a real table service on a free 127.0.0.1 port and Debian's Chromium.

The server runs in a subprocess with a temporary SQLite database, fast tables (one of them with the
squeeze, R23) and an admin password; it is stopped at the end of the session. Where /usr/bin/chromium is absent the browser
tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ADMIN_PASSWORD = "web-admin-secret-1"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

TABLES = """
[server]
starting_balance = 100000

# the browser tests register many players and open many sockets from one address
[security]
registrations_per_address = 1000
ws_connects_burst = 1000
ws_connects_per_second = 100

[[table]]
id = "web-macau"
name = "Macau 澳門"
variant = "macau"
dealing = "shoe"
betting_seconds = 5
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 50000

[[table]]
id = "web-nocomm"
name = "No Commission 免佣"
variant = "no_commission"
dealing = "continuous"
betting_seconds = 5
# a result phase long enough to see the chips paid and collected (the others are quick)
settle_pause_seconds = 3

[[table]]
id = "web-squeeze"
name = "Squeeze 咪牌"
variant = "macau"
dealing = "shoe"
betting_seconds = 4
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 50000
squeeze = true
squeeze_seconds = 8

[[table]]
id = "web-slow"
name = "Slow 慢桌"
variant = "macau"
dealing = "shoe"
betting_seconds = 20
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 50000

[[table]]
id = "web-live"
name = "Live 真人"
variant = "macau"
dealing = "dealer_entry"
dealer_paced = true
betting_seconds = 30
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 50000

[[table]]
id = "web-roads"
name = "Roads 好路"
variant = "macau"
dealing = "dealer_entry"
betting_seconds = 1
settle_pause_seconds = 0.3
min_bet = 100
max_bet = 50000

[[table]]
id = "web-closed"
name = "Closed 關閉"
variant = "macau"
dealing = "shoe"
betting_seconds = 5
settle_pause_seconds = 0.5
"""


@dataclass(frozen=True)
class Server:
    """A running table service."""

    url: str
    admin_password: str

    def admin_token(self) -> str:
        """Log in as the admin."""
        answer = httpx.post(f"{self.url}/api/auth/login", json={"name": "admin", "password": self.admin_password})
        answer.raise_for_status()
        return str(answer.json()["token"])

    def get(self, path: str, token: str | None = None) -> Any:
        """GET an API path and return the JSON."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = httpx.get(f"{self.url}{path}", headers=headers, timeout=10)
        answer.raise_for_status()
        return answer.json()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The table service in a subprocess on a free port, stopped at the end of the session."""
    folder = tmp_path_factory.mktemp("web-server")
    config = folder / "tables.toml"
    config.write_text(TABLES, encoding="utf-8")
    port = _free_port()
    env = os.environ | {"BACCARAT_ADMIN_PASSWORD": ADMIN_PASSWORD, "BACCARAT_ARGON2_FAST": "1"}
    log = (folder / "server.log").open("wb")
    args = ["--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{folder}/web.db", "--config", str(config)]
    process = subprocess.Popen(
        [sys.executable, "-m", "baccarat.server", *args], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited: {(folder / 'server.log').read_text(errors='replace')[-2000:]}")
            try:
                if httpx.get(f"{url}/api/tables", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start within 30 s")
            time.sleep(0.2)
        yield Server(url=url, admin_password=ADMIN_PASSWORD)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: CI must install Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The folder for screenshots (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def watched_page(context: Any) -> Any:
    """A new page of ``context`` whose console errors and uncaught exceptions collect in ``page.errors``."""
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page
