"""Load test of one live table (loopback only, bounded in clients and time).

Starts a server on a temporary SQLite database (or --db), registers N players, connects N
websocket clients to one table from a few client processes (so that the clients do not share the
server's process), and has each bet during every betting window, ``--rate`` bets a second
(paced; with ``--rate 0`` as fast as the acknowledgements come back). Prints durable bets accepted
per second (an ack is sent only after the bet's transaction has committed), p50/p99 bet
acknowledgement latency and p50/p99 broadcast latency (server timestamp of an event to its arrival
at a client).

Each client bets on its own clock: its bet times are a random phase plus multiples of ``1/rate``,
and times that fall while betting is closed are skipped, so bets arrive spread over time as from
independent players. ``--burst`` instead has every client bet at the instant it hears that betting
opened (all of them at once), then go on at its rate: the worst case for acknowledgement latency.

    .venv/bin/python benchmarks/load_table.py --clients 500 --rate 4 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

TABLES = """
[server]
starting_balance = 100000000
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


async def _register(client: httpx.AsyncClient, name: str) -> str:
    answer = await client.post("/api/auth/register", json={"name": name, "password": "bench-password"})
    answer.raise_for_status()
    return str(answer.json()["token"])


async def _player(
    url: str,
    token: str,
    index: int,
    start: float,
    until: float,
    rate: float,
    burst: bool,
    acks: list[float],
    broadcast: list[float],
    errors: list[str],
) -> None:
    async with websockets.connect(url, max_size=2**22, compression=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        await ws.send(json.dumps({"type": "join", "ref": "join"}))  # come to the table before the clock starts
        betting_until = 0.0
        round_id = 0
        n = 0
        interval = 1.0 / rate if rate > 0 else 0.0
        next_bet = start + random.uniform(0, interval)  # spread the clients over the interval

        def seen(message: dict[str, Any]) -> None:
            nonlocal betting_until, round_id, next_bet
            kind = message.get("type")
            if kind in ("betting_opened", "countdown", "round_settled") and "ts" in message and time.time() >= start:
                broadcast.append(time.time() - float(message["ts"]))
            if kind == "betting_opened" or (kind == "countdown" and int(message["round_id"]) != round_id):
                if kind == "betting_opened":
                    betting_until, round_id = float(message["closes_at"]) - 0.2, int(message["round_id"])
                else:
                    betting_until = time.time() + float(message["seconds_left"]) - 0.2
                    round_id = int(message["round_id"])
                # this client's next own slot (or, with --burst, at once)
                next_bet = max(time.time(), start) if burst else _next_slot(next_bet, interval, time.time())
            elif kind == "betting_closed":
                betting_until = 0.0

        while time.time() < until:
            wait = min(0.5, until - time.time())
            if round_id and time.time() < betting_until:
                wait = min(wait, next_bet - time.time())
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.001, wait))
            except TimeoutError:
                raw = None
            if raw is not None:
                seen(json.loads(raw))
            while round_id and time.time() < min(betting_until, until) and time.time() >= next_bet:
                n += 1
                next_bet = _next_slot(next_bet + interval, interval, time.time())
                sent = time.perf_counter()
                side = ("banker", "player")[index % 2]  # half on each side: the Banker/Player limit (R21) holds
                bet = {"type": "bet", "client_id": f"p{index}-{n}", "bet": side, "stake": 100, "round_id": round_id}
                await ws.send(json.dumps(bet))
                while True:
                    reply = json.loads(await ws.recv())
                    seen(reply)
                    kind = reply.get("type")
                    if kind == "bet_ack":
                        acks.append(time.perf_counter() - sent)
                        break
                    if kind == "error":
                        errors.append(str(reply.get("detail")))
                        next_bet = _next_slot(next_bet, interval, time.time() + 0.1)
                        break
                await asyncio.sleep(0)


async def _clients(
    ws_url: str, tokens: list[tuple[int, str]], start: float, until: float, rate: float, burst: bool
) -> dict[str, list[Any]]:
    acks: list[float] = []
    broadcast: list[float] = []
    errors: list[str] = []
    await asyncio.gather(
        *(_player(ws_url, token, i, start, until, rate, burst, acks, broadcast, errors) for i, token in tokens)
    )
    return {"acks": acks, "broadcast": broadcast, "errors": errors}


def _worker(job: Path) -> None:
    """A client process: its share of the clients, results written next to the job file."""
    spec = json.loads(job.read_text())
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    tokens = [(int(i), str(t)) for i, t in spec["tokens"]]
    result = asyncio.run(
        _clients(
            spec["ws_url"], tokens, float(spec["start"]), float(spec["until"]), float(spec["rate"]), bool(spec["burst"])
        )
    )
    job.with_suffix(".out").write_text(json.dumps(result))


