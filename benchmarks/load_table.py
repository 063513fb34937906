"""Load test of one live table (loopback only, bounded in clients and time).

Starts a server on a temporary SQLite database (or --db), registers N players, connects N
websocket clients to one table from a few client processes (so that the clients do not share the
server's process), and has each bet during every betting window, ``--rate`` bets a second
(paced; with ``--rate 0`` as fast as the acknowledgements come back), right up to the round's
``closes_at``. Prints durable bets accepted per second (an ack is sent only after the bet's
transaction has committed), p50/p99 bet acknowledgement latency, the same for the bets sent in the
last second before the close, the bets refused because betting had closed by the time they
arrived (counted apart from the errors: a bet sent a moment before the close may arrive after
it), and p50/p99 broadcast latency (the ``ts`` of a public message that every client gets,
``betting_opened``, ``countdown``, ``betting_closed`` and ``round_settled``, to its arrival at a
client; messages sent before the clock started are left out).

Each client bets on its own clock: its bet times are a random phase plus multiples of ``1/rate``,
and times that fall while betting is closed are skipped, so bets arrive spread over time as from
independent players. ``--burst`` instead has every client bet at the instant it hears that betting
opened (all of them at once), then go on at its rate: the worst case for acknowledgement latency.

``--servers 2`` (PostgreSQL only) starts two server processes on one database, each with half the
clients: one of them runs the table's rounds, the other passes its clients' bets on to it and hears
every event by ``NOTIFY``; the figures are given overall and for each server. On PostgreSQL
(``--db postgresql`` for the local one at 127.0.0.1:5432, database ``test``) the servers use a
fresh schema, dropped afterwards.

    .venv/bin/python benchmarks/load_table.py --clients 500 --rate 4 --seconds 20
    .venv/bin/python benchmarks/load_table.py --clients 500 --rate 5 --seconds 30 --db postgresql --servers 2
    .venv/bin/python benchmarks/load_table.py --clients 300 --rate 5 --seconds 20 --attack

``--attack`` runs the load twice on the same server: the honest clients alone, then beside an
attacking process (8 logins at a time for names nobody registered, and ``--attackers`` websocket
clients that each send one client id again ``--replay-rate`` times a second, round after round),
and prints the honest clients' ack p99 both times and how the attackers were answered.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import httpx
import websockets

TABLES = """
[server]
starting_balance = 100000000
[security]
# every client of the benchmark comes from one address
registrations_per_address = 100000
ws_connects_burst = 100000
ws_connects_per_second = 1000
[[table]]
id = "bench"
name = "Bench"
variant = "macau"
dealing = "shoe"
betting_seconds = {betting}
settle_pause_seconds = 0.5
min_bet = 100
max_bet = 1000000
banker_player_limit = 100000000
"""

#: The refusal codes of a bet that came too late: betting had closed when it arrived
#: (``baccarat.error_codes``: the table's phase, or a round that is no longer the one betting).
LATE_CODES = frozenset({"betting.closed"})
#: The public messages whose latency is measured: every client following the table gets each.
BROADCAST_KINDS = ("betting_opened", "countdown", "betting_closed", "round_settled")
#: Bets sent this close to the round's ``closes_at`` (seconds) are reported apart.
LAST_SECOND = 1.0
#: How long a client waits for the answer to a bet before counting it as an error.
ANSWER_TIMEOUT = 30.0
LOOPBACK = ("127.0.0.1", "localhost", "::1")

Sample = dict[str, Any]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _next_slot(due: float, interval: float, not_before: float) -> float:
    """The first of this client's bet times ``due + k * interval`` not before ``not_before``.

    A client that fell behind (betting was closed, or a refusal) skips the slots it missed rather
    than catching up in a burst, and keeps its own phase, so the clients stay spread over the
    interval instead of all betting at the instant a round opens. Unpaced (``interval`` 0): at once.
    """
    if due >= not_before:
        return due
    if interval <= 0:
        return not_before
    return due + interval * math.ceil((not_before - due) / interval)


def _empty() -> Sample:
    """What one server's clients measured: ack latencies (all, and those of the last second before
    the close), how long before the close each late bet was sent, broadcast latencies by message,
    errors as ``[code, detail]`` and the rounds whose close was heard."""
    return {"acks": [], "last": [], "late": [], "broadcast": {}, "errors": [], "closed": []}


def _merge(into: Sample, other: Sample) -> None:
    for key in ("acks", "last", "late", "errors", "closed"):
        into[key] += other[key]
    for kind, values in other["broadcast"].items():
        into["broadcast"].setdefault(kind, []).extend(values)


class _Player:
    """One websocket client: it joins the table and bets on its own clock while betting is open."""

    def __init__(self, job: dict[str, Any], index: int, token: str, url: str, sample: Sample) -> None:
        self.index, self.token, self.url, self.sample = index, token, url, sample
        self.start, self.until = float(job["start"]), float(job["until"])
        self.burst, self.margin = bool(job["burst"]), float(job["margin"])
        rate = float(job["rate"])
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.next_bet = self.start + random.uniform(0, self.interval)  # spread the clients over the interval
        self.round_id = 0
        self.closes_at = 0.0  # of the round betting now, on the server's clock (0: not betting)
        self.n = 0

    def _betting(self, now: float) -> bool:
        return bool(self.round_id) and now < min(self.closes_at - self.margin, self.until)

    def seen(self, message: dict[str, Any]) -> None:
        """Note a message from the server: its broadcast latency, and when betting opens and closes."""
        kind = message.get("type")
        now = time.time()
        # only messages the server sent once the clock started (those sent while the clients were
        # still connecting wait in their sockets until the client reads them)
        if kind in BROADCAST_KINDS and "ts" in message and float(message["ts"]) >= self.start:
            self.sample["broadcast"].setdefault(kind, []).append(now - float(message["ts"]))
        if kind == "betting_opened" or (kind == "countdown" and int(message["round_id"]) != self.round_id):
            self.round_id = int(message["round_id"])
            if kind == "betting_opened":
                self.closes_at = float(message["closes_at"])
            else:  # came in while betting was open
                self.closes_at = float(message["ts"]) + float(message["seconds_left"])
            # this client's next own slot (or, with --burst, at once)
            self.next_bet = max(now, self.start) if self.burst else _next_slot(self.next_bet, self.interval, now)
        elif kind == "betting_closed":
            self.closes_at = 0.0
            if now >= self.start and message.get("round_id") is not None:
                self.sample["closed"].append(int(message["round_id"]))

    async def run(self) -> None:
        """Connect, join, and bet until the end of the run."""
        async with websockets.connect(self.url, max_size=2**22, compression=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "auth", "token": self.token}))
            await ws.send(json.dumps({"type": "join", "ref": "join"}))  # come to the table before the clock starts
            while time.time() < self.until:
                wait = min(0.5, self.until - time.time())
                if self._betting(time.time()):
                    wait = min(wait, self.next_bet - time.time())
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.001, wait))
                except TimeoutError:
                    raw = None
                if raw is not None:
                    self.seen(json.loads(raw))
                while self._betting(time.time()) and time.time() >= self.next_bet:
                    await self._bet(ws)
                    await asyncio.sleep(0)

    async def _answer(self, ws: Any, ref: int) -> dict[str, Any] | None:
        """The reply to bet ``ref`` (other messages are noted as they come), or ``None`` after the timeout."""
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while (left := deadline - time.monotonic()) > 0:
            try:
                message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout=left))
            except TimeoutError:
                return None
            kind = message.get("type")
            if (kind == "bet_ack" and message.get("ref") == ref) or (
                kind == "error" and message.get("ref") in (ref, None)
            ):
                return message
            self.seen(message)
        return None

    async def _bet(self, ws: Any) -> None:
        self.n += 1
        sent_at = time.time()
        before_close = self.closes_at - sent_at
        self.next_bet = _next_slot(self.next_bet + self.interval, self.interval, sent_at)
        side = ("banker", "player")[self.index % 2]  # half on each side: the Banker/Player limit (R21) holds
        bet = {
            "type": "bet",
            "ref": self.n,
            "client_id": f"p{self.index}-{self.n}",
            "bet": side,
            "stake": 100,
            "round_id": self.round_id,
        }
        sent = time.perf_counter()
        await ws.send(json.dumps(bet))
        reply = await self._answer(ws, self.n)
        latency = time.perf_counter() - sent
        if reply is None:
            self.sample["errors"].append(["no_answer", f"no answer in {ANSWER_TIMEOUT:.0f} s"])
        elif reply["type"] == "bet_ack":
            self.sample["acks"].append(latency)
            if before_close <= LAST_SECOND:
                self.sample["last"].append(latency)
        elif reply.get("code") in LATE_CODES:
            self.sample["late"].append(before_close)
            self.closes_at = 0.0  # this round is over for this client
        else:
            self.sample["errors"].append([str(reply.get("code")), str(reply.get("detail"))])
            self.next_bet = _next_slot(self.next_bet, self.interval, time.time() + 0.1)


async def _lag(start: float, until: float, lags: list[float]) -> None:
    """How late this client process's event loop wakes from a short sleep: what it adds to every
    latency its clients measure (a busy client process hears messages late)."""
    while (now := time.time()) < until:
        wanted = time.perf_counter() + 0.05
        await asyncio.sleep(0.05)
        if now >= start:
            lags.append(max(0.0, time.perf_counter() - wanted))


async def _clients(job: dict[str, Any]) -> dict[str, Any]:
    """Run this process's clients: what they measured, by the server they were connected to
    (``samples``), and the lag of this process's event loop (``lag``)."""
    samples: dict[str, Sample] = {}
    players = []
    for index, token, url, server in job["clients"]:
        sample = samples.setdefault(str(server), _empty())
        players.append(_Player(job, int(index), str(token), str(url), sample))
    lags: list[float] = []
    await asyncio.gather(_lag(float(job["start"]), float(job["until"]), lags), *(player.run() for player in players))
    return {"samples": samples, "lag": lags}


