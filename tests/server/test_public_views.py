"""What the public sees of the players at a table: a masked display name, never their money, their
bets only as totals per spot, in the table state, the websocket's snapshot and ``/events``; a user's
own seat and money come from ``/me`` and the ``my_*`` messages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.server.conftest import betting_round, register

from baccarat.server.clock import ManualClock
from baccarat.server.observer.names import display_name
from baccarat.server.observer.views import spot_totals

NAME = "rosalind"


def _seated_bettor(client: Any) -> tuple[dict[str, str], dict[str, Any]]:
    headers = register(client, NAME)
    assert client.post("/api/tables/macau/join", json={"seat": 2, "buy_in": 12_345}, headers=headers).status_code == 201
    betting_round(client, "macau", left=1.0)
    for client_id, bet, stake in (("r1", "banker", 1000), ("r2", "banker", 500), ("r3", "tie", 200)):
        body = {"client_id": client_id, "bet": bet, "stake": stake}
        assert client.post("/api/tables/macau/bets", json=body, headers=headers).status_code == 201
    return headers, client.get("/api/tables/macau").json()


def test_the_table_state_names_bettors_by_display_name_without_money_or_bets(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/p.db", betting=3.0)
    headers, detail = _seated_bettor(client)
    state = detail["table"]
    masked = display_name(NAME)
    assert masked != NAME and NAME not in json.dumps(detail)
    assert state["bettors"] == [{"id": masked, "seat": 2, "variant": "macau"}]
    assert {"seat": 2, "bettor": masked} in state["seats"]
    assert "12345" not in json.dumps(state) and "11845" not in json.dumps(state)  # buy-in, balance after bets
    assert all("bettor" not in b for b in state["bets"])
    assert {(b["bet"], b["stake"], b["count"]) for b in state["bets"]} == {("banker", 1500, 1), ("tie", 200, 1)}
    # the user's own money and bets are theirs to see
    mine = client.get("/api/tables/macau/me", headers=headers).json()
    assert (mine["seat"], mine["balance"]) == (2, 12_345 - 1700)
    assert sum(b["stake"] for b in mine["bets"]) == 1700
    assert client.get("/api/me", headers=headers).json()["display_name"] == masked


def test_the_snapshot_and_the_events_name_nobody(make_client: Any, tmp_path: Path, clock: ManualClock) -> None:
    client = make_client(f"sqlite:///{tmp_path}/q.db", betting=3.0)
    _seated_bettor(client)
    with client.websocket_connect("/ws/tables/macau") as ws:
        snapshot = ws.receive_json()
    assert snapshot["type"] == "snapshot" and NAME not in json.dumps(snapshot)
    assert snapshot["state"]["table"]["bettors"][0]["id"] == display_name(NAME)
    events = client.get("/api/tables/macau/events?limit=500").json()["events"]
    joined = [e for e in events if e["type"] == "bettor_joined"]
    assert [e["bettor"] for e in joined] == [display_name(NAME)]
    assert NAME not in json.dumps(events) and "12345" not in json.dumps(events)


def test_bets_are_totalled_per_spot_and_kind() -> None:
    placed = [
        {"bettor": "a", "bet": "banker", "stake": 100, "spot": None},
        {"bettor": "b", "bet": "banker", "stake": 300, "spot": None},
        {"bettor": "a", "bet": "player", "stake": 50, "spot": 3},
    ]
    assert spot_totals(placed) == [
        {"spot": None, "bet": "banker", "stake": 400, "count": 2},
        {"spot": 3, "bet": "player", "stake": 50, "count": 1},
    ]


def test_display_names_tell_bettors_apart_and_hide_the_name() -> None:
    names = ["ann", "anna", "annie", "bob"]
    shown = [display_name(n) for n in names]
    assert len(set(shown)) == len(names)
    assert all(n not in s for n, s in zip(names, shown, strict=True))
    assert display_name("ann") == display_name("ann") and display_name(None) is None
