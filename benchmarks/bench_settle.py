"""The settlement of one large round: written in bulk against written row by row (the baseline).

A table of ``--bettors`` players, each placing ``--placements`` bets of 100 on Banker or Player in
one round (``--bettors 500 --placements 34`` is the load test's round: 500 clients, 5 bets a second,
8 s of betting): the round is settled by :meth:`Store.commit_table` once with the bulk statements
(:mod:`baccarat.server.store.settle_bulk`) and once row by row, on fresh databases, alternating,
``--repeat`` times. Prints the median time of each and their ratio.

    .venv/bin/python benchmarks/bench_settle.py
    .venv/bin/python benchmarks/bench_settle.py --db postgresql --repeat 3
"""

from __future__ import annotations

import argparse
import contextlib
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator
from urllib.parse import quote

from baccarat.rng import SeededSource
from baccarat.server.db import make_engine, migrate
from baccarat.server.ops import TableOp
from baccarat.server.store import Store, TableWrite
from baccarat.server.store import journal as journal_module
from baccarat.server.store.accounts import Role
from baccarat.table import Table
from baccarat.table_config import TableConfig
from baccarat.table_events import CoupSettled


@contextlib.contextmanager
def _database(kind: str, folder: str) -> Iterator[str]:
    """A fresh database: a SQLite file, or a PostgreSQL schema dropped afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{folder}/{secrets.token_hex(4)}.db"
        return
    import psycopg

    schema = f"bench_settle_{secrets.token_hex(4)}"
    conninfo = "postgresql://postgres@127.0.0.1:5432/test"
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/test?options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def _settle_once(url: str, bettors: int, placements: int) -> float:
    """Seconds to store the settlement of one round of ``bettors`` × ``placements`` bets."""
    engine = make_engine(url)
    try:
        migrate(engine)
        store = Store(engine)
        store.tables.ensure_tables(["t"], open_by_default={})
        names = [f"p{i}" for i in range(bettors)]
        for name in names:
            store.accounts.create_user(name=name, password_hash="x", role=Role.PLAYER, starting_balance=10_000_000)
        config = TableConfig(min_bet=100, max_bet=10_000_000, banker_player_limit=10**12)
        table = Table(config, source=SeededSource(7), round_bet_ids=True)
        store.commit_table("t", [TableWrite([e for n in names for e in table.join(n, balance=5_000_000, now=1.0)])])
        data = {"shoe_id": None, "betting_seconds": 8}
        opened = store.commit_table("t", [TableWrite(table.open_betting(now=2.0), op=TableOp.OPEN, data=data)])
        for batch in range(placements):
            placed = []
            for i, name in enumerate(names):
                placed += table.place_bet(name, ("banker", "player")[i % 2], 100, bet_id=f"{name}-{batch}", now=3.0)
            store.commit_table("t", [TableWrite(placed, round_id=opened.round_id)])
        closing = TableWrite(table.close_betting(now=4.0), op=TableOp.CLOSE, round_id=opened.round_id)
        store.commit_table("t", [closing])
        dealt = table.deal(now=5.0)
        settled = next(e for e in dealt if isinstance(e, CoupSettled))
        cards = [str(c) for c in (*settled.player, *settled.banker)]
        write = TableWrite(
            dealt, op=TableOp.SETTLE, data={"number": 1, "result": {"cards": cards}}, round_id=opened.round_id
        )
        started = time.perf_counter()
        store.commit_table("t", [write])
        return time.perf_counter() - started
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bettors", type=int, default=500)
    parser.add_argument("--placements", type=int, default=34, help="bets of each bettor in the round")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    bulk_in = journal_module.in_bulk
    times: dict[str, list[float]] = {"bulk": [], "row by row": []}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(max(1, args.repeat)):
            for label in times:
                journal_module.in_bulk = bulk_in if label == "bulk" else (lambda settlement: False)  # type: ignore[assignment]
                with _database(args.db, folder) as url:
                    times[label].append(_settle_once(url, args.bettors, args.placements))
    journal_module.in_bulk = bulk_in  # type: ignore[assignment]
    bets = args.bettors * args.placements
    medians = {label: statistics.median(values) for label, values in times.items()}
    print(f"settling one round of {bets:,} bets ({args.bettors} bettors) on {args.db}, median of {args.repeat}:")
    for label, median in medians.items():
        print(f"  {label:<11} {1000 * median:8.1f} ms")
    print(f"  row by row / bulk: {medians['row by row'] / medians['bulk']:.2f}x")


if __name__ == "__main__":
    main()
