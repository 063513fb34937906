"""Fixtures of the server tests: a database per test (SQLite file, or a fresh PostgreSQL schema),
a lobby file with fast rounds, and a running app (FastAPI TestClient).

A test that asks for the ``clock`` fixture runs its apps on a :class:`ManualClock`: their time
stands still until the test moves it (``clock.advance``, ``clock.run_until``), so a round is
played through as fast as it can be computed, and the betting window cannot close between two of
the test's requests, however slow the machine. The store reads the same clock (its ``time`` is
routed to the test's clock), so the rows' dates, when a round closes and when a table's lease
expires follow it too. The apps of a test without it run on the real clock.

PostgreSQL is at 127.0.0.1:5432 (trust auth, database ``test``, user ``postgres`` or ``root``).
Where it is unreachable the PostgreSQL tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
import secrets
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

os.environ.setdefault("BACCARAT_ARGON2_FAST", "1")

from baccarat.server.app import create_app
from baccarat.server.clock import ManualClock
from baccarat.server.service import Service, ServiceOptions
from baccarat.server.settings import load_lobby

T = TypeVar("T")

ADMIN_PASSWORD = "admin-secret-1"

FAST_TABLES = """
[server]
starting_balance = 100000
admin_password = "{admin}"

[[table]]
id = "macau"
name = "Macau"
variant = "macau"
dealing = "shoe"
betting_seconds = {betting}
settle_pause_seconds = 0.05
min_bet = 100
max_bet = 20000

[[table]]
id = "predealt"
name = "Pre-dealt"
variant = "standard"
dealing = "pre_dealt"
betting_seconds = {betting}
settle_pause_seconds = 0.05

[[table]]
id = "cont"
name = "Continuous"
variant = "no_commission"
dealing = "continuous"
betting_seconds = {betting}
settle_pause_seconds = 0.05
coups_per_seed = 2

[[table]]
id = "live"
name = "Dealer entry"
variant = "macau"
dealing = "dealer_entry"
betting_seconds = {betting}
settle_pause_seconds = 0.05
open = false
"""


def _pg_base() -> str | None:
    import psycopg

    for user in ("postgres", "root"):
        try:
            with psycopg.connect(f"host=127.0.0.1 port=5432 dbname=test user={user}", connect_timeout=3):
                return f"postgresql+psycopg://{user}@127.0.0.1:5432/test"
        except Exception:
            continue
    return None


_PG_BASE: list[str | None] = []


def pg_base_or_skip() -> str:
    """The PostgreSQL base URL, or skip (fail under CI=true) when it is unreachable."""
    if not _PG_BASE:
        _PG_BASE.append(_pg_base())
    base = _PG_BASE[0]
    if base is None:
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is unreachable, and CI=true requires it")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")
    return base


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema for one test, dropped afterwards."""
    import psycopg

    base = pg_base_or_skip()
    schema = f"t_{int(time.time())}_{secrets.token_hex(4)}"
    conninfo = base.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{base}?options=-csearch_path%3D{schema}"
    finally:
        close_open_clients()  # stop every app on this schema before dropping it (else DROP deadlocks)
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL for one test, on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/test.db"
    return str(request.getfixturevalue("pg_url"))


def write_tables(path: Path, *, betting: float = 1.0) -> Path:
    """A lobby file with fast rounds."""
    path.write_text(FAST_TABLES.format(admin=ADMIN_PASSWORD, betting=betting), encoding="utf-8")
    return path


#: Modules of the server that keep the real clock: the clock itself, and the HTTP layer, whose
#: token cache and rate limits time the connections, not the game.
REAL_TIME_MODULES = ("baccarat.server.clock", "baccarat.server.app", "baccarat.server.api")


class _ClockTime:
    """The ``time`` module as a server module sees it in a test: wall and monotonic time read from
    the test's clock, everything else (``sleep``, ``perf_counter``, …) the real module's."""

    def __init__(self, clock: ManualClock) -> None:
        self._clock = clock

    def time(self) -> float:
        return self._clock.time()

    def monotonic(self) -> float:
        return self._clock.monotonic()

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def _keeps_real_time(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in REAL_TIME_MODULES)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> ManualClock:
    """The time of the test's apps, moved only by the test; the store's wall clock follows it."""
    manual = ManualClock()
    routed = _ClockTime(manual)
    for name, module in list(sys.modules.items()):
        if name.startswith("baccarat.server.") and not _keeps_real_time(name) and getattr(module, "time", None) is time:
            monkeypatch.setattr(module, "time", routed)
    return manual


