"""Crash test: the server is SIGKILLed at 50 points of rounds with bets in flight, restarted, and the
ledger's invariants are checked after every kill; at the end every bet is settled or refunded once.

After every kill, each table rebuilt from its stored snapshot and the events after it equals the
table replayed from all of its events (the snapshot is written with the events it covers).

``make test`` kills it 14 times (once at each named crash point, and at 7 random instants);
``make test-long`` kills it the full 50 times.

Half of the kills come from named crash points inside the server (between a commit and the next
step, inside an uncommitted settlement or bet batch: ``BACCARAT_TEST_KILL_AT``), half at random
instants. Restarts fork from a process that has already imported the server (crash_zygote.py), so
the 50 restarts fit in about a minute. The waits for a start, a named kill and the last rounds are
generous: on a loaded machine they take longer, and nothing here is a measure of speed.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from tests.server.conftest import ADMIN_PASSWORD, write_tables

from baccarat.server.db import make_engine
from baccarat.server.hooks import CRASH_POINTS
from baccarat.server.schema import BetStatus, bets, rounds
from baccarat.server.settings import load_lobby
from baccarat.server.store import Store
from baccarat.table import Table
from baccarat.table_config import TableConfig

KILLS = 50
#: The quick run's kills: each named crash point once, and as many random instants.
QUICK_KILLS = 2 * len(CRASH_POINTS)
#: Real seconds a start, a named kill or the last rounds may take on a busy machine.
PATIENCE = 120.0
#: Rounds a server started with a crash point plays before the point is taken as out of reach.
ROUNDS_TO_WAIT = 20
HERE = Path(__file__).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except (OSError, IndexError):
        return False
    return state not in "ZX"


class Server:
    """Starts servers by forking the zygote, and kills them."""

    def __init__(self, *, db: str, config: Path) -> None:
        self.db, self.config, self.port = db, config, _free_port()
        env = dict(os.environ, BACCARAT_ARGON2_FAST="1")
        env.pop("BACCARAT_TEST_KILL_AT", None)
        self.zygote = subprocess.Popen(
            [sys.executable, str(HERE / "crash_zygote.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.url = f"http://127.0.0.1:{self.port}"
        self.pid = 0

    def start(self, env: dict[str, str]) -> None:
        assert self.zygote.stdin is not None and self.zygote.stdout is not None
        request = {"port": self.port, "db": self.db, "config": str(self.config), "env": env}
        self.zygote.stdin.write(json.dumps(request) + "\n")
        self.zygote.stdin.flush()
        self.pid = int(self.zygote.stdout.readline())
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/tables", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if not _alive(self.pid):
                return  # killed by a crash point during start-up (recovery in progress)
            time.sleep(0.03)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        if _alive(self.pid):
            os.kill(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while _alive(self.pid) and time.monotonic() < deadline:
            time.sleep(0.01)

    def close(self) -> None:
        self.kill()
        if self.zygote.stdin is not None:
            self.zygote.stdin.close()
        self.zygote.wait(timeout=10)


class Bettor(threading.Thread):
    """Places bets as fast as the server answers, remembering the ones acknowledged."""

    def __init__(self, url: str, tokens: list[str], accepted: dict[tuple[int, str], int], seq: list[int]) -> None:
        super().__init__(daemon=True)
        self.url, self.tokens, self.accepted, self.seq = url, tokens, accepted, seq
        self.stop = threading.Event()

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=2) as client:
            while not self.stop.is_set():
                self.seq[0] += 1
                n = self.seq[0]
                who = n % len(self.tokens)
                table = ("macau", "cont", "predealt")[who % 3]  # each player at one table
                body = {"client_id": f"c{n}", "bet": ("banker", "player", "tie")[n % 3], "stake": 100 + 20 * (n % 5)}
                try:
                    answer = client.post(
                        f"/api/tables/{table}/bets", json=body, headers={"Authorization": f"Bearer {self.tokens[who]}"}
                    )
                except httpx.HTTPError:
                    time.sleep(0.02)
                    continue
                if answer.status_code == 201:
                    self.accepted[(who, body["client_id"])] = answer.json()["bet"]["id"]
                elif answer.status_code >= 500:
                    raise AssertionError(f"server error {answer.status_code}: {answer.text}")
                else:
                    time.sleep(0.01)


def _settled_rounds(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).where(rounds.c.status == "settled")).scalar_one())


def _wait_for_the_kill(server: Server, store: Store) -> None:
    """Until the server has killed itself at its crash point, or has settled ``ROUNDS_TO_WAIT``
    rounds without reaching it (a point such as the end of a shoe is not reached in a few rounds)."""
    before = _settled_rounds(store)
    deadline = time.monotonic() + PATIENCE
    while _alive(server.pid) and time.monotonic() < deadline:
        if _settled_rounds(store) - before >= ROUNDS_TO_WAIT:
            return
        time.sleep(0.02)


def _check(store: Store, accepted: dict[tuple[int, str], int], configs: dict[str, TableConfig]) -> None:
    report = store.ledger.check_ledger()
    assert report.ok, report
    for table_id, config in configs.items():
        history = store.tables.table_history(table_id)
        if history.snapshot is not None:
            rebuilt = Table.from_snapshot(config, history.snapshot, events=history.events, round_bet_ids=True)
            replayed = Table.replay(config, store.tables.table_events(table_id), round_bet_ids=True)
            assert rebuilt.state == replayed.state, table_id
    with store.engine.connect() as conn:
        stored = {row[0] for row in conn.execute(select(bets.c.id)).all()}
    missing = set(accepted.values()) - stored
    assert not missing, f"acknowledged bets lost: {sorted(missing)[:5]}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kills", "settled_at_least"),
    [
        pytest.param(QUICK_KILLS, QUICK_KILLS, id="quick"),
        pytest.param(KILLS, 100, id="full", marks=pytest.mark.long),
    ],
)
def test_kill_restart_recover(tmp_path: Path, kills: int, settled_at_least: int) -> None:
    db = f"sqlite:///{tmp_path}/crash.db"
    config = write_tables(tmp_path / "tables.toml", betting=0.3)
    configs = {spec.id: spec.table_config() for spec in load_lobby(config).tables}
    server = Server(db=db, config=config)
    rng = random.Random(20240607)
    accepted: dict[tuple[int, str], int] = {}
    seq = [0]
    killed: list[str] = []
    store: Store | None = None
    try:
        server.start({})
        tokens = []
        for name in ("kim", "lee", "may"):
            answer = httpx.post(f"{server.url}/api/auth/register", json={"name": name, "password": "password-1"})
            assert answer.status_code == 201
            tokens.append(answer.json()["token"])
        server.kill()
        store = Store(make_engine(db))

        for i in range(kills):
            env: dict[str, str] = {}
            if i % 2:
                point = CRASH_POINTS[(i // 2) % len(CRASH_POINTS)]
                env["BACCARAT_TEST_KILL_AT"] = f"{point}:{1 + rng.randrange(2)}"
            server.start(env)
            if accepted and _alive(server.pid):
                (who, client_id), bet_id = rng.choice(sorted(accepted.items()))
                try:
                    again = httpx.post(
                        f"{server.url}/api/tables/macau/bets",
                        json={"client_id": client_id, "bet": "tie", "stake": 100},
                        headers={"Authorization": f"Bearer {tokens[who]}"},
                        timeout=2,
                    )
                    if again.status_code < 500 and "not run by this server" not in again.text:
                        assert again.status_code == 200 and again.json()["bet"]["id"] == bet_id, again.text
                except httpx.HTTPError:
                    pass
            bettor = Bettor(server.url, tokens, accepted, seq)
            bettor.start()
            if env:
                _wait_for_the_kill(server, store)
                killed.append(env["BACCARAT_TEST_KILL_AT"] if not _alive(server.pid) else "timeout")
            else:
                time.sleep(rng.uniform(0.05, 0.7))
                killed.append("random")
            server.kill()
            bettor.stop.set()
            bettor.join(timeout=5)
            _check(store, accepted, configs)
        # a last start: close the tables and let every round in flight finish
        server.start({})
        boss = httpx.post(f"{server.url}/api/auth/login", json={"name": "admin", "password": ADMIN_PASSWORD}).json()
        for table in ("macau", "predealt", "cont"):
            httpx.post(
                f"{server.url}/api/admin/tables/{table}/close", headers={"Authorization": f"Bearer {boss['token']}"}
            )
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            with store.engine.connect() as conn:
                open_rounds = conn.execute(
                    select(func.count()).where(rounds.c.status.in_(["betting", "closed"]))
                ).scalar_one()
            if open_rounds == 0:
                break
            time.sleep(0.1)
        assert open_rounds == 0
        _check(store, accepted, configs)
        assert all(store.tables.table_history(t).snapshot is not None for t in ("macau", "predealt", "cont"))
        with store.engine.connect() as conn:
            statuses: dict[Any, Any] = dict(
                conn.execute(select(bets.c.status, func.count()).group_by(bets.c.status)).all()
            )
        assert BetStatus.ACCEPTED.value not in statuses
        assert statuses.get(BetStatus.SETTLED.value, 0) > settled_at_least
    finally:
        server.close()
        if store is not None:
            store.engine.dispose()
    assert len(killed) == kills
    named = [k for k in killed if k not in ("random", "timeout")]
    assert len({k.split(":")[0] for k in named}) >= len(CRASH_POINTS) - 1, killed
