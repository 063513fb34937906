"""REST API: every action and its refusals, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import admin, betting_round, close_table, register
from typer.testing import CliRunner

from baccarat.cli.app import app as cli_app
from baccarat.server.clock import ManualClock


def _settled(client: TestClient, headers: dict[str, str], round_id: int) -> dict[str, Any] | None:
    for entry in client.get("/api/me/history", headers=headers).json()["rounds"]:
        if entry["round_id"] == round_id and entry["status"] in ("settled", "voided"):
            return dict(entry)
    return None


def _ledger_ok(client: TestClient) -> None:
    report = client.get("/api/admin/ledger", headers=admin(client)).json()
    assert report["ok"], report
    assert report["total"] == 0


def test_accounts_bets_settlement_and_ledger(make_client: Any, db_url: str, clock: ManualClock) -> None:
    client = make_client(db_url)
    ann = register(client, "ann")
    assert client.get("/api/me", headers=ann).json()["balance"] == 100000
    current = betting_round(client, "macau")
    body = {"client_id": "ann-1", "bet": "banker", "stake": 1000}
    first = client.post("/api/tables/macau/bets", json=body, headers=ann)
    assert first.status_code == 201, first.text
    assert first.json()["balance"] == 99000
    again = client.post("/api/tables/macau/bets", json=body, headers=ann)
    assert again.status_code == 200 and again.json()["duplicate"] is True
    assert again.json()["bet"]["id"] == first.json()["bet"]["id"]
    side = client.post("/api/tables/macau/bets", json={"client_id": "ann-2", "bet": "莊對", "stake": 100}, headers=ann)
    assert side.status_code == 201 and side.json()["bet"]["bet"] == "banker_pair"
    assert client.get("/api/me", headers=ann).json()["balance"] == 98900
    entry = clock.run_until(lambda: _settled(client, ann, current["id"]))
    assert entry["balance_before"] == 100000
    returned = sum(b["returned"] for b in entry["bets"])
    assert entry["balance_after"] == 100000 - 1100 + returned
    assert entry["result"]["winner"] in ("banker", "player", "tie")
    assert len(entry["bets"]) == 2 and all(b["status"] == "settled" for b in entry["bets"])
    assert client.get("/api/me", headers=ann).json()["balance"] == entry["balance_after"]
    _ledger_ok(client)


@pytest.mark.postgres
def test_the_tables_that_grow_with_every_bet_take_ids_past_32_bits(
    make_client: Any, pg_url: str, clock: ManualClock
) -> None:
    """Events, bets, ledger entries and intents have 64-bit ids: a busy table would fill 32 bits in
    days. On PostgreSQL only: SQLite's row ids are 64 bits whatever the column says."""
    from sqlalchemy import text

    from baccarat.server.db import make_engine, migrate

    start = 2**31 + 10
    engine = make_engine(pg_url)
    migrate(engine)
    with engine.begin() as conn:
        for table in ("bets", "entries", "events", "intents"):
            conn.execute(text("SELECT setval(pg_get_serial_sequence(:t, 'id'), :v)"), {"t": table, "v": start})
    client = make_client(pg_url)
    ann = register(client, "ann")
    current = betting_round(client, "macau")
    body = {"client_id": "ann-1", "bet": "banker", "stake": 1000}
    placed = client.post("/api/tables/macau/bets", json=body, headers=ann)
    assert placed.status_code == 201, placed.text
    assert placed.json()["bet"]["id"] > start
    again = client.post("/api/tables/macau/bets", json=body, headers=ann)
    assert again.status_code == 200 and again.json()["bet"]["id"] == placed.json()["bet"]["id"]
    entry = clock.run_until(lambda: _settled(client, ann, current["id"]))
    assert [b["status"] for b in entry["bets"]] == ["settled"]
    assert client.get("/api/me", headers=ann).json()["balance"] == entry["balance_after"]
    _ledger_ok(client)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT min(id) FROM entries WHERE bet_id IS NOT NULL")).scalar_one() > start
        assert conn.execute(text("SELECT min(bet_id) FROM entries")).scalar_one() > start
        assert conn.execute(text("SELECT max(id) FROM events")).scalar_one() > start
        assert conn.execute(text("SELECT max(event_id) FROM table_snapshots")).scalar_one() > start
    engine.dispose()