_OPEN_CLIENTS: list[TestClient] = []


def close_open_clients() -> None:
    """Shut down every app a test started (its round loops and database connections)."""
    while _OPEN_CLIENTS:
        _OPEN_CLIENTS.pop().__exit__(None, None, None)


def service_of(client: TestClient) -> Service:
    """The service behind an app."""
    service = client.app.state.service  # type: ignore[attr-defined]
    assert isinstance(service, Service)
    return service


def clock_of(client: TestClient) -> ManualClock:
    """The manual clock an app runs on."""
    clock = service_of(client).clock
    assert isinstance(clock, ManualClock)
    return clock


def start_app(options: ServiceOptions) -> TestClient:
    """Start an app (lifespan included); closed by :func:`close_open_clients`. On a manual clock,
    the clock waits, after each wake-up, until the app has no database call under way."""
    client = TestClient(create_app(options))
    client.__enter__()
    _OPEN_CLIENTS.append(client)
    if isinstance(options.clock, ManualClock):
        service = service_of(client)
        options.clock.add_idle_check(lambda: service.in_flight == 0)
    return client


@pytest.fixture
def make_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Start an app on a database (on the test's ``clock`` when the test asks for one, unless
    ``clock=`` says otherwise); closed at the end of the test."""
    started = 0
    manual = request.getfixturevalue("clock") if "clock" in request.fixturenames else None

    def make(db: str, *, betting: float = 1.0, **options: Any) -> TestClient:
        nonlocal started
        lobby = load_lobby(write_tables(tmp_path / f"tables{started}.toml", betting=betting))
        started += 1
        if manual is not None:
            options.setdefault("clock", manual)
        return start_app(ServiceOptions(db_url=db, lobby=lobby, **options))

    yield make
    close_open_clients()


def while_advancing(clock: ManualClock, call: Callable[[], T], *, step: float = 0.05) -> T:
    """Run ``call`` (a request that waits on the apps' time) in a thread of its own while the
    clock moves on; its value, or its exception."""
    done: Future[T] = Future()

    def run() -> None:
        try:
            done.set_result(call())
        except BaseException as error:
            done.set_exception(error)

    threading.Thread(target=run, name="request", daemon=True).start()
    clock.run_until(done.done, step=step)
    return done.result()


def receive(clock: ManualClock, ws: Any) -> Any:
    """The next message of a websocket, the clock moving on until one comes."""
    return while_advancing(clock, ws.receive_json, step=0.1)


def register(client: TestClient, name: str, password: str = "password-1") -> dict[str, str]:
    """Register a player; returns the Authorization header."""
    response = client.post("/api/auth/register", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def admin(client: TestClient) -> dict[str, str]:
    """Log the admin in; returns the Authorization header."""
    response = client.post("/api/auth/login", json={"name": "admin", "password": ADMIN_PASSWORD})
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def wait_for(client: TestClient, predicate: Callable[[], T | None], *, timeout: float = 60.0) -> T:
    """Until ``predicate()`` is truthy, returns its value: on a manual clock, move it on; on the
    real clock, look again every 50 ms (fails the test after ``timeout`` seconds, generous: it bounds
    only a failure)."""
    clock = service_of(client).clock
    if isinstance(clock, ManualClock):
        return clock.run_until(predicate)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("condition not reached in time")


def betting_round(client: TestClient, table: str, left: float = 0.6) -> dict[str, Any]:
    """Wait for a round of the table that is betting with at least ``left`` seconds left; returns it
    (on a manual clock, the time then stands still until the test moves it)."""
    clock = service_of(client).clock

    def ready() -> dict[str, Any] | None:
        current = client.get(f"/api/tables/{table}").json()["round"]
        if current and current["status"] == "betting" and current["closes_at"] - clock.time() > left:
            return dict(current)
        return None

    return wait_for(client, ready)


def close_table(client: TestClient, table: str) -> None:
    """Close a table as the admin and wait until its last round has ended and no other will start
    (an app on a manual clock: the time stands still, so no round opens between the close and the
    first look)."""
    clock_of(client)
    assert client.post(f"/api/admin/tables/{table}/close", headers=admin(client)).status_code == 200

    def finished() -> bool:
        detail = client.get(f"/api/tables/{table}").json()
        current = detail["round"]
        return bool(detail["table"]["phase"] == "idle" and current and current["status"] in ("settled", "voided"))

    wait_for(client, finished)
