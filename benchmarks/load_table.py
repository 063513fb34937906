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
client; messages sent before the clock started are left out). The bench table deals every card
at once, in the transaction that settles the round, so its ``card_dealt`` messages leave only
when the settlement of every bet of the round has committed: their latency is reported on a line
of its own (it is the settlement's time, for thousands of bets, more than the fan-out's).

The clients are a lean websocket client (:class:`_Socket`: frames parsed by hand, each message
handed to its client from the socket's callback, only the messages a client needs decoded), so
that the client processes, which share the machine with the server, take as little of it as
they can; the server is uvicorn with the project's own protocol, as ``baccarat serve`` runs it.

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
import base64
import contextlib
import hashlib
import json
import math
import os
import random
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote, urlsplit

import httpx
import websockets

try:
    from websockets.speedups import apply_mask
except ImportError:  # websockets built without its C extension
    from websockets.utils import apply_mask

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
#: Public messages stored in the transaction that settles the round (the table deals every card at
#: once): they leave when it commits, so their latency is the settlement's, reported apart.
SETTLING_KINDS = ("card_dealt",)
#: Bets sent this close to the round's ``closes_at`` (seconds) are reported apart.
LAST_SECOND = 1.0
#: How long a client waits for the answer to a bet before counting it as an error.
ANSWER_TIMEOUT = 30.0
LOOPBACK = ("127.0.0.1", "localhost", "::1")
_WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455, 1.3

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
    return {"acks": [], "last": [], "late": [], "broadcast": {}, "settling": [], "errors": [], "closed": []}


def _merge(into: Sample, other: Sample) -> None:
    for key in ("acks", "last", "late", "settling", "errors", "closed"):
        into[key] += other[key]
    for kind, values in other["broadcast"].items():
        into["broadcast"].setdefault(kind, []).extend(values)


_TYPE = re.compile(rb'^\{"type":"([a-z_]+)"')
#: The messages a client reads (the others it counts as heard without decoding them).
READ_KINDS = frozenset({*BROADCAST_KINDS, *SETTLING_KINDS, "bet_ack", "error"})


class _Socket(asyncio.Protocol):
    """A lean websocket client (RFC 6455) for the load, so that the client processes, which share
    the machine with the server, take as little of it as they can: the handshake, the server's
    frames parsed by hand (text, ping, close; a server never masks), masked frames to the server,
    and each text message handed to ``heard`` as soon as it is parsed, without a task or a queue
    per message."""

    def __init__(self, heard: Callable[[bytes, float], None], host: str, path: str) -> None:
        self.heard, self.host, self.path = heard, host, path
        self.key = base64.b64encode(os.urandom(16)).decode()
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.handshaken = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not an asyncio.Transport
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {self.key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.transport.write(request.encode("ascii"))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("the server closed the connection before the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.handshaken:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).decode("latin-1")
            del self.buffer[: end + 4]
            accept = base64.b64encode(hashlib.sha1((self.key + _WS_GUID).encode()).digest()).decode()
            if not head.startswith("HTTP/1.1 101") or accept not in head:
                self.opened.set_exception(ConnectionError(f"handshake refused: {head.splitlines()[0]}"))
                assert self.transport is not None
                self.transport.close()
                return
            self.handshaken = True
            self.opened.set_result(None)
        self._frames(time.time())

    def _frames(self, now: float) -> None:
        buffer, at, size = self.buffer, 0, len(self.buffer)
        while size - at >= 2:
            first, length, head = buffer[at], buffer[at + 1] & 0x7F, 2
            if length >= 126:
                head = 4 if length == 126 else 10
                if size - at < head:
                    break
                length = int.from_bytes(buffer[at + 2 : at + head], "big")
            if size - at < head + length:
                break
            payload = bytes(buffer[at + head : at + head + length])
            at += head + length
            opcode = first & 0x0F
            if opcode == 0x1:
                self.heard(payload, now)
            elif opcode == 0x9:
                self._send(0xA, payload)
            elif opcode == 0x8:
                self._send(0x8, payload[:2])
                assert self.transport is not None
                self.transport.close()
        del buffer[:at]

    def send_json(self, message: dict[str, Any]) -> None:
        """Send one message as a masked text frame."""
        self._send(0x1, json.dumps(message, separators=(",", ":")).encode())

    def _send(self, opcode: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        size = len(payload)
        if size < 126:
            head = bytes((0x80 | opcode, 0x80 | size))
        elif size < 1 << 16:
            head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
        mask = os.urandom(4)
        self.transport.write(head + mask + apply_mask(payload, mask))

    def close(self) -> None:
        """Close the connection (a close frame, then the socket)."""
        self._send(0x8, (1000).to_bytes(2, "big"))
        if self.transport is not None:
            self.transport.close()


class _Player:
    """One websocket client: it joins the table and bets on its own clock while betting is open,
    one bet at a time (the next once the last is answered), all from callbacks of its socket and timers."""

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
        self.socket: _Socket | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.waiting: tuple[int, float, float, asyncio.TimerHandle] | None = None  # ref, sent, before close, timeout

    def _betting(self, now: float) -> bool:
        return bool(self.round_id) and now < min(self.closes_at - self.margin, self.until)

    def seen(self, message: dict[str, Any], now: float) -> None:
        """Note a message from the server: its broadcast latency, and when betting opens and closes."""
        kind = message.get("type")
        # only messages the server sent once the clock started (those sent while the clients were
        # still connecting wait in their sockets until the client reads them)
        if kind in BROADCAST_KINDS and "ts" in message and float(message["ts"]) >= self.start:
            self.sample["broadcast"].setdefault(kind, []).append(now - float(message["ts"]))
        elif kind in SETTLING_KINDS and "ts" in message and float(message["ts"]) >= self.start:
            self.sample["settling"].append(now - float(message["ts"]))
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
        parts = urlsplit(self.url)
        loop = asyncio.get_running_loop()
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        _, socket_ = await asyncio.wait_for(
            loop.create_connection(lambda: _Socket(self.heard, f"{host}:{port}", parts.path), host, port), 60
        )
        self.socket = socket_
        await asyncio.wait_for(socket_.opened, 60)
        socket_.send_json({"type": "auth", "token": self.token})
        socket_.send_json({"type": "join", "ref": "join"})  # come to the table before the clock starts
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(socket_.closed), max(0.0, self.until - time.time()))
        if self.waiting is not None:
            self.waiting[3].cancel()
        if self.timer is not None:
            self.timer.cancel()
        socket_.close()

    def heard(self, payload: bytes, now: float) -> None:
        """One text message from the server (read only if it is one the client needs)."""
        if now >= self.until:
            return
        found = _TYPE.match(payload)
        if found is not None and found.group(1).decode() not in READ_KINDS:
            return
        message: dict[str, Any] = json.loads(payload)
        kind, waiting = message.get("type"), self.waiting
        if waiting is not None and (
            (kind == "bet_ack" and message.get("ref") == waiting[0])
            or (kind == "error" and message.get("ref") in (waiting[0], None))
        ):
            self._answered(message)
        else:
            self.seen(message, now)
        self._schedule(now)

    def _schedule(self, now: float) -> None:
        """Set the timer of the next bet, if betting is open and no bet waits for its answer."""
        if self.waiting is not None or self.timer is not None or not self._betting(now):
            return
        self.timer = asyncio.get_running_loop().call_later(max(0.0, self.next_bet - now), self._bet)

    def _bet(self) -> None:
        self.timer = None
        sent_at = time.time()
        if self.socket is None or self.waiting is not None or not self._betting(sent_at):
            return
        self.n += 1
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
        timeout = asyncio.get_running_loop().call_later(ANSWER_TIMEOUT, self._unanswered)
        self.waiting = (self.n, time.perf_counter(), self.closes_at - sent_at, timeout)
        self.socket.send_json(bet)

    def _unanswered(self) -> None:
        self.waiting = None
        self.sample["errors"].append(["no_answer", f"no answer in {ANSWER_TIMEOUT:.0f} s"])
        self._schedule(time.time())

    def _answered(self, reply: dict[str, Any]) -> None:
        assert self.waiting is not None
        _, sent, before_close, timeout = self.waiting
        latency = time.perf_counter() - sent
        timeout.cancel()
        self.waiting = None
        if reply["type"] == "bet_ack":
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
    settling = sample["settling"]
    print(
        f"{indent}{', '.join(SETTLING_KINDS)}, stored with the settlement: {_ms(settling)} ({len(settling)} messages)"
    )
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
