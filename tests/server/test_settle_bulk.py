"""A round's settlement written in bulk (a few statements for the whole round) stores exactly what
writing it row by row stores: every bet row, every ledger entry and every balance, for coups of
every outcome and bettors with many bets on one spot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from baccarat.rng import SeededSource
from baccarat.server.db import make_engine, migrate
from baccarat.server.ops import TableOp
from baccarat.server.schema import accounts, bets, entries
from baccarat.server.store import Store, TableWrite
from baccarat.server.store import journal as journal_module
from baccarat.server.store.accounts import Role
from baccarat.table import Table
from baccarat.table_config import TableConfig
from baccarat.table_events import CoupSettled

NAMES = ("ann", "bob", "cho", "dee")
#: each bettor's placements: (bet kind, stake), several on one spot
PLACEMENTS = {
    "ann": [("banker", 200), ("banker", 300), ("banker", 100), ("tie", 100)],
    "bob": [("player", 500), ("player", 100), ("player_pair", 100), ("player_pair", 100)],
    "cho": [("banker", 100), ("player", 100), ("banker_pair", 100)],
    "dee": [("tie", 100), ("tie", 100), ("player", 1000)],
}


def _store(url: str) -> Store:
    engine = make_engine(url)
    migrate(engine)
    store = Store(engine)
    store.tables.ensure_tables(["t"], open_by_default={})
    for name in NAMES:
        store.accounts.create_user(name=name, password_hash="x", role=Role.PLAYER, starting_balance=100_000)
    return store


def _rounds(store: Store, seed: int, coups: int) -> list[str]:
    """Play ``coups`` coups of a seeded table into the store; the result of each."""
    table = Table(TableConfig(min_bet=100, max_bet=100_000), source=SeededSource(seed))
    store.commit_table("t", [TableWrite([e for n in NAMES for e in table.join(n, balance=50_000, now=1.0)])])
    results = []
    for coup in range(coups):
        opened = store.commit_table(
            "t",
            [
                TableWrite(
                    table.open_betting(now=10.0 * coup + 2),
                    op=TableOp.OPEN,
                    data={"shoe_id": None, "betting_seconds": 5},
                )
            ],
        )
        round_id = opened.round_id
        placed = []
        for name, bets_of in PLACEMENTS.items():
            for n, (kind, stake) in enumerate(bets_of):
                placed += table.place_bet(name, kind, stake, bet_id=f"{name}-{coup}-{n}", now=10.0 * coup + 3)
        store.commit_table("t", [TableWrite(placed, round_id=round_id)])
        store.commit_table(
            "t", [TableWrite(table.close_betting(now=10.0 * coup + 4), op=TableOp.CLOSE, round_id=round_id)]
        )
        dealt = table.deal(now=10.0 * coup + 5)
        settled = next(e for e in dealt if isinstance(e, CoupSettled))
        cards = [str(c) for c in (*settled.player, *settled.banker)]
        data = {"number": coup + 1, "result": {"cards": cards}}
        store.commit_table("t", [TableWrite(dealt, op=TableOp.SETTLE, data=data, round_id=round_id)])
        results.append(settled.winner.value)
        assert store.ledger.check_ledger().ok
    return results


def _stored(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every bet row, ledger entry and account balance."""
    bet_columns = (bets.c.id, bets.c.status, bets.c.outcome, bets.c.paid, bets.c.commission, bets.c.returned)
    entry_columns = (entries.c.from_account, entries.c.to_account, entries.c.amount, entries.c.kind, entries.c.bet_id)
    with store.engine.connect() as conn:
        bet_rows = conn.execute(select(*bet_columns, bets.c.balance_after).order_by(bets.c.id)).all()
        entry_rows = conn.execute(select(*entry_columns)).all()
        balances = conn.execute(select(accounts.c.name, accounts.c.balance).order_by(accounts.c.name)).all()
        names = dict(conn.execute(select(accounts.c.id, accounts.c.name)).all())  # ids differ between databases
    return {
        "bets": [tuple(r) for r in bet_rows],
        "entries": sorted((names[r[0]], names[r[1]], *r[2:]) for r in entry_rows),
        "balances": [tuple(r) for r in balances],
    }


@pytest.mark.parametrize("seed", [1, 7])
def test_a_round_settled_in_bulk_stores_what_row_by_row_stores(
    db_url: str, tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    bulk = _store(db_url)
    rows = _store(f"sqlite:///{tmp_path / 'rows.db'}")
    try:
        outcomes = _rounds(bulk, seed, coups=12)
        with monkeypatch.context() as patch:
            patch.setattr(journal_module, "in_bulk", lambda settlement: False)
            assert _rounds(rows, seed, coups=12) == outcomes
        assert {"banker", "player"} <= set(outcomes)  # both sides won at least once
        in_bulk, by_row = _stored(bulk), _stored(rows)
        settled = [r for r in in_bulk["bets"] if r[1] == "settled"]
        assert len(settled) == 12 * sum(len(p) for p in PLACEMENTS.values())
        assert any(r[3] > 0 for r in settled) and any(r[5] == 0 for r in settled)  # wins and losses
        assert in_bulk == by_row
    finally:
        bulk.engine.dispose()
        rows.engine.dispose()
