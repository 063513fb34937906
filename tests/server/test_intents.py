"""Actions sent to a process that does not run the table: passed on to the one that does (here two
apps on one SQLite file, the second running no tables), or answered 503 when nobody answers.

A passed-on action waits on the apps' time (the table's process looks for intents every half
second, the sender for the answer every quarter): each request runs in a thread of its own while
the test moves the clock on."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.server.conftest import betting_round, receive, register, service_of, while_advancing

from baccarat.server.clock import ManualClock
from baccarat.server.db import make_engine, migrate
from baccarat.server.schema import intents
from baccarat.server.service import INTENT_SECONDS, NO_ANSWER
from baccarat.server.store import Role, Store


def test_a_bet_sent_to_another_process_is_placed_once(
    make_client: Callable[..., TestClient], tmp_path: Path, clock: ManualClock
) -> None:
    db = f"sqlite:///{tmp_path}/shared.db"
    runs = make_client(db, betting=20)
    other = make_client(db, betting=20, run_tables=False)
    headers = register(other, "ana")
    current = betting_round(runs, "macau", left=10)
    body = {"client_id": "c-1", "bet": "banker", "stake": 100, "round_id": current["id"]}
    placed = while_advancing(clock, lambda: other.post("/api/tables/macau/bets", json=body, headers=headers))
    assert placed.status_code == 201, placed.text
    bet_id = placed.json()["bet"]["id"]
    again = while_advancing(clock, lambda: other.post("/api/tables/macau/bets", json=body, headers=headers))
    assert again.status_code == 200 and again.json()["duplicate"] and again.json()["bet"]["id"] == bet_id
    direct = runs.post("/api/tables/macau/bets", json=body, headers=headers)
    assert direct.status_code == 200 and direct.json()["bet"]["id"] == bet_id
    low_body = body | {"client_id": "c-2", "bet": "player", "stake": 50}
    low = while_advancing(clock, lambda: other.post("/api/tables/macau/bets", json=low_body, headers=headers))
    assert low.status_code == 400 and "R21" in low.json()["detail"], low.text
    with other.websocket_connect("/ws/tables/macau") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "auth", "token": headers["Authorization"][7:]})
        ws.send_json({"type": "cash_out", "ref": "out", "amount": 100})
        for _ in range(50):
            reply = receive(clock, ws)
            if reply.get("ref") == "out":
                break
        assert reply["type"] == "cash_out_ok" and reply["amount"] == 100, reply


def test_nobody_answers_503(make_client: Callable[..., TestClient], tmp_path: Path, clock: ManualClock) -> None:
    lonely = make_client(f"sqlite:///{tmp_path}/alone.db", run_tables=False)
    headers = register(lonely, "bob")
    started = clock.monotonic()
    body = {"client_id": "c-1", "bet": "banker", "stake": 100}
    answer = while_advancing(clock, lambda: lonely.post("/api/tables/macau/bets", json=body, headers=headers))
    assert answer.status_code == 503 and answer.json()["detail"] == NO_ANSWER
    assert INTENT_SECONDS <= clock.monotonic() - started < INTENT_SECONDS + 1
    # the intent was withdrawn (never to be applied) when its time was up, not before
    with service_of(lonely).engine.connect() as conn:
        status, created, withdrawn = conn.execute(
            select(intents.c.status, intents.c.created_at, intents.c.answered_at)
        ).one()
    assert status == 503 and INTENT_SECONDS <= withdrawn - created < INTENT_SECONDS + 0.3, (created, withdrawn)


def test_intents_are_stored_taken_and_answered_in_bulk(tmp_path: Path, db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    store = Store(engine)
    ana = store.accounts.create_user(name="ana", password_hash="x", role=Role.PLAYER, starting_balance=0)
    ids = store.intents.add_intents([("macau", ana.id, "bet", {"n": n}) for n in range(3)])
    assert len(set(ids)) == 3 and ids == sorted(ids)
    assert [json.loads(r["body"])["n"] for r in store.intents.pending_intents(["macau"], since=0)] == [0, 1, 2]
    assert store.intents.take_intents([ids[0], ids[1]]) == [True, True]
    assert store.intents.take_intents([ids[1], ids[2]]) == [False, True]  # taken once
    store.intents.answer_intents([(ids[0], 201, {"ok": 0}), (ids[2], 409, {"code": "betting.closed"})])
    assert store.intents.intent_answer(ids[0]) == (201, {"ok": 0})
    assert store.intents.intent_answer(ids[1]) is None  # taken, not yet answered
    assert store.intents.intent_answer(ids[2]) == (409, {"code": "betting.closed"})
    assert store.accounts.users_by_ids([ana.id, 10_000]) == [ana, None]


def test_an_answer_that_comes_in_its_note_is_not_read_again(
    make_client: Callable[..., TestClient], tmp_path: Path
) -> None:
    relay = service_of(make_client(f"sqlite:///{tmp_path}/notes.db", run_tables=False)).relay
    waiting = asyncio.Event()
    relay._waiting[7] = waiting
    relay.control('a:7:[201,{"bet":{"id":3}}]')
    relay.control('a:8:[201,{"bet":{"id":4}}]')  # not one of ours: forgotten
    assert waiting.is_set() and relay._noted == {7: (201, {"bet": {"id": 3}})}
    relay._noted.clear()
    waiting.clear()
    relay.control("a:7:[201,{")  # cut short: the sender reads the answer instead
    assert waiting.is_set() and relay._noted == {}