async def _register_all(base: str, count: int) -> list[str]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        semaphore = asyncio.Semaphore(20)

        async def one(i: int) -> str:
            async with semaphore:
                return await _register(client, f"bench{i}_{os.getpid()}")

        return list(await asyncio.gather(*(one(i) for i in range(count))))


def _run(args: argparse.Namespace, base: str) -> None:
    tokens = asyncio.run(_register_all(base, args.clients))
    ws_url = base.replace("http", "ws") + "/ws/tables/bench"
    started = time.time() + 3.0 + args.clients / 50  # the clients connect and join the table meanwhile
    until = started + args.seconds
    results: dict[str, list[Any]] = {"acks": [], "broadcast": [], "errors": []}
    with tempfile.TemporaryDirectory() as tmp:
        workers: list[tuple[subprocess.Popen[bytes], Path]] = []
        for w in range(args.procs):
            job = Path(tmp) / f"worker{w}.json"
            share = [(i, t) for i, t in enumerate(tokens) if i % args.procs == w]
            job.write_text(
                json.dumps(
                    {
                        "ws_url": ws_url,
                        "tokens": share,
                        "start": started,
                        "until": until,
                        "rate": args.rate,
                        "burst": args.burst,
                    }
                )
            )
            process = subprocess.Popen([sys.executable, __file__, "--worker", str(job)])
            workers.append((process, job))
        for process, job in workers:
            try:
                process.wait(timeout=args.seconds + 60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            out = job.with_suffix(".out")
            if out.exists():
                for key, values in json.loads(out.read_text()).items():
                    results[key] += values
            else:
                results["errors"].append(f"client process {job.stem} failed")
    acks, broadcast, errors = results["acks"], results["broadcast"], results["errors"]
    elapsed = args.seconds
    tables = httpx.get(f"{base}/api/tables", timeout=30).json()
    print(
        f"clients: {args.clients} in {args.procs} processes, rate: {args.rate or 'as fast as acked'} bets/s each"
        + (", all at once when betting opens" if args.burst else "")
    )
    print(f"duration: {elapsed:.1f} s, table: {tables['tables'][0]['id']}, load: {os.getloadavg()[0]:.2f}")
    print(f"durable bets acknowledged: {len(acks)} ({len(acks) / elapsed:.0f} per second overall)")
    print(f"bet ack latency: p50 {1000 * _percentile(acks, 0.5):.1f} ms, p99 {1000 * _percentile(acks, 0.99):.1f} ms")
    print(
        f"broadcast latency: p50 {1000 * _percentile(broadcast, 0.5):.1f} ms, p99 {1000 * _percentile(broadcast, 0.99):.1f} ms"
    )
    if errors:
        print(f"refusals: {len(errors)} (e.g. {statistics.mode(errors)!r})")


def main() -> None:
    """Parse the options, start a server, run the load, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--betting", type=float, default=8.0, help="betting window of the table, seconds")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--url", default=None, help="use a server already running on loopback (e.g. under a profiler)")
    parser.add_argument("--rate", type=float, default=4.0, help="bets a second of each client (0: unpaced)")
    parser.add_argument("--burst", action="store_true", help="every client bets the instant betting opens")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--print-tables", action="store_true", help="print the tables file the server needs and exit")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(Path(args.worker))
        return
    args.procs = max(1, min(args.procs, 8))
    args.rate = max(0.0, min(args.rate, 50.0))
    if args.print_tables:
        print(TABLES.format(betting=args.betting))
        return
    if args.url:
        if not args.url.startswith(("http://127.0.0.1:", "http://localhost:")):
            parser.error("--url must be a loopback address")
        args.clients = max(1, min(args.clients, 2000))
        args.seconds = max(2.0, min(args.seconds, 120.0))
        _run(args, args.url.rstrip("/"))
        return
    args.clients = max(1, min(args.clients, 2000))
    args.seconds = max(2.0, min(args.seconds, 120.0))
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "tables.toml"
        config.write_text(TABLES.format(betting=args.betting))
        db = args.db or f"sqlite:///{tmp}/bench.db"
        port = _free_port()
        env = dict(os.environ, BACCARAT_ARGON2_FAST="1", BACCARAT_HTTP_RATE="5000", BACCARAT_WS_RATE="200")
        server = subprocess.Popen(
            [sys.executable, "-m", "baccarat.server", "--port", str(port), "--db", db, "--config", str(config)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(f"{base}/api/tables", timeout=1)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            _run(args, base)
        finally:
            server.terminate()
            server.wait(timeout=15)


if __name__ == "__main__":
    main()