def _worker(job_file: Path) -> None:
    """A client process: its share of the clients, results written next to the job file."""
    job = json.loads(job_file.read_text())
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    run = _attack(job) if job.get("attack") else _clients(job)
    job_file.with_suffix(".out").write_text(json.dumps(asyncio.run(run)))


async def _attack(job: dict[str, Any]) -> dict[str, Any]:
    """The attackers of ``--attack``, beside the honest clients: logins for names nobody registered
    (8 at a time, as fast as they are answered) and websocket clients that send one client id from
    an earlier round again and again; what they sent and how they were answered."""
    answers: dict[str, int] = {}
    start, until, base = float(job["start"]), float(job["until"]), str(job["base"])

    async def logins() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            while time.time() < until:
                body = {"name": f"nobody{secrets.token_hex(6)}", "password": "not-a-password"}
                answer = await client.post("/api/auth/login", json=body)
                code = f"login {answer.status_code}"
                answers[code] = answers.get(code, 0) + 1

    async def replays(token: str, index: int) -> None:
        url = base.replace("http", "ws", 1) + "/ws/tables/bench"
        async with websockets.connect(url, max_size=2**22, compression=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            bet = {"type": "bet", "ref": 0, "client_id": f"replay{index}", "bet": "banker", "stake": 100}
            while time.time() < until:
                await ws.send(json.dumps(bet))  # placed once, then the same client id round after round
                with contextlib.suppress(TimeoutError):
                    while True:  # read what came, without waiting long
                        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=0.001))
                        if message.get("type") in ("bet_ack", "error"):
                            kind = "duplicate" if message.get("duplicate") else message.get("code", "ok")
                            code = f"replay {kind}"
                            answers[code] = answers.get(code, 0) + 1
                await asyncio.sleep(1 / float(job["replay_rate"]))

    await asyncio.sleep(max(0.0, start - time.time()))
    tokens = job["tokens"]
    await asyncio.gather(*(logins() for _ in range(8)), *(replays(t, i) for i, t in enumerate(tokens)))
    return {"answers": answers}