def test_a_client_id_used_at_another_table_answers_the_stored_bet(
    make_client: Any, db_url: str, clock: ManualClock
) -> None:
    client = make_client(db_url)
    ann = register(client, "ann")
    assert client.post("/api/tables/cont/join", json={"buy_in": 1000}, headers=ann).status_code == 201
    betting_round(client, "macau")
    body = {"client_id": "ann-1", "bet": "banker", "stake": 1000}
    first = client.post("/api/tables/macau/bets", json=body, headers=ann)
    assert first.status_code == 201, first.text
    betting_round(client, "cont")
    total = client.get("/api/me", headers=ann).json()["balance"]  # the time stands still from here on
    reused = client.post("/api/tables/cont/bets", json=body, headers=ann)  # ann sits at cont: the store finds it
    assert reused.status_code == 200 and reused.json()["duplicate"] is True, reused.text
    assert reused.json()["bet"]["id"] == first.json()["bet"]["id"]
    assert client.get("/api/me", headers=ann).json()["balance"] == total
    _ledger_ok(client)


def test_a_client_id_used_in_an_earlier_round_of_the_table_answers_the_stored_bet(
    make_client: Any, db_url: str, clock: ManualClock
) -> None:
    client = make_client(db_url)
    ann = register(client, "ann")
    current = betting_round(client, "macau")
    body = {"client_id": "ann-1", "bet": "banker", "stake": 1000}
    first = client.post("/api/tables/macau/bets", json=body, headers=ann)
    assert first.status_code == 201, first.text
    clock.run_until(lambda: _settled(client, ann, current["id"]))
    runner = client.app.state.service.runners["macau"]
    assert runner.restored == (0, 0)  # started on an empty database
    assert not any(key.endswith("/ann-1") for key in runner.table.state.bet_ids)  # the table keeps this round's ids
    total = client.get("/api/me", headers=ann).json()["balance"]
    later = betting_round(client, "macau")
    assert later["id"] != current["id"]
    reused = client.post("/api/tables/macau/bets", json=body, headers=ann)  # the table forgot it: the store finds it
    assert reused.status_code == 200 and reused.json()["duplicate"] is True, reused.text
    assert reused.json()["bet"]["id"] == first.json()["bet"]["id"]
    assert reused.json()["bet"]["round_id"] == current["id"]
    assert runner.restored == (0, 0)  # found before it was applied: no failed write, no rebuild of the table
    assert client.get("/api/me", headers=ann).json()["balance"] == total
    assert client.get("/api/tables/macau/me", headers=ann).json()["bets"] == []
    clock.run_until(lambda: client.get(f"/api/rounds/{later['id']}").json()["status"] == "settled")
    assert client.get("/api/me", headers=ann).json()["balance"] == total
    # sent again while no betting is open (the table refuses a new bet): still the stored bet
    close_table(client, "macau")
    closed = client.post("/api/tables/macau/bets", json=body, headers=ann)
    assert closed.status_code == 200 and closed.json()["bet"]["id"] == first.json()["bet"]["id"], closed.text
    fresh = client.post("/api/tables/macau/bets", json=body | {"client_id": "ann-2"}, headers=ann)
    assert fresh.status_code == 409, fresh.text
    assert client.get("/api/me", headers=ann).json()["balance"] == total
    _ledger_ok(client)


