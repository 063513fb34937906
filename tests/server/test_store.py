"""The store's group commit: each table operation moves the stored round on, fenced by the lease."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from baccarat.server.db import make_engine, migrate
from baccarat.server.ops import TableOp
from baccarat.server.store import LeaseLost, Store, TableWrite


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    engine = make_engine(db_url)
    migrate(engine)
    store = Store(engine)
    store.tables.ensure_tables(["t"], open_by_default={})
    try:
        yield store
    finally:
        engine.dispose()


def _open(store: Store, shoe_id: int | None) -> int:
    data = {"shoe_id": shoe_id, "cards": None, "layout": None, "betting_seconds": 5}
    opened = store.commit_table("t", [TableWrite([], op=TableOp.OPEN, data=data)])
    assert opened.round_id is not None and opened.round_row is not None
    assert opened.round_row["id"] == opened.round_id and opened.round_row["status"] == "betting"
    assert [e["type"] for e in opened.published] == ["betting_opened"]
    return opened.round_id


def _row(store: Store, round_id: int) -> dict[str, Any]:
    row = store.rounds.round_row(round_id)
    assert row is not None
    return row


def _step(store: Store, round_id: int, op: TableOp, data: dict[str, object]) -> list[str]:
    result = store.commit_table("t", [TableWrite([], op=op, data=data, round_id=round_id)])
    return [e["type"] for e in result.published]


def test_each_table_op_moves_the_stored_round_on(store: Store) -> None:
    voided = _open(store, None)
    assert _step(store, voided, TableOp.CLOSE, {"number": 1}) == ["betting_closed"]
    assert _row(store, voided)["status"] == "closed"
    assert _step(store, voided, TableOp.CARDS, {"cards": ["AS", "KD"]}) == ["card_entered"]
    assert _row(store, voided)["entered"] == '["AS", "KD"]'
    assert _step(store, voided, TableOp.VOID, {"reason": "misdeal"}) == ["round_voided"]
    assert (_row(store, voided)["status"], _row(store, voided)["void_reason"]) == ("voided", "misdeal")

    shoe_id, _ = store.shoes.start_shoe(table_id="t", config={}, server_seed="s", client_seed="c", commitment="h")
    settled = _open(store, shoe_id)
    assert _row(store, settled)["coup_in_shoe"] == 1
    _step(store, settled, TableOp.CLOSE, {"number": 2})
    cards = ["2S", "3H", "4D", "5C"]
    assert _step(store, settled, TableOp.SETTLE, {"number": 2, "result": {"cards": cards}}) == ["round_settled"]
    assert _row(store, settled)["status"] == "settled"
    assert store.shoes.shoe_results(shoe_id) == [cards]
    shoe = store.shoes.shoe_row(shoe_id)
    assert shoe is not None and shoe["coups"] == 1 and shoe["status"] == "active"
    assert store.shoes.shoe_row(shoe_id + 1) is None
    assert store.ledger.check_ledger().ok


def test_a_commit_of_a_process_without_the_lease_is_refused(store: Store) -> None:
    assert store.leases.acquire_lease("t", "a", ttl=30)
    assert not store.leases.acquire_lease("t", "b", ttl=30)
    data = {"shoe_id": None, "cards": None, "layout": None, "betting_seconds": 5}
    with pytest.raises(LeaseLost):
        store.commit_table("t", [TableWrite([], op=TableOp.OPEN, data=data)], owner="b")
    assert store.rounds.current_round("t") is None
    assert store.commit_table("t", [TableWrite([], op=TableOp.OPEN, data=data)], owner="a").round_id is not None
    assert store.leases.lease_owner("t") == "a"