async def _register_all(bases: list[str], count: int, prefix: str = "bench") -> list[str]:
    """Register ``count`` players, the ``i``-th through server ``i % len(bases)``; their tokens."""
    clients = [httpx.AsyncClient(base_url=base, timeout=30) for base in bases]
    semaphore = asyncio.Semaphore(20)

    async def one(i: int) -> str:
        body = {"name": f"{prefix}{i}_{os.getpid()}", "password": "bench-password"}
        async with semaphore:
            answer = await clients[i % len(clients)].post("/api/auth/register", json=body)
        answer.raise_for_status()
        return str(answer.json()["token"])

    try:
        return list(await asyncio.gather(*(one(i) for i in range(count))))
    finally:
        for client in clients:
            await client.aclose()


def _run_clients(
    args: argparse.Namespace, bases: list[str], tokens: list[str] | None = None, attackers: list[str] | None = None
) -> tuple[dict[str, Sample], list[float]]:
    """Register the players (unless ``tokens``), run the client processes (and, with
    ``attackers``' tokens, an attacking process beside them), gather what they measured by
    server and the lag of their event loops."""
    tokens = tokens or asyncio.run(_register_all(bases, args.clients))
    ws_urls = [base.replace("http", "ws", 1) + "/ws/tables/bench" for base in bases]
    start = time.time() + 3.0 + args.clients / 50  # the clients connect and join the table meanwhile
    results: dict[str, Sample] = {str(s): _empty() for s in range(len(bases))}
    lags: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        workers: list[tuple[subprocess.Popen[bytes], Path]] = []
        for w in range(args.procs):
            job = Path(tmp) / f"worker{w}.json"
            share = [
                (i, t, ws_urls[i % len(bases)], i % len(bases)) for i, t in enumerate(tokens) if i % args.procs == w
            ]
            spec = {"clients": share, "start": start, "until": start + args.seconds}
            job.write_text(json.dumps(spec | {"rate": args.rate, "burst": args.burst, "margin": args.margin}))
            workers.append((subprocess.Popen([sys.executable, __file__, "--worker", str(job)]), job))
        attack = Path(tmp) / "attack.json"
        if attackers:
            spec = {
                "attack": True,
                "base": bases[0],
                "tokens": attackers,
                "start": start,
                "until": start + args.seconds,
            }
            attack.write_text(json.dumps(spec | {"replay_rate": args.replay_rate}))
            attacking = subprocess.Popen([sys.executable, __file__, "--worker", str(attack)])
        for process, job in workers:
            try:
                process.wait(timeout=args.seconds + ANSWER_TIMEOUT + 60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            out = job.with_suffix(".out")
            if out.exists():
                measured = json.loads(out.read_text())
                lags += measured["lag"]
                for server, sample in measured["samples"].items():
                    _merge(results.setdefault(server, _empty()), sample)
            else:
                results["0"]["errors"].append(["client_process", f"client process {job.stem} failed"])
        if attackers:
            attacking.wait(timeout=args.seconds + ANSWER_TIMEOUT + 60)
            out = attack.with_suffix(".out")
            answers = json.loads(out.read_text())["answers"] if out.exists() else {"attacker process failed": 1}
            print("attack: " + ", ".join(f"{code}: {count}" for code, count in sorted(answers.items())))
    return results, lags


def _ms(values: list[float]) -> str:
    return f"p50 {1000 * _percentile(values, 0.5):.1f} ms, p99 {1000 * _percentile(values, 0.99):.1f} ms"


def _figures(sample: Sample, seconds: float, indent: str = "") -> None:
    """Print one sample's figures."""
    acks, last, late = sample["acks"], sample["last"], sample["late"]
    broadcast = [v for values in sample["broadcast"].values() for v in values]
    sent = len(acks) + len(late) + len(sample["errors"])
    print(f"{indent}durable bets acknowledged: {len(acks)} of {sent} sent ({len(acks) / seconds:.0f} per second)")
    print(f"{indent}bet ack latency: {_ms(acks)}")
    print(
        f"{indent}ack latency of bets sent in the last {LAST_SECOND:g} s before the close: {_ms(last)} ({len(last)} bets)"
    )
    lateness = f" (sent a median {1000 * statistics.median(late):.1f} ms before the close)" if late else ""
    print(f"{indent}refused for lateness (betting had closed): {len(late)}{lateness}")
    print(f"{indent}broadcast latency (server ts to receipt): {_ms(broadcast)} ({len(broadcast)} messages)")
    kinds = ", ".join(
        f"{kind} {_ms(sample['broadcast'][kind])}" for kind in BROADCAST_KINDS if sample["broadcast"].get(kind)
    )
    print(f"{indent}  by message: {kinds or 'none'}")
    errors = sample["errors"]
    if errors:
        codes = statistics.mode(code for code, _ in errors)
        example = next(detail for code, detail in errors if code == codes)
        print(f"{indent}errors: {len(errors)} (most often {codes}: {example!r})")
    else:
        print(f"{indent}errors: 0")


def _report(
    args: argparse.Namespace, measured: tuple[dict[str, Sample], list[float]], bases: list[str], runner: int | None
) -> None:
    """Print the figures of the run, overall and (with several servers) for each server."""
    results, lags = measured
    total = _empty()
    for sample in results.values():
        _merge(total, sample)
    tables = httpx.get(f"{bases[0]}/api/tables", timeout=30).json()
    print(
        f"clients: {args.clients} in {args.procs} processes, rate: {args.rate or 'as fast as acked'} bets/s each"
        + (", all at once when betting opens" if args.burst else "")
        + (f", stopping {args.margin:g} s before the close" if args.margin else ", until the close")
    )
    print(f"servers: {len(bases)} on {args.db_label}")
    print(
        f"duration: {args.seconds:.1f} s, table: {tables['tables'][0]['id']}, rounds closed: {len(set(total['closed']))}"
        f", load before: {args.load_before:.2f}, after: {os.getloadavg()[0]:.2f}"
    )
    _figures(total, args.seconds)
    print(f"client event-loop lag (adds to every latency above): {_ms(lags)}")
    if len(bases) > 1:
        for server, base in enumerate(bases):
            role = " (runs the table)" if server == runner else ""
            print(f"server {server + 1}, {base}{role}:")
            _figures(results.get(str(server), _empty()), args.seconds, indent="  ")


def _local_postgres() -> str:
    """The URL of the local PostgreSQL (127.0.0.1:5432, database ``test``, user postgres or root)."""
    import psycopg

    for user in ("postgres", "root"):
        try:
            with psycopg.connect(f"host=127.0.0.1 port=5432 dbname=test user={user}", connect_timeout=3):
                return f"postgresql+psycopg://{user}@127.0.0.1:5432/test"
        except psycopg.Error:
            continue
    raise SystemExit("PostgreSQL at 127.0.0.1:5432 (database test, user postgres or root) is unreachable")


@contextlib.contextmanager
def _database(db: str | None, tmp: str) -> Iterator[tuple[str, str]]:
    """The database URL for the servers and how to name it: a temporary SQLite file by default; on
    PostgreSQL a fresh schema, dropped afterwards (unless the URL names its own ``search_path``)."""
    if db is None:
        yield f"sqlite:///{tmp}/bench.db", "SQLite (temporary file)"
        return
    if db in ("postgresql", "postgres"):
        db = _local_postgres()
    if db.startswith(("postgresql://", "postgres://")):
        db = "postgresql+psycopg://" + db.split("://", 1)[1]
    if not db.startswith("postgresql"):
        yield db, db.split(":", 1)[0]
        return
    if (urlsplit(db).hostname or "127.0.0.1") not in LOOPBACK:
        raise SystemExit("--db must be a PostgreSQL on loopback")
    if "search_path" in db:
        yield db, "PostgreSQL (schema as given)"
        return
    import psycopg

    schema = f"bench_{int(time.time())}_{secrets.token_hex(4)}"
    conninfo = "postgresql://" + db.split("://", 1)[1].split("?", 1)[0]
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield (
            f"{db}{'&' if '?' in db else '?'}options={quote(f'-csearch_path={schema}')}",
            f"PostgreSQL (schema {schema})",
        )
    finally:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def _start_server(db: str, config: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start one server process on ``db``; it and its base URL once it answers."""
    port = _free_port()
    env = dict(os.environ, BACCARAT_ARGON2_FAST="1", BACCARAT_HTTP_RATE="5000", BACCARAT_WS_RATE="200")
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "baccarat.server", "--port", str(port), "--db", db, "--config", str(config)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=out,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"{base}/api/tables", timeout=1).raise_for_status()
            return server, base
        except httpx.HTTPError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                tail = log.read_text(errors="replace")[-2000:]
                raise SystemExit(f"the server on {db} did not start:\n{tail}") from None
            time.sleep(0.1)


def _runner(db: str, servers: list[subprocess.Popen[bytes]]) -> int | None:
    """Which of the servers holds the table's lease (runs its rounds), when the store tells."""
    try:
        from baccarat.server.db import make_engine
        from baccarat.server.store import Store

        engine = make_engine(db)
        try:
            owner = Store(engine).leases.lease_owner("bench")
        finally:
            engine.dispose()
    except Exception:
        return None
    pids = [server.pid for server in servers]
    pid = (owner or "").split(":")[1:2]
    return pids.index(int(pid[0])) if pid and pid[0].isdigit() and int(pid[0]) in pids else None


def _serve_and_run(args: argparse.Namespace) -> None:
    """Start the servers on a fresh database, run the load, print the figures, stop them."""
    with tempfile.TemporaryDirectory() as tmp, _database(args.db, tmp) as (db, label):
        args.db_label = label
        config = Path(tmp) / "tables.toml"
        config.write_text(TABLES.format(betting=args.betting))
        servers: list[subprocess.Popen[bytes]] = []
        try:
            bases = []
            for n in range(args.servers):
                server, base = _start_server(db, config, Path(tmp) / f"server{n}.log")
                servers.append(server)
                bases.append(base)
            if args.attack:
                _with_and_without_attack(args, bases)
            else:
                results = _run_clients(args, bases)
                _report(args, results, bases, _runner(db, servers) if len(servers) > 1 else None)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:  # every server gone before the schema is dropped
                try:
                    server.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()


def _with_and_without_attack(args: argparse.Namespace, bases: list[str]) -> None:
    """The honest clients' load twice: alone, then beside the attackers; their ack p99 each time."""
    tokens = asyncio.run(_register_all(bases, args.clients))
    attackers = asyncio.run(_register_all(bases[:1], args.attackers, prefix="mallory"))
    figures = []
    for label, attacking in (("without the attack", None), ("with the attack", attackers)):
        print(f"--- honest clients {label}")
        measured = _run_clients(args, bases, tokens, attacking)
        _report(args, measured, bases, None)
        total = _empty()
        for sample in measured[0].values():
            _merge(total, sample)
        figures.append((label, total))
    print(
        "honest clients' bet ack p99: "
        + ", ".join(f"{label} {1000 * _percentile(total['acks'], 0.99):.1f} ms" for label, total in figures)
    )


def _options() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--betting", type=float, default=8.0, help="betting window of the table, seconds")
    parser.add_argument(
        "--db",
        default=None,
        help="database URL (default: a temporary SQLite file); 'postgresql' for the local one (127.0.0.1:5432/test);"
        " on PostgreSQL the servers use a fresh schema, dropped afterwards",
    )
    parser.add_argument("--servers", "--processes", type=int, default=1, help="server processes (above 1: PostgreSQL)")
    parser.add_argument(
        "--url",
        action="append",
        default=None,
        help="use a server already running on loopback (e.g. under a profiler); repeat for several, the clients split",
    )
    parser.add_argument("--rate", type=float, default=4.0, help="bets a second of each client (0: unpaced)")
    parser.add_argument("--burst", action="store_true", help="every client bets the instant betting opens")
    parser.add_argument("--margin", type=float, default=0.0, help="stop betting this many seconds before the close")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument(
        "--attack",
        action="store_true",
        help="run the load twice, alone and beside attackers (unknown-name logins, client ids sent again)",
    )
    parser.add_argument("--attackers", type=int, default=5, help="websocket clients that send old client ids")
    parser.add_argument("--replay-rate", type=float, default=19.0, help="messages a second of each of them")
    parser.add_argument("--print-tables", action="store_true", help="print the tables file the server needs and exit")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    return parser


def main() -> None:
    """Parse the options, start the servers, run the load, print the figures."""
    parser = _options()
    args = parser.parse_args()
    if args.worker:
        _worker(Path(args.worker))
        return
    args.procs = max(1, min(args.procs, 8))
    args.rate = max(0.0, min(args.rate, 50.0))
    args.margin = max(0.0, min(args.margin, 5.0))
    args.clients = max(1, min(args.clients, 2000))
    args.seconds = max(2.0, min(args.seconds, 120.0))
    args.load_before = os.getloadavg()[0]
    if args.print_tables:
        print(TABLES.format(betting=args.betting))
        return
    if args.url:
        if not all(url.startswith(("http://127.0.0.1:", "http://localhost:")) for url in args.url):
            parser.error("--url must be a loopback address")
        args.db_label = "their own database (already running)"
        bases = [url.rstrip("/") for url in args.url]
        _report(args, _run_clients(args, bases), bases, None)
        return
    args.servers = max(1, min(args.servers, 4))
    if args.servers > 1 and not (args.db or "").startswith("postgres"):
        parser.error("--servers above 1 needs PostgreSQL (--db postgresql or a postgresql:// URL)")
    _serve_and_run(args)


if __name__ == "__main__":
    main()
