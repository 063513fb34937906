"""Fixtures of the browser tests: a real table service on a free 127.0.0.1 port and Debian's Chromium.

The server runs in a subprocess with a temporary SQLite database and an admin password; it is stopped
at the end of the session (under xdist, each worker runs its own). Every table the tests play on is
*dealer-paced* with a long betting window: no round opens or closes by itself, the test's ``pit``
(the tables' dealer, as the admin over the dealer routes) opens a round's betting, the test bets in
the page, the pit closes betting and the table deals the coup from its own shoe. Nothing waits out a
countdown; a test about the page's own countdown moves the page's clock (Playwright's clock API)
with the server's countdown messages held back (:data:`SOCKET_GATE`).

Chromium runs in one Playwright session per test module, closed when the module's tests are done,
so that no Playwright event loop is left set in the pytest process. Where /usr/bin/chromium is
absent the browser tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

T = TypeVar("T")

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
#: How long a Playwright wait or an HTTP condition may take (ms): generous, for a machine whose cores
#: are all busy; a wait for something that will come ends as soon as it comes.
TIMEOUT_MS = 90_000
#: How long the server may take to start (s).
SERVER_START_SECONDS = 180
#: HTTP requests to the server (s).
HTTP_SECONDS = 60

TABLES = """
[server]
starting_balance = 100000

# the browser tests register many players and open many sockets from one address
[security]
registrations_per_address = 1000
ws_connects_burst = 1000
ws_connects_per_second = 100

# every table waits for its dealer (the tests' pit) to open and close betting; the window's upper
# bound is long enough never to be reached during a test
[[table]]
id = "web-macau"
name = "Macau 澳門"
variant = "macau"
dealing = "shoe"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 50000

[[table]]
id = "web-nocomm"
name = "No Commission 免佣"
variant = "no_commission"
dealing = "continuous"
dealer_paced = true
betting_seconds = 600
# a result phase long enough to see the chips paid and collected (the others are quick)
settle_pause_seconds = 3

# the squeeze (R23) peeled by its player: the dealer's turn never comes during a test
[[table]]
id = "web-squeeze"
name = "Squeeze 咪牌"
variant = "macau"
dealing = "shoe"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 50000
squeeze = true
squeeze_seconds = 600

# the squeeze left to the dealer: the squeeze time is short
[[table]]
id = "web-squeeze-dealer"
name = "Squeeze, dealer 咪牌 荷官"
variant = "macau"
dealing = "shoe"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 50000
squeeze = true
squeeze_seconds = 1

[[table]]
id = "web-slow"
name = "Slow 慢桌"
variant = "macau"
dealing = "shoe"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 50000

[[table]]
id = "web-live"
name = "Live 真人"
variant = "macau"
dealing = "dealer_entry"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 50000

[[table]]
id = "web-roads"
name = "Roads 好路"
variant = "macau"
dealing = "dealer_entry"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.3
min_bet = 100
max_bet = 50000

