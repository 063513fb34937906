"""Sessions: log-out and a password change end sessions at once, in every process, and close the
websockets authenticated with them; an idle timeout and an absolute lifetime; ended sessions pruned."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import close_open_clients, register, write_tables
from tests.server.security_support import Ticks, context_of, start

from baccarat.server.clock import ManualClock
from baccarat.server.policy import Policy


@pytest.fixture(autouse=True)
def _close_apps() -> Iterator[None]:
    yield
    close_open_clients()


def _auth(ws: Any, token: str) -> None:
    assert ws.receive_json()["type"] == "snapshot"
    ws.send_json({"type": "auth", "token": token})
    while (message := ws.receive_json())["type"] != "authenticated":
        assert message["type"] != "error", message


def _closed_with(ws: Any) -> tuple[dict[str, Any], int]:
    """The last message before the server closed the connection, and the close code."""
    last: dict[str, Any] = {}
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(1000):
            last = ws.receive_json()
    return last, closed.value.code


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def test_logout_ends_the_session_and_closes_its_websockets(tmp_path: Path) -> None:
    client = start(tmp_path, f"sqlite:///{tmp_path}/o.db", run_tables=False)
    headers = register(client, "ann")
    other = client.post("/api/auth/login", json={"name": "ann", "password": "password-1"}).json()["token"]
    with client.websocket_connect("/ws/tables/macau") as ws, client.websocket_connect("/ws/tables/macau") as kept:
        _auth(ws, _token(headers))
        _auth(kept, other)
        assert client.post("/api/auth/logout", headers=headers).json() == {"ok": True}
        last, code = _closed_with(ws)
        assert code == 4401 and last["type"] == "error" and last["code"] == "auth.invalid"
        kept.send_json({"type": "balance", "ref": 1})  # another session of the same user goes on
        assert kept.receive_json()["type"] == "balance"
    assert client.get("/api/me", headers=headers).status_code == 401
    assert client.get("/api/me", headers={"Authorization": f"Bearer {other}"}).status_code == 200


def test_a_bet_on_a_socket_whose_session_ended_is_refused(tmp_path: Path) -> None:
    client = start(tmp_path, f"sqlite:///{tmp_path}/b.db", run_tables=False)
    headers = register(client, "ann")
    service = context_of(client).service
    with client.websocket_connect("/ws/tables/macau") as ws:
        _auth(ws, _token(headers))
        # the session ends behind the app's back (as if another process ended it unannounced)
        service.store.accounts.end_session(_token(headers))
        context_of(client).sessions.cache.drop_where(lambda _: True)
        ws.send_json({"type": "bet", "client_id": "x1", "bet": "banker", "stake": 100, "ref": "b"})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "auth.invalid" and reply["ref"] == "b"
        _, code = _closed_with(ws)
        assert code == 4401


def test_logout_everywhere_and_password_change_end_every_session(tmp_path: Path) -> None:
    client = start(tmp_path, f"sqlite:///{tmp_path}/p.db", run_tables=False)
    first = register(client, "ann", "old-password")
    second = {
        "Authorization": "Bearer "
        + client.post("/api/auth/login", json={"name": "ann", "password": "old-password"}).json()["token"]
    }
    wrong = client.post(
        "/api/auth/password", headers=first, json={"old_password": "nope-nope", "new_password": "new-password"}
    )
    assert wrong.status_code == 401 and wrong.json()["code"] == "auth.invalid"
    assert client.get("/api/me", headers=second).status_code == 200
    with client.websocket_connect("/ws/tables/macau") as ws:
        _auth(ws, _token(second))
        changed = client.post(
            "/api/auth/password", headers=first, json={"old_password": "old-password", "new_password": "new-password"}
        )
        assert changed.status_code == 200, changed.text
        assert _closed_with(ws)[1] == 4401
    assert client.get("/api/me", headers=first).status_code == 401
    assert client.get("/api/me", headers=second).status_code == 401
    fresh = {"Authorization": f"Bearer {changed.json()['token']}"}
    assert client.get("/api/me", headers=fresh).json()["name"] == "ann"
    assert client.post("/api/auth/login", json={"name": "ann", "password": "old-password"}).status_code == 401
    again = {
        "Authorization": "Bearer "
        + client.post("/api/auth/login", json={"name": "ann", "password": "new-password"}).json()["token"]
    }
    assert client.post("/api/auth/logout?everywhere=true", headers=again).status_code == 200
    assert client.get("/api/me", headers=fresh).status_code == 401
    ann = client.post("/api/auth/login", json={"name": "ann", "password": "new-password"}).json()
    assert context_of(client).service.store.accounts.sessions.count(ann["user"]["id"]) == 1  # only the newest


def test_the_admin_password_is_not_changed_through_the_api(tmp_path: Path) -> None:
    client = start(tmp_path, f"sqlite:///{tmp_path}/ad.db", run_tables=False)
    from tests.server.conftest import ADMIN_PASSWORD, admin

    refused = client.post(
        "/api/auth/password", headers=admin(client), json={"old_password": ADMIN_PASSWORD, "new_password": "x" * 20}
    )
    assert refused.status_code == 403 and refused.json()["code"] == "auth.forbidden"


def test_idle_timeout_absolute_lifetime_and_pruning(tmp_path: Path, clock: ManualClock) -> None:
    ticks = Ticks()
    policy = Policy(session_idle_seconds=200.0, session_lifetime_seconds=300.0)
    client = start(tmp_path, f"sqlite:///{tmp_path}/i.db", policy=policy, ticks=ticks, clock=clock, run_tables=False)
    idle, busy = register(client, "ann"), register(client, "bob")

    def advance(seconds: float) -> None:
        clock.advance(seconds)
        ticks.advance(seconds)

    for _ in range(4):  # bob uses his session every 70 s; ann does not
        advance(70.0)
        assert client.get("/api/me", headers=busy).status_code == 200
    assert client.get("/api/me", headers=idle).status_code == 401  # idle 280 s > 200 s
    advance(25.0)
    assert client.get("/api/me", headers=busy).status_code == 401  # 305 s after log-in > 300 s
    # the app's pruner (every 300 s of the clock) has deleted both rows
    accounts = context_of(client).service.store.accounts
    ids = [found[0].id for name in ("ann", "bob") if (found := accounts.password_hash_of(name))]
    assert len(ids) == 2 and all(accounts.sessions.count(i) == 0 for i in ids)
    fresh = register(client, "cid")
    advance(201.0)
    cid = client.post("/api/auth/login", json={"name": "cid", "password": "password-1"}).json()["user"]["id"]
    assert accounts.sessions.count(cid) == 2 and accounts.sessions.prune(idle=policy.session_idle_seconds) == 1
    assert client.get("/api/me", headers=fresh).status_code == 401


@pytest.mark.postgres
@pytest.mark.slow
def test_logout_and_password_change_reach_another_process_at_once(pg_url: str, tmp_path: Path) -> None:
    from tests.server.test_two_process import _start

    config = write_tables(tmp_path / "tables.toml")
    first, url_a = _start(pg_url, config)
    second, url_b = _start(pg_url, config)
    try:
        body = {"name": "pat", "password": "password-1"}
        token = httpx.post(f"{url_a}/api/auth/register", json=body).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        assert httpx.get(f"{url_b}/api/me", headers=headers).status_code == 200  # now cached by the other process
        from websockets.sync.client import connect

        with connect(f"{url_b.replace('http', 'ws')}/ws/tables/macau") as ws:
            assert json.loads(ws.recv(timeout=60))["type"] == "snapshot"
            ws.send(json.dumps({"type": "auth", "token": token}))
            assert _recv_type(ws, "authenticated")
            assert httpx.post(f"{url_a}/api/auth/logout", headers=headers).status_code == 200
            assert _recv_type(ws, "error")["code"] == "auth.invalid"
            assert _closed(ws) == 4401
        assert httpx.get(f"{url_b}/api/me", headers=headers).status_code == 401
        # a password change in one process ends the sessions cached by the other
        login = httpx.post(f"{url_b}/api/auth/login", json=body).json()["token"]
        other = {"Authorization": f"Bearer {login}"}
        assert httpx.get(f"{url_b}/api/me", headers=other).status_code == 200
        new = {"old_password": "password-1", "new_password": "password-2"}
        assert httpx.post(f"{url_a}/api/auth/password", headers=other, json=new).status_code == 200
        assert _until_status(f"{url_b}/api/me", other, 401)
    finally:
        for process in (first, second):
            process.terminate()
        for process in (first, second):
            process.wait(timeout=15)


def _recv_type(ws: Any, kind: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind}")


def _closed(ws: Any) -> int:
    from websockets.exceptions import ConnectionClosed

    try:
        while True:
            ws.recv(timeout=60)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None
        return int(closed.rcvd.code)


def _until_status(url: str, headers: dict[str, str], status: int) -> bool:
    """The NOTIFY arrives within moments (far less than the 30 s a token is trusted from memory,
    even on a busy machine)."""
    deadline = time.monotonic() + 25
    while time.monotonic() < deadline:
        if httpx.get(url, headers=headers).status_code == status:
            return True
        time.sleep(0.05)
    return False