def test_refusals(make_client: Any, tmp_path: Path, clock: ManualClock) -> None:
    client = make_client(f"sqlite:///{tmp_path}/r.db")
    bob = register(client, "bob")
    assert client.post("/api/tables/macau/join", json={"buy_in": 15000}, headers=bob).status_code == 201
    assert client.post("/api/tables/macau/join", json={}, headers=bob).status_code == 400
    current = betting_round(client, "macau")
    url = "/api/tables/macau/bets"
    ok = {"client_id": "x1", "bet": "player", "stake": 100}
    assert client.post(url, json=ok).status_code == 401
    assert client.post(url, json=ok, headers={"Authorization": "Bearer nope"}).status_code == 401
    unknown = client.post(url, json=ok | {"bet": "dragon"}, headers=bob)
    assert unknown.status_code == 400 and "unknown bet" in unknown.json()["detail"]
    not_offered = client.post(url, json=ok | {"bet": "super6"}, headers=bob)
    assert not_offered.status_code == 400 and "does not offer" in not_offered.json()["detail"]
    for stake, word in ((50, "minimum"), (20001, "maximum")):
        refused = client.post(url, json=ok | {"stake": stake}, headers=bob)
        assert refused.status_code == 400 and word in refused.json()["detail"] and "R21" in refused.json()["detail"]
    for stake in (0, -5, 1.5, "100", None):
        assert client.post(url, json=ok | {"stake": stake}, headers=bob).status_code == 422
    assert client.post(url, json=ok | {"client_id": "bad id!"}, headers=bob).status_code == 422
    assert client.post(url, json=ok | {"extra": 1}, headers=bob).status_code == 422
    assert client.post("/api/tables/nope/bets", json=ok, headers=bob).status_code == 404
    assert client.post(url, content=b"{" + b" " * 20000 + b"}", headers=bob).status_code == 413
    assert client.post(url, content=b"not json", headers=bob | {"content-type": "application/json"}).status_code == 422
    # more than the money brought to the table: 15000 of the wallet's 100000 (the time stands still:
    # betting is open for both)
    assert client.post(url, json={"client_id": "big0", "bet": "tie", "stake": 10000}, headers=bob).status_code == 201
    broke = client.post(url, json={"client_id": "big1", "bet": "tie", "stake": 10000}, headers=bob)
    assert broke.status_code == 400 and "available" in broke.json()["detail"], broke.text
    clock.run_until(lambda: client.get(f"/api/rounds/{current['id']}").json()["status"] == "settled")
    late = client.post(
        url, json={"client_id": "late", "bet": "tie", "stake": 100, "round_id": current["id"]}, headers=bob
    )
    assert late.status_code == 409 and "closed" in late.json()["detail"]
    taken = client.post("/api/auth/register", json={"name": "bob", "password": "password-2"})
    assert taken.status_code == 409 and taken.json()["code"] == "name.taken"
    assert client.post("/api/auth/register", json={"name": "admin", "password": "password-2"}).status_code == 409
    assert client.post("/api/auth/register", json={"name": "cyd2", "password": "short"}).status_code == 422
    assert client.post("/api/auth/login", json={"name": "bob", "password": "wrong-pass"}).status_code == 401
    assert client.get("/api/rounds/999999").status_code == 404
    assert client.get("/api/tables/nope").status_code == 404
    for path in ("/api/admin/ledger",):
        assert client.get(path, headers=bob).status_code == 403
    for path in ("/api/admin/tables/macau/close", "/api/admin/tables/macau/change-shoe", "/api/admin/rounds/1/void"):
        assert client.post(path, headers=bob).status_code == 403
        assert client.post(path).status_code == 401
    assert client.post("/api/auth/logout", headers=bob).status_code == 200
    assert client.get("/api/me", headers=bob).status_code == 401
    _ledger_ok(client)


def test_admin_void_change_shoe_and_verify(make_client: Any, db_url: str, tmp_path: Path, clock: ManualClock) -> None:
    client = make_client(db_url, betting=2.5)
    boss, cy = admin(client), register(client, "cyd")
    current = betting_round(client, "macau", left=1.5)
    placed = client.post("/api/tables/macau/bets", json={"client_id": "c1", "bet": "tie", "stake": 500}, headers=cy)
    assert placed.status_code == 201
    voided = client.post(f"/api/admin/rounds/{current['id']}/void", json={"reason": "misdeal"}, headers=boss)
    assert voided.status_code == 200 and voided.json()["refunded"] == 500
    assert client.post(f"/api/admin/rounds/{current['id']}/void", headers=boss).status_code == 409
    assert client.get("/api/me", headers=cy).json()["balance"] == 100000
    entry = clock.run_until(lambda: _settled(client, cy, current["id"]))
    assert entry["status"] == "voided" and entry["bets"][0]["status"] == "refunded"
    assert entry["void_reason"] == "misdeal"
    # the seed is secret until the shoe ends
    settled_round = clock.run_until(
        lambda: (r := client.get("/api/tables/macau").json()["round"]) and r["id"] > current["id"] and r
    )
    clock.run_until(lambda: client.get(f"/api/rounds/{settled_round['id']}").json()["status"] == "settled")
    assert client.get(f"/api/rounds/{settled_round['id']}").json()["proof"]["server_seed"] is None
    published = client.get(f"/api/rounds/{settled_round['id']}").json()["proof"]["commitment"]
    assert client.get(f"/api/rounds/{settled_round['id']}/verify?commitment={published}").status_code == 409
    assert client.post("/api/admin/tables/macau/change-shoe", headers=boss).status_code == 200
    assert client.post("/api/admin/tables/live/change-shoe", headers=boss).status_code == 409
    clock.run_until(lambda: client.get(f"/api/rounds/{settled_round['id']}").json()["proof"]["server_seed"])
    verdict = client.get(f"/api/rounds/{settled_round['id']}/verify?commitment={published}").json()
    assert verdict["ok"] is True, verdict
    proof = verdict["proof"]
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    runner = CliRunner()
    assert runner.invoke(cli_app, ["verify", str(path), "--commitment", published]).exit_code == 0
    forged = dict(proof, cards=list(reversed(proof["cards"])))
    path.write_text(json.dumps(forged))
    result = runner.invoke(cli_app, ["verify", str(path), "--json", "--commitment", published])
    assert result.exit_code == 1 and json.loads(result.stdout)["ok"] is False
    # close and reopen a table
    assert client.post("/api/admin/tables/macau/close", headers=boss).json()["open"] is False
    assert client.get("/api/tables/macau").json()["open"] is False
    assert client.post("/api/admin/tables/macau/open", headers=boss).json()["open"] is True
    _ledger_ok(client)


