"""Two server processes on one PostgreSQL database: one runner per table (a lease that moves when its
holder dies), and every process's websocket clients see every event (LISTEN/NOTIFY)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import write_tables
from websockets.sync.client import connect

from baccarat.server.db import make_engine
from baccarat.server.store import Store

#: Real seconds a server start, a message or a lease takeover may take on a busy machine: each
#: wait ends as soon as what it waits for comes, so this bounds only a failure.
PATIENCE = 90.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(db: str, config: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = dict(os.environ, BACCARAT_ARGON2_FAST="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "baccarat.server", "--port", str(port), "--db", db, "--config", str(config)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/tables", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("server did not start")


def _messages(ws: Any, kinds: set[str]) -> list[dict[str, Any]]:
    """The messages read until one of each of ``kinds`` has come (fails after :data:`PATIENCE`)."""
    out: list[dict[str, Any]] = []
    deadline = time.monotonic() + PATIENCE
    while not kinds <= {m["type"] for m in out}:
        try:
            out.append(json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic()))))
        except TimeoutError:
            raise AssertionError(f"not all of {sorted(kinds)} came: {sorted({m['type'] for m in out})}") from None
    return out


def _until(ws: Any, wanted: Any) -> dict[str, Any]:
    """Read messages until one satisfies ``wanted`` (fails after :data:`PATIENCE`)."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        except TimeoutError:
            break
        if wanted(message):
            return dict(message)
    raise AssertionError("message not received in time")


def _bet(ws: Any, client_id: str, round_id: int, ref: str) -> dict[str, Any]:
    ws.send(
        json.dumps(
            {"type": "bet", "ref": ref, "client_id": client_id, "bet": "banker", "stake": 100, "round_id": round_id}
        )
    )
    return _until(ws, lambda m: m.get("ref") == ref)


@pytest.mark.postgres
@pytest.mark.slow
def test_two_processes_share_tables(pg_url: str, tmp_path: Path) -> None:
    # betting windows long enough for a bet passed on from the other process on a busy machine
    config = write_tables(tmp_path / "tables.toml", betting=1.5)
    first, url_a = _start(pg_url, config)
    second, url_b = _start(pg_url, config)
    store = Store(make_engine(pg_url))
    try:
        pids = {first.pid: first, second.pid: second}
        owners = _leases_taken(store)
        assert {int(str(o).split(":")[1]) for o in owners.values()} <= set(pids)
        token = httpx.post(f"{url_b}/api/auth/register", json={"name": "pat", "password": "password-1"}).json()["token"]
        holder_pid = int(str(owners["macau"]).split(":")[1])
        other_url = url_b if holder_pid == first.pid else url_a
        # a client of the process that does not run the table sees its events and bets through it
        with connect(f"{other_url.replace('http', 'ws')}/ws/tables/macau") as ws:
            assert json.loads(ws.recv(timeout=PATIENCE))["type"] == "snapshot"
            ws.send(json.dumps({"type": "auth", "token": token}))
            seen = _messages(ws, {"authenticated", "betting_opened", "round_settled", "countdown"})
            ids = [m["id"] for m in seen if "id" in m and m["type"] != "countdown"]
            assert ids == sorted(ids) and len(ids) == len(set(ids))
            # a bet sent to the process that does not run the table is placed by the one that does
            opened = _until(ws, lambda m: m["type"] == "betting_opened")
            ack = _bet(ws, "far-1", opened["round_id"], "b1")
            assert ack["type"] == "bet_ack" and ack["status"] == 201, ack
            bet_id = ack["bet"]["id"]
            assert bet_id and ack["bet"]["round_id"] == opened["round_id"]
            again = _bet(ws, "far-1", opened["round_id"], "b2")  # the same client id: placed once
            assert again["type"] == "bet_ack" and again["duplicate"] and again["bet"]["id"] == bet_id, again
            headers = {"Authorization": f"Bearer {token}"}
            holder_url = url_a if other_url == url_b else url_b
            body = {"client_id": "far-1", "bet": "banker", "stake": 100}
            direct = httpx.post(f"{holder_url}/api/tables/macau/bets", json=body, headers=headers)
            assert direct.status_code == 200 and direct.json()["bet"]["id"] == bet_id, direct.text
            # the table's refusal comes back with its rule
            ws.send(json.dumps({"type": "bet", "ref": "b4", "client_id": "far-2", "bet": "banker", "stake": 50}))
            refused = _until(ws, lambda m: m.get("ref") == "b4")
            assert refused["type"] == "error" and 400 <= refused["status"] < 500, refused
            settled = _until(ws, lambda m: m["type"] == "round_settled" and m.get("round_id") == opened["round_id"])
            assert settled
            found = store.rounds.bets_by_client([(_user_id(store, "pat"), "far-1")])
            stored = next(iter(found.values()))
            assert stored["id"] == bet_id and stored["status"] == "settled", stored
            # the holder dies: the survivor takes the lease over and the table goes on
            os.kill(holder_pid, signal.SIGKILL)
            pids[holder_pid].wait(timeout=PATIENCE)
            deadline = time.monotonic() + PATIENCE
            new_owner = None
            while time.monotonic() < deadline:
                new_owner = store.leases.lease_owner("macau")
                if new_owner and int(new_owner.split(":")[1]) != holder_pid:
                    break
                time.sleep(0.2)
            assert new_owner and int(new_owner.split(":")[1]) != holder_pid
            opened = _until(ws, lambda m: m["type"] == "betting_opened")
            ack = _bet(ws, "far-3", opened["round_id"], "b5")
            assert ack["type"] == "bet_ack" and ack["status"] == 201, ack
            assert _bet(ws, "far-1", opened["round_id"], "b6")["bet"]["id"] == bet_id  # still placed once
            _until(ws, lambda m: m["type"] == "round_settled" and m.get("round_id") == opened["round_id"])
        report = store.ledger.check_ledger()
        assert report.ok, report
    finally:
        for process in (first, second):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in (first, second):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        store.engine.dispose()


def _leases_taken(store: Store) -> dict[str, str]:
    """Each table's lease holder, once every table has one (fails after :data:`PATIENCE`)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        owners = {table: store.leases.lease_owner(table) for table in ("macau", "predealt", "cont")}
        if all(owners.values()) or time.monotonic() > deadline:
            assert all(owners.values()), owners
            return {table: str(owner) for table, owner in owners.items()}
        time.sleep(0.1)


def _user_id(store: Store, name: str) -> int:
    found = store.accounts.password_hash_of(name)
    assert found is not None
    return found[0].id
