"""The table state machine at the server: seats (R20), the Banker/Player limit (R21), Banker bets in
multiples of the minimum (R22), squeeze with reveal, hand-over and time-out (R23), the tie "stay"
policy (R24), commission owed and collected on leaving (R27), and switching variant (R28)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import ADMIN_PASSWORD, admin, betting_round, close_open_clients, register, start_app

from baccarat.server.clock import ManualClock
from baccarat.server.observer.names import display_name
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import load_lobby

RULES_TABLE = """
[server]
starting_balance = 100000
admin_password = "{admin}"

[[table]]
id = "rules"
name = "Rules"
variant = "standard"
dealing = "dealer_entry"
betting_seconds = 2.0
settle_pause_seconds = 0.05
min_bet = 100
max_bet = 10000
banker_player_limit = 5000
squeeze = true
squeeze_seconds = 2.5
on_tie = "stay"
tie_permissions = "sjm"
commission = "owed"
"""


@pytest.fixture
def rules_client(db_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """An app with one dealer-entry table that plays every optional rule (on the test's clock)."""
    path = tmp_path / "rules.toml"
    path.write_text(RULES_TABLE.format(admin=ADMIN_PASSWORD), encoding="utf-8")
    yield start_app(ServiceOptions(db_url=db_url, lobby=load_lobby(path), clock=clock))
    close_open_clients()


def _bet(client: TestClient, headers: dict[str, str], client_id: str, bet: str, stake: int) -> Any:
    return client.post(
        "/api/tables/rules/bets", json={"client_id": client_id, "bet": bet, "stake": stake}, headers=headers
    )


def _state(client: TestClient) -> dict[str, Any]:
    return dict(client.get("/api/tables/rules").json()["table"])


def test_rules_of_the_table(rules_client: TestClient, clock: ManualClock) -> None:
    client = rules_client
    boss, ann, bob = admin(client), register(client, "ann"), register(client, "bob")
    detail = client.get("/api/tables/rules").json()
    assert detail["rules"]["on_tie"] == "stay" and detail["rules"]["commission"] == "owed"
    assert detail["rules"]["banker_player_limit"] == 5000 and detail["rules"]["squeeze"] is True
    assert set(detail["variants"]) == {"standard", "no_commission"}
    assert detail["bets"][0]["min"] == 100 and detail["bets"][0]["max"] == 10000
    # seats (R20)
    assert client.post("/api/tables/rules/sit", json={"seat": 1}, headers=ann).status_code == 200
    taken = client.post("/api/tables/rules/sit", json={"seat": 1}, headers=bob)
    assert taken.status_code == 400 and "R20" in taken.json()["detail"]
    assert client.post("/api/tables/rules/join", json={"seat": 99}, headers=bob).status_code == 422
    assert client.post("/api/tables/rules/join", json={"seat": 2}, headers=bob).status_code == 201
    seats = {s["seat"]: s["bettor"] for s in _state(client)["seats"]}
    assert (
        seats[1] == display_name("ann")
        and seats[2] == display_name("bob")
        and client.get("/api/tables").json()["tables"][0]["players"] == 2
    )
    # R22 and R21
    betting_round(client, "rules", left=1.5)
    odd = _bet(client, ann, "a0", "banker", 150)
    assert odd.status_code == 400 and "R22" in odd.json()["detail"]
    heavy = _bet(client, ann, "a1", "banker", 6000)
    assert heavy.status_code == 400 and "R21" in heavy.json()["detail"]
    assert _bet(client, ann, "a2", "banker", 3000).status_code == 201
    assert _bet(client, bob, "b1", "player", 1000).status_code == 201
    switch = client.post("/api/tables/rules/variant", json={"variant": "no_commission"}, headers=bob)
    assert switch.status_code == 409 and "R28" in switch.json()["detail"]
    assert client.get("/api/me", headers=ann).json()["balance"] == 100000 - 3000
    # squeeze (R23): ann holds Banker, bob holds Player; a tie of naturals stays (R24)
    clock.run_until(lambda: _state(client)["phase"] == "dealing")
    assert _state(client)["squeezers"] == {"player": display_name("bob"), "banker": display_name("ann")}
    for card in ("9S", "9H", "KS", "KH"):
        assert client.post("/api/admin/tables/rules/cards", json={"card": card}, headers=boss).status_code == 200
    assert _state(client)["cards"]["player_1"] is None
    # each squeezer alone sees the cards they peel
    squeezed = {
        who: client.get("/api/tables/rules/me", headers=who_h).json()["squeeze"]
        for who, who_h in (("ann", ann), ("bob", bob))
    }
    assert squeezed == {"ann": {"banker_1": "9H", "banker_2": "KH"}, "bob": {"player_1": "9S", "player_2": "KS"}}
    early = client.post("/api/admin/tables/rules/cards", json={"card": "AS"}, headers=boss)
    assert early.status_code == 409
    wrong = client.post("/api/tables/rules/reveal", json={"side": "player"}, headers=ann)
    assert wrong.status_code == 409 and "R23" in wrong.json()["detail"]
    assert client.post("/api/tables/rules/reveal", json={"side": "player"}, headers=bob).status_code == 200
    # ann does not turn Banker's cards: the dealer turns them when the squeeze time is up, not before
    clock.advance(2.4)
    waiting = _state(client)
    assert waiting["phase"] == "dealing" and waiting["cards"]["banker_1"] is None, waiting
    clock.run_until(lambda: _state(client)["phase"] != "dealing", limit=0.5)
    mine = client.get("/api/tables/rules/me", headers=ann).json()
    assert mine["bets"] == [{"bet": "banker", "stake": 3000, "spot": 1, "carried": 3000}]
    stayed = client.post("/api/tables/rules/leave", headers=ann)
    assert stayed.status_code == 409
    # next round: Banker wins with a natural; commission goes in the commission box (R27)
    betting_round(client, "rules")
    clock.run_until(lambda: _state(client)["phase"] == "dealing")
    assert client.post("/api/tables/rules/hand-over", json={"side": "player"}, headers=bob).status_code == 200
    for card in ("2S", "9D", "3S", "KD"):
        assert client.post("/api/admin/tables/rules/cards", json={"card": card}, headers=boss).status_code == 200
    assert client.post("/api/tables/rules/reveal", json={"side": "banker"}, headers=ann).status_code == 200
    clock.run_until(lambda: _state(client)["phase"] != "dealing")
    mine = client.get("/api/tables/rules/me", headers=ann).json()
    assert mine["owed"] == 150 and mine["available"] == mine["balance"] - 150
    assert client.get("/api/me", headers=ann).json()["commission_owed"] == 150
    left = client.post("/api/tables/rules/leave", headers=ann)
    assert left.status_code == 200 and left.json()["commission"] == 150
    me = client.get("/api/me", headers=ann).json()
    assert me["commission_owed"] == 0 and me["balance"] == 100000 + 3000 - 150 and me["wallet"] == me["balance"]
    # bob: variant switch with no bet open (R28), then cash out
    switched = client.post("/api/tables/rules/variant", json={"variant": "no_commission"}, headers=bob)
    assert switched.status_code == 200 and switched.json()["variant"] == "no_commission"
    out = client.post("/api/tables/rules/cash-out", json={"amount": 500}, headers=bob)
    assert out.status_code == 200 and out.json()["amount"] == 500
    too_much = client.post("/api/tables/rules/cash-out", json={"amount": 10**9}, headers=bob)
    assert too_much.status_code == 400
    report = client.get("/api/admin/ledger", headers=boss).json()
    assert report["ok"], report


def test_actions_over_the_websocket(rules_client: TestClient) -> None:
    client = rules_client
    token = register(client, "wen")["Authorization"].split()[1]
    with client.websocket_connect("/ws/tables/rules") as ws:
        snapshot = ws.receive_json()
        assert snapshot["state"]["table"]["seats"][0] == {"seat": 1, "bettor": None}
        ws.send_json({"type": "sit", "seat": 3})
        assert _reply(ws)["status"] == 401
        ws.send_json({"type": "auth", "token": token})
        assert _reply(ws)["type"] == "authenticated"
        ws.send_json({"type": "sit", "seat": 3, "ref": 1})
        assert _reply(ws)["type"] == "sit_ok"
        ws.send_json({"type": "sit", "seat": 3, "ref": 2})
        refused = _reply(ws)
        assert refused["status"] == 400 and "R20" in refused["detail"]
        ws.send_json({"type": "sit", "seat": "three", "ref": 3})
        assert _reply(ws)["status"] == 422
        ws.send_json({"type": "state", "ref": 4})
        state = _reply(ws)
        assert state["state"]["seats"][2]["bettor"] == display_name("wen")  # the public sees display names
        ws.send_json({"type": "leave", "ref": 5})
        assert _reply(ws)["type"] == "leave_ok"


def _reply(ws: Any) -> dict[str, Any]:
    for _ in range(200):
        message = ws.receive_json()
        if message["type"] in ("error", "authenticated", "state") or message["type"].endswith("_ok"):
            return dict(message)
    raise AssertionError("no reply")


def test_bet_payload_is_the_events_own() -> None:
    from baccarat.bets import BetKind
    from baccarat.server.store import bet_payload
    from baccarat.table_events import BetPlaced

    for spot, bet_id in ((None, "1/x"), (3, None)):
        event = BetPlaced(
            at=1.5, round=2, bettor="a", kind=BetKind.TIE, amount=100, stake=300, spot=spot, bet_id=bet_id
        )
        assert bet_payload(event) == event.to_dict()
