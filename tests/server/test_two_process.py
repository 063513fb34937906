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
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/tables", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("server did not start")


def _messages(ws: Any, seconds: float) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            out.append(json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic()))))
        except TimeoutError:
            break
    return out


@pytest.mark.postgres
@pytest.mark.slow
def test_two_processes_share_tables(pg_url: str, tmp_path: Path) -> None:
    config = write_tables(tmp_path / "tables.toml", betting=0.5)
    first, url_a = _start(pg_url, config)
    second, url_b = _start(pg_url, config)
    store = Store(make_engine(pg_url))
    try:
        pids = {first.pid: first, second.pid: second}
        time.sleep(1.5)
        owners = {table: store.lease_owner(table) for table in ("macau", "predealt", "cont")}
        assert all(owners.values()), owners
        assert {int(str(o).split(":")[1]) for o in owners.values()} <= set(pids)
        token = httpx.post(f"{url_b}/api/auth/register", json={"name": "pat", "password": "password-1"}).json()["token"]
        holder_pid = int(str(owners["macau"]).split(":")[1])
        other_url = url_b if holder_pid == first.pid else url_a
        # a client of the process that does not run the table sees its events and bets through it
        with connect(f"{other_url.replace('http', 'ws')}/ws/tables/macau") as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
            ws.send(json.dumps({"type": "auth", "token": token}))
            seen = _messages(ws, 2.5)
            kinds = {m["type"] for m in seen}
            assert {"authenticated", "betting_opened", "round_settled", "countdown"} <= kinds, kinds
            ids = [m["id"] for m in seen if "id" in m and m["type"] != "countdown"]
            assert ids == sorted(ids) and len(ids) == len(set(ids))
            # the holder dies: the survivor takes the lease over and the table goes on
            os.kill(holder_pid, signal.SIGKILL)
            pids[holder_pid].wait(timeout=10)
            deadline = time.monotonic() + 15
            new_owner = None
            while time.monotonic() < deadline:
                new_owner = store.lease_owner("macau")
                if new_owner and int(new_owner.split(":")[1]) != holder_pid:
                    break
                time.sleep(0.2)
            assert new_owner and int(new_owner.split(":")[1]) != holder_pid
            later = _messages(ws, 3.0)
            assert "betting_opened" in {m["type"] for m in later}
            opened = next(m for m in later if m["type"] == "betting_opened")
            ws.send(
                json.dumps(
                    {"type": "bet", "client_id": "p1", "bet": "banker", "stake": 100, "round_id": opened["round_id"]}
                )
            )
            acks = [m for m in _messages(ws, 2.0) if m["type"] in ("bet_ack", "error")]
            assert acks and acks[0]["type"] in ("bet_ack", "error")
        time.sleep(1.5)
        report = store.check_ledger()
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
