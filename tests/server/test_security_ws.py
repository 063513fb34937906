"""Browser-facing protection: security headers on every answer; the websocket's ``Origin``
checked; websocket connections limited per address; a connection too slow to keep up told why;
and a log-in flood (unknown names, each checked against a real hash) does not stall other clients."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import close_open_clients
from tests.server.security_support import Ticks, context_of, start

from baccarat.server.frames import Outbound
from baccarat.server.observer import messages
from baccarat.server.policy import Policy


@pytest.fixture(autouse=True)
def _close_apps() -> Iterator[None]:
    yield
    close_open_clients()


def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    ticks = Ticks()
    client = start(tmp_path, f"sqlite:///{tmp_path}/h.db", ticks=ticks, run_tables=False, http_burst=30)
    answers = [client.get(path) for path in ("/", "/js/app.js", "/api/tables", "/api/no-such-thing", "/docs")]
    answers.append(client.post("/api/auth/login", json={"name": "x"}))  # 422
    while (limited := client.get("/api/tables")).status_code != 429:
        pass
    answers.append(limited)
    assert {a.status_code for a in answers} >= {200, 404, 422, 429}
    for answer in answers:
        headers = answer.headers
        assert headers["x-content-type-options"] == "nosniff", answer.url
        assert headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
    page = answers[0].headers["content-security-policy"]
    assert "script-src 'self';" in page and "unsafe-inline" not in page
    assert "cdn.jsdelivr.net" in answers[4].headers["content-security-policy"]  # the OpenAPI viewer's own CDN


def _refused(client: Any, origin: str | None) -> dict[str, Any] | None:
    """The refusal of a connection from a page of ``origin`` (``None``: it was let in)."""
    headers = {} if origin is None else {"origin": origin}
    with client.websocket_connect("/ws/tables/macau", headers=headers) as ws:
        first = ws.receive_json()
        if first["type"] == "snapshot":
            return None
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        return {**first, "close": closed.value.code}


def test_the_websocket_origin_is_checked(tmp_path: Path) -> None:
    policy = Policy(allowed_origins=("https://app.example",))
    client = start(tmp_path, f"sqlite:///{tmp_path}/o.db", policy=policy, run_tables=False)
    assert _refused(client, None) is None  # no browser
    assert _refused(client, "http://testserver") is None  # the server's own pages
    assert _refused(client, "https://app.example") is None  # configured
    for foreign in ("https://evil.example", "null", "http://testserver.evil.example"):
        refusal = _refused(client, foreign)
        assert refusal is not None and refusal["code"] == "auth.forbidden" and refusal["close"] == 4403, foreign


def test_websocket_connections_are_limited_per_address(tmp_path: Path) -> None:
    ticks = Ticks()
    policy = Policy(ws_connects_burst=3, ws_connects_per_second=0.5)
    client = start(tmp_path, f"sqlite:///{tmp_path}/c.db", policy=policy, ticks=ticks, run_tables=False)
    assert [_refused(client, None) for _ in range(3)] == [None, None, None]
    refusal = _refused(client, None)
    assert refusal is not None and refusal["code"] == "request.rate_limited" and refusal["close"] == 4429
    ticks.advance(2.0)
    assert _refused(client, None) is None


def test_a_connection_too_slow_to_keep_up_is_told_why(tmp_path: Path) -> None:
    client = start(tmp_path, f"sqlite:///{tmp_path}/s.db", run_tables=False)
    hub = context_of(client).service.hub
    with client.websocket_connect("/ws/tables/macau") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        (subscriber,) = hub._subscribers["macau"]

        def fall_behind() -> None:  # what the hub does when the queue is full: the last message in, then dropped
            subscriber.queue.put_nowait(Outbound('{"type":"pong","ref":"last","ts":1.0}'))
            subscriber.dropped = True

        assert hub.loop is not None
        hub.loop.call_soon_threadsafe(fall_behind)
        last: dict[str, Any] = {}
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(10):
                last = ws.receive_json()
        assert closed.value.code == 1013
        assert last["type"] == "error" and last["code"] == "table.unavailable" and "behind" in last["detail"]


@pytest.mark.parametrize("logins", [pytest.param(12, id="quick"), pytest.param(40, id="full", marks=pytest.mark.long)])
def test_other_clients_stay_responsive_during_a_login_flood(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, logins: int
) -> None:
    """``logins`` failed logins at once, each a real password hash: the websocket's pings are
    answered all along (make test floods with 12, make test-long with 40)."""
    from argon2 import PasswordHasher

    from baccarat.server import auth
    from baccarat.server.api.routes import accounts

    monkeypatch.setattr(auth, "_hasher", PasswordHasher())  # the real cost of a hash, not the tests' cheap one
    accounts._dummy_hash.cache_clear()
    policy = Policy(login_failures_per_address=1000)
    client = start(
        tmp_path, f"sqlite:///{tmp_path}/f.db", policy=policy, run_tables=False, http_burst=1000, ws_burst=100_000
    )
    accounts._dummy_hash()  # hashed once, before the flood
    done = threading.Event()
    statuses: list[int] = []

    def flood() -> None:
        threads = [
            threading.Thread(
                target=lambda i=i: statuses.append(
                    client.post("/api/auth/login", json={"name": f"nobody{i}", "password": "password-1"}).status_code
                )
            )
            for i in range(logins)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        done.set()

    latencies: list[float] = []
    with client.websocket_connect("/ws/tables/macau") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        started = time.perf_counter()
        threading.Thread(target=flood).start()
        while not done.is_set():
            sent = time.perf_counter()
            ws.send_json({"type": "ping", "ref": len(latencies)})
            assert ws.receive_json()["type"] == "pong"
            latencies.append(time.perf_counter() - sent)
        flood_seconds = time.perf_counter() - started
    assert statuses == [401] * logins
    # answered again and again while the hashes ran: the event loop was never held by them
    assert len(latencies) >= 5, (len(latencies), flood_seconds)
    assert max(latencies) < max(2.0, flood_seconds / 2), (max(latencies), flood_seconds)
    print(
        f"{logins} unknown-name logins: {flood_seconds:.2f} s; {len(latencies)} pings, slowest {max(latencies) * 1000:.0f} ms"
    )


def test_the_hub_tells_a_connection_at_once_when_it_drops_it() -> None:
    from baccarat.server.hub import Hub
    from baccarat.server.observer import messages

    hub = Hub()
    dropped: list[str] = []
    slow = hub.subscribe("t")
    slow.queue = asyncio.Queue(maxsize=2)
    slow.on_drop = lambda: dropped.append("slow")
    fast = hub.subscribe("t")

    def tick(left: float) -> dict[str, Any]:
        return messages.countdown(table="t", round_id=1, seconds_left=left, totals={}, exposure=0, players=0)

    for left in (3.0, 2.0, 1.0):
        hub.broadcast(tick(left))
        fast.queue.get_nowait()
    assert dropped == ["slow"] and slow.dropped and hub.count("t") == 1
    hub.broadcast(tick(0.5))
    assert dropped == ["slow"]  # told once; no longer followed


def test_a_connection_that_overflows_is_told_at_once(tmp_path: Path) -> None:
    client = start(tmp_path, f"sqlite:///{tmp_path}/o2.db", run_tables=False)
    hub = context_of(client).service.hub
    with client.websocket_connect("/ws/tables/macau") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        (subscriber,) = hub._subscribers["macau"]
        flood = [
            messages.countdown(table="macau", round_id=1, seconds_left=n / 100, totals={}, exposure=0, players=0)
            for n in range(subscriber.queue.maxsize + 1)
        ]

        def overflow() -> None:  # more than the queue holds, before the connection can send any
            for message in flood:
                hub.broadcast(message)

        assert hub.loop is not None
        hub.loop.call_soon_threadsafe(overflow)
        seen: list[dict[str, Any]] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(len(flood) + 2):
                seen.append(ws.receive_json())
        assert closed.value.code == 1013
        assert seen[-1]["type"] == "error" and seen[-1]["code"] == "table.unavailable"
        assert len(seen) < len(flood)  # told before the waiting messages went out