def test_dealer_entry(make_client: Any, tmp_path: Path, clock: ManualClock) -> None:
    client = make_client(f"sqlite:///{tmp_path}/d.db", betting=1.5)
    boss, dee = admin(client), register(client, "dee")
    assert client.post("/api/admin/tables/live/cards", json={"card": "AS"}, headers=boss).status_code == 409
    assert client.post("/api/admin/tables/macau/cards", json={"card": "AS"}, headers=boss).status_code == 409
    client.post("/api/admin/tables/live/open", headers=boss)
    current = betting_round(client, "live", left=1.0)
    assert (
        client.post(
            "/api/tables/live/bets", json={"client_id": "d1", "bet": "player", "stake": 1000}, headers=dee
        ).status_code
        == 201
    )
    clock.run_until(lambda: client.get(f"/api/rounds/{current['id']}").json()["status"] == "closed")
    url = "/api/admin/tables/live/cards"
    assert client.post(url, json={"card": "ZZ"}, headers=boss).status_code == 400
    assert client.post(url, json={"card": "AS"}, headers=dee).status_code == 403
    wrong = client.post(url, json={"card": "AS", "position": "banker_1"}, headers=boss)
    assert wrong.status_code == 409 and "not due" in wrong.json()["detail"]
    due = None
    for card in ["AS", "2H", "3D", "KC", "4S"]:
        answer = client.post(url, json={"card": card}, headers=boss)
        assert answer.status_code == 200, answer.text
        due = answer.json()["due"]
    assert due == "banker_3"
    assert client.post(url, json={"card": "8D", "position": "banker_3"}, headers=boss).json()["due"] is None
    entry = clock.run_until(lambda: _settled(client, dee, current["id"]))
    assert entry["result"]["winner"] == "player"
    assert entry["bets"][0]["returned"] == 2000
    assert entry["balance_after"] == 101000
    _ledger_ok(client)
    # the physical shoe's roads: in the table's view as in its messages, after a restart too
    assert client.get("/api/tables/live").json()["roads"]["results"] == "P"
    assert client.get("/api/tables/live").json()["stats"]["player"] == 1
    client.__exit__(None, None, None)  # the process stops (and gives the table's lease back)
    again = make_client(f"sqlite:///{tmp_path}/d.db", betting=1.5)
    assert again.get("/api/tables/live").json()["roads"]["results"] == "P"
    runner = again.app.state.service.runners["live"]
    clock.run_until(lambda: runner.leader)
    assert runner.scoreboard.to_dict()["results"] == "P"  # the roads its next round_settled extends


def test_lobby_and_events(make_client: Any, tmp_path: Path, clock: ManualClock) -> None:
    client = make_client(f"sqlite:///{tmp_path}/l.db")
    tables = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in tables] == ["macau", "predealt", "cont", "live"]
    predealt = betting_round(client, "predealt")
    assert predealt["layout"]["positions"][0] == "player_1" and len(predealt["layout"]["commitment"]) == 64
    assert "cards" not in predealt
    detail = client.get("/api/tables/predealt").json()
    assert {b["bet"] for b in detail["bets"]} >= {"banker", "big", "small"}
    assert "big_road" in detail["roads"]
    clock.run_until(lambda: client.get(f"/api/rounds/{predealt['id']}").json()["status"] == "settled")
    finished = client.get(f"/api/rounds/{predealt['id']}").json()
    layout = finished["cards"]["layout"]
    assert finished["cards"]["cards"][:4] == layout["cards"][:4]
    stored = client.get("/api/tables/predealt/events").json()["events"]
    kinds = [e["type"] for e in stored]
    assert kinds[:2] == ["shoe_started", "betting_opened"] and "round_settled" in kinds
    assert {"betting_closed", "card_dealt", "round_settled"} <= set(kinds)
    assert all(kind.islower() for kind in kinds)  # one vocabulary: the websocket's messages
    assert not {"BetPlaced", "bet_placed", "BettingOpened", "CoupSettled"} & set(kinds)
    after = client.get("/api/tables/predealt/events?after=999999").json()["events"]
    assert after == []
    # the continuous table reveals its seed every two coups
    clock.run_until(lambda: "shoe_ended" in [e["type"] for e in client.get("/api/tables/cont/events").json()["events"]])
    assert client.get("/").status_code == 200
    assert client.get("/docs").status_code == 200
    assert time.time() > 0
