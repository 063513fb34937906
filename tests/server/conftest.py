"""Fixtures of the server tests: a database per test (SQLite file, or a fresh PostgreSQL schema),
a lobby file with fast rounds, and a running app (FastAPI TestClient).

PostgreSQL is at 127.0.0.1:5432 (trust auth, database ``test``, user ``postgres`` or ``root``).
Where it is unreachable the PostgreSQL tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

os.environ.setdefault("BACCARAT_ARGON2_FAST", "1")

from baccarat.server.app import create_app
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import load_lobby

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


_OPEN_CLIENTS: list[TestClient] = []


def close_open_clients() -> None:
    """Shut down every app a test started (its round loops and database connections)."""
    while _OPEN_CLIENTS:
        _OPEN_CLIENTS.pop().__exit__(None, None, None)


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Start an app (lifespan included) on a database; closed at the end of the test."""
    started = 0

    def make(db: str, *, betting: float = 1.0, **options: Any) -> TestClient:
        nonlocal started
        lobby = load_lobby(write_tables(tmp_path / f"tables{started}.toml", betting=betting))
        started += 1
        client = TestClient(create_app(ServiceOptions(db_url=db, lobby=lobby, **options)))
        client.__enter__()
        _OPEN_CLIENTS.append(client)
        return client

    yield make
    close_open_clients()


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


def wait_for(predicate: Callable[[], Any], *, timeout: float = 10.0, step: float = 0.05) -> Any:
    """Poll until ``predicate()`` is truthy; returns its value (fails the test on timeout)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("condition not reached in time")


def betting_round(client: TestClient, table: str, left: float = 0.6) -> dict[str, Any]:
    """Wait for a round of the table that is betting with at least ``left`` seconds left; returns it."""

    def ready() -> dict[str, Any] | None:
        current = client.get(f"/api/tables/{table}").json()["round"]
        if current and current["status"] == "betting" and current["closes_at"] - time.time() > left:
            return dict(current)
        return None

    return dict(wait_for(ready))


def close_table(client: TestClient, table: str) -> None:
    """Close a table as the admin and wait until its last round has ended and no other will start."""
    assert client.post(f"/api/admin/tables/{table}/close", headers=admin(client)).status_code == 200
    time.sleep(0.5)  # a round the loop was opening as the table closed has opened by now (and is waited for)

    def finished() -> bool:
        detail = client.get(f"/api/tables/{table}").json()
        current = detail["round"]
        return bool(detail["table"]["phase"] == "idle" and current and current["status"] in ("settled", "voided"))

    wait_for(finished)
