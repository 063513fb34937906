"""The admin credential: refused at start-up under 12 characters (exit status 2, a clear message);
the admin account follows the configured password, and is disabled (its sessions ended) when none is set."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import close_open_clients, write_tables
from tests.server.security_support import start

from baccarat.errors import InputError
from baccarat.server.settings import load_lobby


@pytest.fixture(autouse=True)
def _close_apps() -> Iterator[None]:
    yield
    close_open_clients()


@pytest.mark.parametrize("command", [["-m", "baccarat.server"], ["-m", "baccarat", "serve"]])
def test_a_short_admin_password_stops_the_start_with_status_2(tmp_path: Path, command: list[str]) -> None:
    config = write_tables(tmp_path / "tables.toml")
    env = dict(os.environ, BACCARAT_ADMIN_PASSWORD="seven77", BACCARAT_ARGON2_FAST="1")
    done = subprocess.run(
        [sys.executable, *command, "--port", "1", "--db", str(tmp_path / "x.db"), "--config", str(config)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "admin password has 7 characters; it needs at least 12" in done.stderr + done.stdout
    assert "seven77" not in done.stderr + done.stdout  # the password itself is never printed
    assert not (tmp_path / "x.db").exists()  # refused before anything is served or stored


def test_load_lobby_refuses_a_short_password_from_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BACCARAT_ADMIN_PASSWORD", raising=False)
    path = tmp_path / "t.toml"
    path.write_text(write_tables(path).read_text().replace("admin-secret-1", "elevenchars"), encoding="utf-8")
    with pytest.raises(InputError, match="at least 12"):
        load_lobby(path)
    path.write_text(path.read_text().replace("elevenchars", "twelve-chars"), encoding="utf-8")
    assert load_lobby(path).admin_password == "twelve-chars"


def _login(client: TestClient, password: str) -> int:
    return client.post("/api/auth/login", json={"name": "admin", "password": password}).status_code


def test_the_admin_account_follows_the_configured_password(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/a.db"
    first = start(tmp_path, db, lobby={"admin_password": "first-password-1"}, run_tables=False, name="a.toml")
    token = first.post("/api/auth/login", json={"name": "admin", "password": "first-password-1"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    close_open_clients()
    same = start(tmp_path, db, lobby={"admin_password": "first-password-1"}, run_tables=False, name="b.toml")
    assert same.get("/api/me", headers=headers).status_code == 200  # unchanged: the session goes on
    close_open_clients()
    second = start(tmp_path, db, lobby={"admin_password": "second-password-2"}, run_tables=False, name="c.toml")
    assert _login(second, "first-password-1") == 401
    assert second.get("/api/me", headers=headers).status_code == 401  # the old session ended
    token = second.post("/api/auth/login", json={"name": "admin", "password": "second-password-2"}).json()["token"]
    close_open_clients()
    unset = start(tmp_path, db, lobby={"admin_password": None}, run_tables=False, name="d.toml")
    assert _login(unset, "second-password-2") == 401  # disabled
    assert unset.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert unset.get("/api/admin/ledger", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    close_open_clients()
    again = start(tmp_path, db, lobby={"admin_password": "third-password-3"}, run_tables=False, name="e.toml")
    assert _login(again, "third-password-3") == 200  # set again: enabled again
