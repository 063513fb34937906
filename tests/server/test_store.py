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


def _bets(round_id: int, user_id: int, keys: list[str]) -> TableWrite:
    from baccarat.bets import BetKind
    from baccarat.table_events import BetPlaced

    events = [
        BetPlaced(at=1.0, round=1, bettor="ann", kind=BetKind.BANKER, amount=100, stake=100, spot=None, bet_id=key)
        for key in keys
    ]
    return TableWrite(events, round_id=round_id, bet_meta={key: (user_id, key, 0) for key in keys})


def test_bets_are_stored_in_order_and_fenced_by_the_lease(store: Store) -> None:
    """Writes of bets only (on PostgreSQL one pipelined round trip, their ids held ahead): refused
    whole without the lease, stored with increasing ids in their order, the stakes moved."""
    from baccarat.server.store.accounts import Role
    from baccarat.table_events import BettorJoined

    ann = store.accounts.create_user(name="ann", password_hash="x", role=Role.PLAYER, starting_balance=10_000)
    assert store.leases.acquire_lease("t", "a", ttl=30)
    data = {"shoe_id": None, "cards": None, "layout": None, "betting_seconds": 5}
    round_id = store.commit_table("t", [TableWrite([], op=TableOp.OPEN, data=data)], owner="a").round_id
    assert round_id is not None
    joined = BettorJoined(at=1.0, bettor="ann", balance=5_000, seat=None, variant="macau")
    store.commit_table("t", [TableWrite([joined], round_id=round_id)], owner="a")

    with pytest.raises(LeaseLost):
        store.commit_table("t", [_bets(round_id, ann.id, ["x1", "x2"])], owner="b")
    first = store.commit_table("t", [_bets(round_id, ann.id, ["a1", "a2"]), _bets(round_id, ann.id, ["a3"])], owner="a")
    store.lead_taken("t")  # the ids held are dropped: the next come from the sequence again
    second = store.commit_table("t", [_bets(round_id, ann.id, ["b1", "b2"])], owner="a")
    third = store.commit_table("t", [_bets(round_id, ann.id, ["c1"])], owner="a")  # from the ids held
    keys = ("a1", "a2", "a3", "b1", "b2", "c1")
    ids = [{**first.bet_ids, **second.bet_ids, **third.bet_ids}[k] for k in keys]
    assert ids == sorted(ids) and len(set(ids)) == 6
    stored = store.rounds.bets_by_client([(ann.id, k) for k in ("x1", *keys)])
    assert (ann.id, "x1") not in stored, "nothing of the refused write was stored"
    assert [stored[(ann.id, k)]["id"] for k in keys] == ids
    assert store.ledger.purses(ann) == {"t": 5_000 - 600}
    assert store.ledger.check_ledger().ok
