"""Table snapshots at the server: stored with the events of each round's end, and a restarted app (or
a process that does not run the table) rebuilds the table from the newest one and the events after it."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select
from tests.server.conftest import admin, betting_round, clock_of, close_table, register

from baccarat.server.clock import ManualClock
from baccarat.server.observer.views import table_public
from baccarat.server.schema import events, table_snapshots
from baccarat.server.service import TableRunner
from baccarat.server.store import Store
from baccarat.table import SNAPSHOT_FORMAT, Phase, Table
from baccarat.table_events import EVENT_TYPES


def _snapshot_row(store: Store, table_id: str) -> tuple[int, dict[str, Any]] | None:
    with store.engine.connect() as conn:
        row = conn.execute(
            select(table_snapshots.c.event_id, table_snapshots.c.payload).where(table_snapshots.c.table_id == table_id)
        ).first()
    return None if row is None else (int(row[0]), json.loads(row[1]))


def _newest_state_event(store: Store, table_id: str) -> int:
    with store.engine.connect() as conn:
        found = conn.execute(
            select(func.max(events.c.id)).where(events.c.table_id == table_id, events.c.kind.in_(sorted(EVENT_TYPES)))
        ).scalar()
    return int(found or 0)


def _runner(client: TestClient, table_id: str) -> TableRunner:
    runner = client.app.state.service.runners[table_id]  # type: ignore[attr-defined]
    assert isinstance(runner, TableRunner)
    return runner


def _ledger_ok(client: TestClient) -> None:
    report = client.get("/api/admin/ledger", headers=admin(client)).json()
    assert report["ok"], report


def _wait_settled(client: TestClient, round_id: int) -> None:
    clock_of(client).run_until(lambda: client.get(f"/api/rounds/{round_id}").json()["status"] == "settled")


def test_a_restarted_app_rebuilds_the_table_from_its_snapshot_and_the_events_after_it(
    make_client: Any, db_url: str, clock: ManualClock
) -> None:
    client = make_client(db_url)
    ann, bob = register(client, "ann"), register(client, "bob")
    store: Store = client.app.state.service.store
    played = attempts = 0
    while played < 3:
        attempts += 1
        current = betting_round(client, "macau")
        bets = [
            client.post(
                "/api/tables/macau/bets",
                json={"client_id": f"{who}{attempts}", "bet": bet, "stake": stake},
                headers=headers,
            )
            for who, headers, bet, stake in (("a", ann, "banker", 1000), ("b", bob, "player", 500))
        ]
        _wait_settled(client, current["id"])
        assert all(placed.status_code == 201 for placed in bets), [placed.text for placed in bets]
        played += 1  # the time stands still between the requests: betting is still open for each
    close_table(client, "macau")
    stored = clock.run_until(lambda: _snapshot_row(store, "macau"))
    assert stored[1]["format"] == SNAPSHOT_FORMAT
    # after the last round: events the snapshot does not cover
    cy = register(client, "cyd")
    assert client.post("/api/tables/macau/join", json={"seat": 3, "buy_in": 5000}, headers=cy).status_code == 201
    assert client.post("/api/tables/macau/cash-out", json={"amount": 100}, headers=ann).status_code == 200
    live = _runner(client, "macau").table
    assert live is not None
    expected = Table.replay(live.config, store.tables.table_events("macau"), round_bet_ids=True)
    assert live.state == expected.state
    snapshot_event, snapshot = _snapshot_row(store, "macau") or (0, {})
    assert Table.from_snapshot(live.config, snapshot).state.round == live.state.round
    client.__exit__(None, None, None)  # the first process stops (and gives the table's lease back)

    again = make_client(db_url)
    runner = _runner(again, "macau")
    clock.run_until(lambda: runner.table is not None and runner.restored is not None)
    every = store.tables.table_events("macau")
    after = store.tables.table_events("macau", after=snapshot_event)
    assert [e["type"] for e in after] == ["BettorJoined", "CashedOut"]
    assert runner.restored == (snapshot_event, len(after)) and len(every) > 10 * len(after)
    assert _newest_state_event(store, "macau") > snapshot_event
    assert runner.table is not None and runner.table.phase is Phase.IDLE
    assert runner.table.state == Table.replay(runner.config, every, round_bet_ids=True).state == expected.state
    # money: each bettor's purse is their balance at the table, and the ledger checks out
    for name, headers in (("ann", ann), ("bob", bob), ("cyd", cy)):
        at_tables = again.get("/api/me", headers=headers).json()["at_tables"]
        assert at_tables["macau"] == runner.table.state.bettors[name].balance
    _ledger_ok(again)
    # a process that does not run the table rebuilds it the same way
    reader = make_client(db_url, run_tables=False)
    seen = reader.get("/api/tables/macau").json()["table"]
    assert seen == json.loads(json.dumps(table_public(expected, runner.config)))
    # the restored table plays on, and the next round's end stores a newer snapshot
    assert again.post("/api/admin/tables/macau/open", headers=admin(again)).status_code == 200
    current = betting_round(again, "macau")
    placed = again.post("/api/tables/macau/bets", json={"client_id": "c0", "bet": "tie", "stake": 100}, headers=cy)
    assert placed.status_code == 201, placed.text
    _wait_settled(again, current["id"])
    clock.run_until(lambda: (_snapshot_row(store, "macau") or (0, {}))[0] > snapshot_event)
    _ledger_ok(again)


def test_a_snapshot_of_another_format_or_one_that_cannot_be_read_is_passed_over(
    make_client: Any, tmp_path: Any, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/s.db")
    service = client.app.state.service
    store: Store = service.store
    runner = _runner(client, "cont")
    clock.run_until(lambda: _snapshot_row(store, "cont"))
    close_table(client, "cont")
    config = runner.config
    replayed = Table.replay(config, store.tables.table_events("cont"), round_bet_ids=True)
    loaded = client.portal.call(service.load_table, "cont", config)
    assert loaded.snapshot_event_id > 0 and loaded.table.state == replayed.state
    for payload, readable in (({"format": SNAPSHOT_FORMAT + 1}, False), ({"format": SNAPSHOT_FORMAT}, True)):
        with store.engine.begin() as conn:
            conn.execute(
                table_snapshots.update().where(table_snapshots.c.table_id == "cont").values(payload=json.dumps(payload))
            )
        assert (store.tables.table_history("cont").snapshot is not None) is readable
        loaded = client.portal.call(service.load_table, "cont", config)
        assert loaded.snapshot_event_id == 0 and loaded.replayed == len(store.tables.table_events("cont"))
        assert loaded.table.state == replayed.state
