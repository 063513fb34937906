"""Websocket: snapshot, events (countdown, roads), auth, bets and every refusal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import admin, receive, register

from baccarat.server.clock import ManualClock


def _until(clock: ManualClock, ws: Any, kind: str, *, limit: int = 400) -> dict[str, Any]:
    """The next message of a kind, the clock moving on while none comes."""
    for _ in range(limit):
        message = receive(clock, ws)
        if message["type"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind} message")


def test_follow_bet_and_refusals(make_client: Any, tmp_path: Path, clock: ManualClock) -> None:
    # betting stays open while the test waits for replies, the clock standing still (it moves on
    # only while no message comes): a long window costs no real time
    client = make_client(f"sqlite:///{tmp_path}/w.db", betting=10, ws_messages_per_second=5, ws_burst=30)
    headers = register(client, "wes")
    token = headers["Authorization"].split()[1]
    with client.websocket_connect("/ws/tables/macau") as ws:
        snapshot = ws.receive_json()
        assert snapshot["type"] == "snapshot" and snapshot["state"]["id"] == "macau"
        assert "roads" in snapshot["state"] and snapshot["state"]["bets"][0]["bet"] == "banker"
        ws.send_json({"type": "bet", "client_id": "w0", "bet": "banker", "stake": 100, "ref": 1})
        assert _until(clock, ws, "error")["status"] == 401
        ws.send_json({"type": "auth", "token": "wrong"})
        assert _until(clock, ws, "error")["status"] == 401
        ws.send_json({"type": "auth", "token": token, "ref": "a"})
        assert _until(clock, ws, "authenticated")["user"]["name"] == "wes"
        opened = _until(clock, ws, "betting_opened")
        countdown = _until(clock, ws, "countdown")
        assert countdown["round_id"] == opened["round_id"]
        ws.send_json({"type": "bet", "client_id": "w1", "bet": "player", "stake": 200, "ref": 7})
        ack = _until(clock, ws, "bet_ack")
        assert ack["ref"] == 7 and ack["bet"]["stake"] == 200 and ack["balance"] == 99800
        ws.send_json({"type": "bet", "client_id": "w1", "bet": "player", "stake": 200, "ref": 8})
        assert _until(clock, ws, "bet_ack")["duplicate"] is True
        for bad, status in (
            ({"type": "bet", "client_id": "w2", "bet": "nope", "stake": 200}, 400),
            ({"type": "bet", "client_id": "w2", "bet": "tie", "stake": -1}, 422),
            ({"type": "bet", "client_id": "w2", "bet": "tie", "stake": 10**9}, 400),
            ({"type": "bet", "client_id": "w2", "bet": "tie"}, 422),
            ({"type": "teleport"}, 400),
            ([1, 2], 400),
        ):
            ws.send_json(bad)
            assert _until(clock, ws, "error")["status"] == status, bad
        ws.send_text("{not json")
        assert _until(clock, ws, "error")["status"] == 400
        ws.send_json({"type": "balance"})
        assert _until(clock, ws, "balance")["user"]["balance"] == 99800
        settled = _until(clock, ws, "round_settled")
        assert settled["round_id"] == opened["round_id"] and "big_road" in settled["roads"]
        assert settled["result"]["winner"] in ("banker", "player", "tie")
        # rate limit: 30 burst, 5 a second
        for _ in range(40):
            ws.send_json({"type": "ping"})
        replies: list[dict[str, Any]] = []
        while len(replies) < 40:  # the answers to the pings (the next round's messages may come between)
            reply = ws.receive_json()
            if reply["type"] in ("pong", "error"):
                replies.append(reply)
        assert any(r["type"] == "error" and r["status"] == 429 for r in replies)
        ws.send_text("x" * 5000)
        assert _until(clock, ws, "error")["status"] == 413
        with pytest.raises(WebSocketDisconnect):
            for _ in range(100):
                ws.receive_json()


def test_followers_see_the_table_closed_and_opened_as_it_happens(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/w.db")
    boss = admin(client)
    with client.websocket_connect("/ws/tables/macau") as ws:
        assert ws.receive_json()["state"]["open"] is True
        assert client.post("/api/admin/tables/macau/close", headers=boss).status_code == 200
        assert _until(clock, ws, "table_changed")["open"] is False
        assert client.post("/api/admin/tables/macau/open", headers=boss).status_code == 200
        assert _until(clock, ws, "table_changed")["open"] is True


def test_unknown_table(make_client: Any, tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path}/u.db")
    with client.websocket_connect("/ws/tables/nowhere") as ws:
        message = ws.receive_json()
        assert message["status"] == 404
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert json.dumps(message)