[[table]]
id = "web-closed"
name = "Closed 關閉"
variant = "macau"
dealing = "shoe"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.5
"""

# Lets a test hold back the messages of the page's websockets: ``__gate.drop`` lists the types
# dropped (``countdown``: the server's countdown re-anchors the page's deadline every second, so a
# test that moves the page's clock drops it); with ``__gate.holdFrom`` set, the first message of
# that type and every message after it wait until ``__gate.release()`` hands them on, in order.
SOCKET_GATE = """
(() => {
  const Real = window.WebSocket;
  const gate = { drop: [], holdFrom: null, holding: false, held: [] };
  gate.release = () => {
    const held = gate.held.splice(0);
    gate.holding = false;
    gate.holdFrom = null;
    for (const [ws, data] of held) {
      const event = new MessageEvent("message", { data });
      event.__released = true;
      ws.dispatchEvent(event);
    }
  };
  window.__gate = gate;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener("message", (event) => {
        if (event.__released) return;
        let type = null;
        try { type = JSON.parse(event.data).type; } catch { return; }
        if (gate.drop.includes(type)) {
          event.stopImmediatePropagation();
        } else if (gate.holding || (gate.holdFrom && type === gate.holdFrom)) {
          gate.holding = true;
          gate.held.push([this, event.data]);
          event.stopImmediatePropagation();
        }
      });
    }
  };
})();
"""


@dataclass(frozen=True)
class Server:
    """A running table service."""

    url: str
    admin_password: str

    def admin_token(self) -> str:
        """Log in as the admin."""
        answer = httpx.post(
            f"{self.url}/api/auth/login",
            json={"name": "admin", "password": self.admin_password},
            timeout=HTTP_SECONDS,
        )
        answer.raise_for_status()
        return str(answer.json()["token"])

    def get(self, path: str, token: str | None = None) -> Any:
        """GET an API path and return the JSON."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = httpx.get(f"{self.url}{path}", headers=headers, timeout=HTTP_SECONDS)
        answer.raise_for_status()
        return answer.json()

    def post(self, path: str, token: str | None = None, body: Any = None) -> httpx.Response:
        """POST to an API path (the answer whatever its status)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(f"{self.url}{path}", json=body, headers=headers, timeout=HTTP_SECONDS)

    def register(self, prefix: str = "w") -> tuple[str, str]:
        """Register a new player (a name no other test has); returns the name and its token."""
        name = f"{prefix}{secrets.token_hex(5)}"
        answer = self.post("/api/auth/register", body={"name": name, "password": "password-123"})
        assert answer.status_code == 201, answer.text
        return name, str(answer.json()["token"])


def until(predicate: Callable[[], T | None], what: str, seconds: float = TIMEOUT_MS / 1000) -> T:
    """Until ``predicate()`` (a condition of the server, read over HTTP) is truthy: its value; fails
    the test with ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (value := predicate()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return value


FINISHED = ("settled", "voided")
#: How long a round left in play by an earlier test may take to end by itself before the pit voids it
#: (one a table settles by itself takes well under a second).
PUT_AWAY_SECONDS = 3.0


@dataclass
class Pit:
    """The dealer of the tests' dealer-paced tables: opens and closes their betting as the admin, over
    the dealer's routes (``/api/dealer/tables/{id}/...``), and finds their rounds."""

    server: Server
    token: str = ""
    #: the tables whose betting this pit opened (closed again when the test ends)
    opened: set[str] = field(default_factory=set)

    def _call(self, table: str, what: str, body: Any = None) -> httpx.Response:
        """A dealer's call at the table (POST /api/dealer/tables/{id}/{what}), as the admin."""
        if not self.token:
            self.token = self.server.admin_token()
        return self.server.post(f"/api/dealer/tables/{table}/{what}", self.token, body)

    def round(self, table: str) -> dict[str, Any] | None:
        """The table's current round (or the last one, once over), as GET /api/tables/{id} has it."""
        current = self.server.get(f"/api/tables/{table}")["round"]
        return None if current is None else dict(current)

    def open(self, table: str) -> int:
        """Open a round's betting at the table now (a round found in play is put away first); its id."""
        self.finish(table)
        before = self.round(table)
        answer = until(lambda: self._ask_open(table), f"table {table}: betting did not open")
        assert answer.status_code == 202, answer.text
        self.opened.add(table)
        old = None if before is None else before["id"]
        current = until(
            lambda: (r := self.round(table)) and r["status"] == "betting" and r["id"] != old and r,
            f"table {table}: no round opened",
        )
        return int(current["id"])

    def _ask_open(self, table: str) -> httpx.Response | None:
        """Ask the table to open betting: the answer, or ``None`` while its last round is still being
        put away (``round.in_progress``: the table settles it in a moment)."""
        answer = self._call(table, "open-betting")
        if answer.status_code == 409 and answer.json().get("code") == "round.in_progress":
            return None
        return answer

    def betting(self, table: str) -> int:
        """The id of the table's round open for bets: the one betting now, else a new one."""
        current = self.round(table)
        if current is not None and current["status"] == "betting":
            return int(current["id"])
        return self.open(table)

    def close(self, table: str) -> int:
        """Close the betting of the table's round now (the table then deals the coup); its id."""
        current = self.round(table)
        assert current is not None and current["status"] == "betting", f"table {table}: no round is betting"
        answer = self._call(table, "close-betting")
        assert answer.status_code == 202, answer.text
        until(
            lambda: (r := self.round(table)) and (r["id"] != current["id"] or r["status"] != "betting"),
            f"table {table}: betting did not close",
        )
        return int(current["id"])

    def settled(self, round_id: int) -> dict[str, Any]:
        """Until the round is over (settled or voided); the round (GET /api/rounds/{id})."""
        return dict(
            until(
                lambda: (r := self.server.get(f"/api/rounds/{round_id}"))["status"] in FINISHED and r,
                f"round {round_id} did not settle",
            )
        )

    def play(self, table: str) -> dict[str, Any]:
        """Play a round with no bet of the test's: open, close, settled; the round."""
        self.open(table)
        return self.settled(self.close(table))

    def finish(self, table: str) -> None:
        """Put away the table's round in play: its betting closed and the round over. A round that still
        waits after :data:`PUT_AWAY_SECONDS` (for a squeezer's turn, or for the cards of a dealer-entry
        table) is voided."""
        current = self.round(table)
        if current is None or current["status"] in FINISHED:
            return
        if current["status"] == "betting":
            self._call(table, "close-betting")
        waiting_since = time.monotonic()

        def over() -> bool:
            if self.server.get(f"/api/rounds/{current['id']}")["status"] in FINISHED:
                return True
            waits = self._console(table).get("next") in ("wait_reveal", "enter_card")
            if waits and time.monotonic() - waiting_since > PUT_AWAY_SECONDS:
                self._call(table, "void", {"reason": "put away before the next round"})
            return False

        until(over, f"table {table}: round {current['id']} did not end")

    def _console(self, table: str) -> dict[str, Any]:
        """The dealer's console view of the table (GET /api/dealer/tables/{id})."""
        if not self.token:
            self.token = self.server.admin_token()
        return dict(self.server.get(f"/api/dealer/tables/{table}", self.token))

    def close_opened(self) -> None:
        """Close the betting of every round this pit opened that still takes bets."""
        for table in sorted(self.opened):
            current = self.round(table)
            if current is not None and current["status"] == "betting":
                self._call(table, "close-betting")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_serving(process: subprocess.Popen[bytes], url: str, log: Path) -> None:
    """Until the server answers (it fails the session if it exits or takes too long)."""
    deadline = time.monotonic() + SERVER_START_SECONDS
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            if httpx.get(f"{url}/api/tables", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start within {SERVER_START_SECONDS} s")
        time.sleep(0.2)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The table service in a subprocess on a free port, stopped at the end of the session."""
    folder = tmp_path_factory.mktemp("web-server")
    config = folder / "tables.toml"
    config.write_text(TABLES, encoding="utf-8")
    port = _free_port()
    env = os.environ | {"BACCARAT_ADMIN_PASSWORD": ADMIN_PASSWORD, "BACCARAT_ARGON2_FAST": "1"}
    log_path = folder / "server.log"
    log = log_path.open("wb")
    args = ["--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{folder}/web.db", "--config", str(config)]
    process = subprocess.Popen(
        [sys.executable, "-m", "baccarat.server", *args], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(process, url, log_path)
        yield Server(url=url, admin_password=ADMIN_PASSWORD)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture
def pit(server: Server) -> Iterator[Pit]:
    """The tables' dealer for one test; the rounds it opened that still take bets are closed after it."""
    dealer = Pit(server)
    yield dealer
    dealer.close_opened()


def chromium_or_skip() -> None:
    """Skip the test where Debian's Chromium is not installed (fail under ``CI=true``)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: CI must install Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")


@contextlib.contextmanager
def playwright_chromium() -> Iterator[Any]:
    """Debian's Chromium in a Playwright session of its own: both are stopped on leaving, and with
    them the event loop the session ran (none is left set in the process)."""
    chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=TIMEOUT_MS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser): one Playwright session per
    test module, stopped with it, so that its event loop is gone once the module's tests are done."""
    with playwright_chromium() as browser:
        yield browser


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The folder for screenshots (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def new_context(chromium: Any, *, token: str | None = None, gate: bool = False, **options: Any) -> Any:
    """A browser context with the generous default timeout (Playwright's options: ``locale``,
    ``viewport``…); logged in with ``token``; with ``gate``, its pages' sockets go through
    :data:`SOCKET_GATE`."""
    context = chromium.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    if gate:
        context.add_init_script(SOCKET_GATE)
    if token:
        context.add_init_script(f"localStorage.setItem('baccarat.token', {token!r});")
    return context


def watched_page(context: Any) -> Any:
    """A new page of ``context`` whose console errors and uncaught exceptions collect in ``page.errors``."""
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def hold_countdowns(page: Any) -> None:
    """Drop the server's countdown messages from now on (the page counts down on its own clock)."""
    page.evaluate("() => { window.__gate.drop = ['countdown']; }")


def pause_clock(page: Any) -> None:
    """Pause the page's clock a moment after its time now (its timers fire only as the test moves it
    on: ``page.clock.run_for``, ``fast_forward``, ``resume``). The clock runs on while the test asks:
    a moment that has passed by then is refused, and the next try aims further ahead."""
    from playwright.sync_api import Error

    ahead_ms = 20.0
    while True:
        now_ms = float(page.evaluate("() => Date.now()"))
        try:
            page.clock.pause_at((now_ms + ahead_ms) / 1000)  # Playwright takes Unix seconds here
            return
        except Error as error:
            if "to the past" not in str(error) or ahead_ms > 60_000:
                raise
            ahead_ms *= 2


def freeze_at_seconds_left(page: Any, selector: str, left: float) -> None:
    """Pause the page's clock where the countdown ``selector`` (its ``data-seconds``) has ``left``
    seconds to go, give or take under a second (the page's countdown messages must be held back)."""
    shown = float(page.get_attribute(selector, "data-seconds") or 0)
    assert shown > left + 1, f"the countdown shows {shown} s, not more than {left + 1}"
    now_ms = float(page.evaluate("() => Date.now()"))
    page.clock.pause_at((now_ms + (shown - left) * 1000) / 1000)  # Playwright takes Unix seconds here


#: Whether the table page shows round ``n`` open for bets (its phase line names the round's number).
PAGE_BETTING = """(n) => {
  const phase = document.querySelector("#phase");
  return Boolean(phase) && phase.dataset.status === "betting" && new RegExp(`(^|\\\\D)${n}(\\\\D|$)`).test(phase.textContent);
}"""


def open_in_page(pit: Pit, table: str, *pages: Any) -> int:
    """Open a round's betting at the table and wait until each page (the table's page) takes its bets;
    the round's id."""
    round_id = pit.open(table)
    current = pit.round(table)
    assert current is not None and int(current["id"]) == round_id
    for page in pages:
        page.wait_for_function(PAGE_BETTING, arg=int(current["number"]))
    return round_id
