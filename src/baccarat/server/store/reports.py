"""The queries behind the operator's reports: settled bets and finished rounds summed per table, UTC
day and bet kind (SQLAlchemy Core, on SQLite and PostgreSQL).

A bet counts on the UTC day its round finished (``rounds.finished_at``), with the table of its round.
Only settled bets count (a voided round's refunded bets are no handle); a bet left in action after a
tie (R24) counts with the round it was placed in once it is settled. The commission a bet's bettor
owes to the commission box (R27, ``commission = "owed"``) is read from its ``commission`` ledger
entry, the one that records it in the box at settlement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Float, Integer, and_, cast, func, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from baccarat.server.schema import BetStatus, EntryKind, RoundStatus, bets, entries, rounds
from baccarat.server.store.base import Database

__all__ = ["DAY_SECONDS", "BetSums", "ReportQueries", "RoundCounts", "utc_day"]

#: Seconds in a UTC day (days are counted from the Unix epoch).
DAY_SECONDS = 86_400


class utc_day(FunctionElement[int]):
    """The UTC day number (days since 1970-01-01) of a time in seconds since the epoch."""

    type = Integer()
    inherit_cache = True


@compiles(utc_day)
def _utc_day_sqlite(element: utc_day, compiler: Any, **kw: Any) -> str:
    # SQLite has no floor() in every build; the times are positive, so truncation is the floor
    (arg,) = list(element.clauses)
    return f"CAST({compiler.process(arg, **kw)} / {DAY_SECONDS}.0 AS INTEGER)"


@compiles(utc_day, "postgresql")
def _utc_day_postgres(element: utc_day, compiler: Any, **kw: Any) -> str:
    (arg,) = list(element.clauses)
    return f"CAST(floor({compiler.process(arg, **kw)} / {DAY_SECONDS}.0) AS INTEGER)"


@dataclass(frozen=True, slots=True)
class BetSums:
    """The settled bets of one kind at one table on one UTC day: how many, and their sums in minor
    units (``stake_squares``, Σ over the rounds of the round's stake², is a float: it only sizes the
    standard deviation)."""

    table_id: str
    day: int
    kind: str
    count: int
    stake: int
    stake_squares: float
    returned: int
    owed: int


@dataclass(frozen=True, slots=True)
class RoundCounts:
    """The rounds of one table that finished on one UTC day: settled and voided."""

    table_id: str
    day: int
    settled: int
    voided: int


def _window(column: Any, table_id: str | None, first_day: int | None, last_day: int | None) -> list[Any]:
    """The conditions of a report's filters on a round's table and finishing time."""
    conditions: list[Any] = []
    if table_id is not None:
        conditions.append(rounds.c.table_id == table_id)
    if first_day is not None:
        conditions.append(column >= first_day * DAY_SECONDS)
    if last_day is not None:
        conditions.append(column < (last_day + 1) * DAY_SECONDS)
    return conditions


class ReportQueries:
    """Reads the sums the reports are made of; it writes nothing."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def bet_sums(
        self, *, table_id: str | None = None, first_day: int | None = None, last_day: int | None = None
    ) -> list[BetSums]:
        """The settled bets per table, day and kind (days inclusive, ``None``: unbounded), in that order.

        ``stake_squares`` sums, per round, the square of the round's stakes on the kind: bets on one
        kind in one coup win or lose together, so they count as one bet of their summed stake."""
        owed: ColumnElement[Any] = func.coalesce(func.sum(entries.c.amount), 0)
        per_round = (
            select(
                rounds.c.table_id.label("table_id"),
                rounds.c.finished_at.label("finished_at"),
                bets.c.kind.label("kind"),
                func.count(bets.c.id).label("count"),
                cast(func.sum(bets.c.stake), Float).label("stake"),
                func.sum(bets.c.stake).label("staked"),
                func.sum(func.coalesce(bets.c.returned, 0)).label("returned"),
                owed.label("owed"),
            )
            .select_from(
                bets.join(rounds, rounds.c.id == bets.c.round_id).outerjoin(
                    entries, and_(entries.c.bet_id == bets.c.id, entries.c.kind == EntryKind.COMMISSION.value)
                )
            )
            .where(
                bets.c.status == BetStatus.SETTLED.value,
                rounds.c.finished_at.is_not(None),
                *_window(rounds.c.finished_at, table_id, first_day, last_day),
            )
            .group_by(rounds.c.id, rounds.c.table_id, rounds.c.finished_at, bets.c.kind)
            .subquery("per_round")
        )
        day = utc_day(per_round.c.finished_at)
        query = (
            select(
                per_round.c.table_id,
                day.label("day"),
                per_round.c.kind,
                func.sum(per_round.c.count),
                func.sum(per_round.c.staked),
                func.sum(per_round.c.stake * per_round.c.stake),
                func.sum(per_round.c.returned),
                func.sum(per_round.c.owed),
            )
            .group_by(per_round.c.table_id, day, per_round.c.kind)
            .order_by(per_round.c.table_id, day, per_round.c.kind)
        )
        with self.db.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            BetSums(str(t), int(d), str(k), int(n), int(s), float(sq or 0), int(r), int(o))
            for t, d, k, n, s, sq, r, o in rows
        ]

    def round_counts(
        self, *, table_id: str | None = None, first_day: int | None = None, last_day: int | None = None
    ) -> list[RoundCounts]:
        """The finished rounds per table and day: how many were settled and how many voided."""
        day = utc_day(rounds.c.finished_at)
        settled, voided = RoundStatus.SETTLED.value, RoundStatus.VOIDED.value
        query = (
            select(rounds.c.table_id, day.label("day"), rounds.c.status, func.count(rounds.c.id))
            .where(
                rounds.c.status.in_([settled, voided]),
                rounds.c.finished_at.is_not(None),
                *_window(rounds.c.finished_at, table_id, first_day, last_day),
            )
            .group_by(rounds.c.table_id, day, rounds.c.status)
        )
        counts: dict[tuple[str, int], list[int]] = {}
        with self.db.engine.connect() as conn:
            for table, number, status, count in conn.execute(query).all():
                pair = counts.setdefault((str(table), int(number)), [0, 0])
                pair[0 if status == settled else 1] += int(count)
        return [RoundCounts(t, d, s, v) for (t, d), (s, v) in sorted(counts.items())]
