"""Players' responsible-gaming settings (table ``player_limits``): a daily loss limit (minor
units, per UTC day), the minutes between play-time reminders, and the end of a self-exclusion;
what a player has lost so far today (stakes less what came back, open bets counted in full); and
the hold of the bets a group commit stores on their players' limits.

The hold is what makes the daily loss limit hold across tables and processes. The transaction
that stores a group of bets (:meth:`~baccarat.server.store.Store.commit_table`) locks, once it has
written them, the ``player_limits`` row of each of their bettors who has a limit or is excluded
(PostgreSQL: ``FOR UPDATE``; SQLite: the database's one write lock, which the transaction holds by
then), and only then sums what each of them has lost today, the group's own bets included. A
transaction storing bets of the same player, at any table and in any process, waits for that lock
and sums after this one has committed, so two cannot both pass. The amount at risk is the bet row
itself: an open bet counts in full; its settlement turns it into a loss or gives it back (what it
returned), a refund gives it all back. A group with a bet past its player's limit is not written
(:class:`BetsRefused`): the table's runner stores it again without the bets refused.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select, update

from baccarat.errors import BaccaratError, ProcedureError
from baccarat.server.bulk import later, pg_array_literal, sql_of
from baccarat.server.refusals import Refusal
from baccarat.server.schema import bets, player_limits
from baccarat.server.store.base import Database

__all__ = [
    "BetsRefused",
    "Limits",
    "PlayerLimits",
    "Staked",
    "day_start",
    "judge_bets",
    "loss_refusal",
    "self_excluded",
]

#: A bet a group commit stores, as its hold on the limits sees it: (bet key, user id, stake).
Staked = tuple[str, int, int]


@dataclass(frozen=True, slots=True)
class Limits:
    """One player's settings (``None``: not set)."""

    daily_loss_limit: int | None = None
    session_reminder_minutes: int | None = None
    excluded_until: float | None = None

    def excluded(self, now: float) -> bool:
        """Whether the player is self-excluded at ``now``."""
        return self.excluded_until is not None and now < self.excluded_until


def day_start(now: float) -> float:
    """The start of the UTC day of ``now`` (the loss limit counts from it).

    >>> day_start(86_400 * 3 + 5_000)
    259200.0
    """
    return float(int(now // 86_400) * 86_400)


def loss_refusal(limit: int, lost: int, stake: int) -> ProcedureError:
    """The refusal of a bet of ``stake`` that would take today's loss ``lost`` past ``limit``.

    >>> loss_refusal(1000, 400, 700).params
    {'limit': 1000, 'lost': 400, 'stake': 700, 'left': 600}
    """
    left = max(0, limit - lost)
    return ProcedureError(
        f"a bet of {stake} would take today's loss to {lost + stake}, past the daily loss limit of {limit}",
        hint=f"bet at most {left} today, or wait for tomorrow (UTC)",
        code="limit.daily_loss",
        params={"limit": limit, "lost": lost, "stake": stake, "left": left},
    )


def self_excluded(until: float | None) -> Refusal:
    """The refusal of a self-excluded player (the exclusion ends by itself; the house cannot end it early)."""
    detail = "you have excluded yourself from play until the time given"
    return Refusal(403, "account.self_excluded", detail, params={"until": until})


class BetsRefused(ProcedureError):
    """Bets of a group commit refused by their players' limits (by bet key): nothing was written."""

    def __init__(self, refusals: dict[str, BaccaratError | Refusal]) -> None:
        self.refusals = refusals
        super().__init__(f"{len(refusals)} bet(s) refused by their players' limits", hint="store the others")


def judge_bets(
    staked: Sequence[Staked],
    limits: dict[int, Limits],
    lost: dict[int, int],
    *,
    now: float,
) -> dict[str, BaccaratError | Refusal]:
    """The refusals of a group's bets, in their order: a bet of a self-excluded player, and a bet
    that would take its player's loss today past the limit. ``lost`` is what each player has lost
    today with every bet of the group counted; a bet refused leaves room for a later, smaller one.

    >>> staked = [("a", 1, 1000), ("b", 1, 1000), ("c", 1, 500), ("d", 2, 1000)]
    >>> refused = judge_bets(staked, {1: Limits(daily_loss_limit=1500)}, {1: 2500}, now=0)
    >>> {key: error.params for key, error in refused.items()}
    {'b': {'limit': 1500, 'lost': 1000, 'stake': 1000, 'left': 500}}
    """
    group: dict[int, int] = {}
    for _, user_id, stake in staked:
        group[user_id] = group.get(user_id, 0) + stake
    taken: dict[int, int] = {}
    refusals: dict[str, BaccaratError | Refusal] = {}
    for key, user_id, stake in staked:
        found = limits.get(user_id)
        if found is None:
            continue
        if found.excluded(now):
            refusals[key] = self_excluded(found.excluded_until)
            continue
        limit = found.daily_loss_limit
        if limit is None:
            continue
        before = lost.get(user_id, 0) - group[user_id] + taken.get(user_id, 0)
        if before + stake > limit:
            refusals[key] = loss_refusal(limit, before, stake)
        else:
            taken[user_id] = taken.get(user_id, 0) + stake
    return refusals


class PlayerLimits:
    """Reads and writes the players' settings, and holds a group's bets on them."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self, user_id: int) -> Limits:
        """A player's settings (all unset when none were stored)."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(player_limits).where(player_limits.c.user_id == user_id)).first()
        if row is None:
            return Limits()
        m = row._mapping
        return Limits(m["daily_loss_limit"], m["session_reminder_minutes"], m["excluded_until"])

    def all_set(self) -> dict[int, Limits]:
        """Every player with a setting stored."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(player_limits)).all()
        return {int(r.user_id): Limits(r.daily_loss_limit, r.session_reminder_minutes, r.excluded_until) for r in rows}

    def change(self, user_id: int, decide: Callable[[Limits], Limits]) -> tuple[Limits, Limits]:
        """Replace a player's settings by ``decide(old)`` in one transaction, the player's row
        locked meanwhile (so two changes cannot both start from the same old settings, and a group
        of bets holding the row is stored before or after, never across); ``decide`` may refuse by
        raising, and nothing changes. Returns the old settings and the new."""
        now = time.time()
        with self.db.engine.begin() as conn:
            self.db.insert_ignore(conn, player_limits, {"user_id": user_id, "updated_at": now})
            query = select(player_limits).where(player_limits.c.user_id == user_id)
            row = conn.execute(query.with_for_update() if self.db.postgres else query).one()
            old = Limits(row.daily_loss_limit, row.session_reminder_minutes, row.excluded_until)
            new = decide(old)
            conn.execute(
                update(player_limits)
                .where(player_limits.c.user_id == user_id)
                .values(
                    daily_loss_limit=new.daily_loss_limit,
                    session_reminder_minutes=new.session_reminder_minutes,
                    excluded_until=new.excluded_until,
                    updated_at=now,
                )
            )
        return old, new

    def put(self, user_id: int, limits: Limits) -> None:
        """Store a player's settings (replacing the earlier ones)."""
        self.change(user_id, lambda _: limits)

    def lost_since(self, user_id: int, since: float) -> int:
        """What the player has lost on the bets placed since ``since``: their stakes less what came
        back (an open bet counts in full until it settles)."""
        with self.db.engine.connect() as conn:
            staked, back = conn.execute(
                select(func.coalesce(func.sum(bets.c.stake), 0), func.coalesce(func.sum(bets.c.returned), 0)).where(
                    bets.c.user_id == user_id, bets.c.created_at >= since
                )
            ).one()
        return int(staked) - int(back)

    # --- the hold of a group commit's bets ---------------------------------------------------------

    def hold(self, conn: Connection, staked: Sequence[Staked], now: float) -> None:
        """In the transaction that has just written the bets ``staked``: lock their players' rows
        and refuse the group (:class:`BetsRefused`) if a bet is of a self-excluded player or takes
        its player's loss today past the limit."""
        users = sorted({user_id for _, user_id, _ in staked})
        if not users:
            return
        limits = _limits_of(conn.exec_driver_sql(*_locking(conn, users, now)).all())
        if not limits:
            return
        lost = _lost_of(conn.exec_driver_sql(*_summing(conn, users, day_start(now))).all())
        _refuse(staked, limits, lost, now)

    def hold_later(self, conn: Connection, staked: Sequence[Staked], now: float) -> Callable[[], None]:
        """:meth:`hold` sent in the pipeline in progress (PostgreSQL), after the bets' rows: the
        lock first, then the sum, which the server runs once the lock is held (each statement sees
        what was committed before it began). The check it returns raises :class:`BetsRefused` once
        the pipeline has synced, before the transaction commits."""
        users = sorted({user_id for _, user_id, _ in staked})
        if not users:
            return _nothing
        locking = later(conn, *_locking(conn, users, now))
        summing = later(conn, *_summing(conn, users, day_start(now)))

        def check() -> None:
            try:
                limits = _limits_of(locking.fetchall())
                lost = _lost_of(summing.fetchall())
            finally:
                locking.close()
                summing.close()
            if limits:
                _refuse(staked, limits, lost, now)

        return check


def _nothing() -> None:
    """No bet to hold."""


def _refuse(staked: Sequence[Staked], limits: dict[int, Limits], lost: dict[int, int], now: float) -> None:
    refusals = judge_bets(staked, limits, lost, now=now)
    if refusals:
        raise BetsRefused(refusals)


def _users(conn: Connection, users: list[int]) -> tuple[str, list[Any]]:
    """The condition "``user_id`` is one of ``users``" and its parameters: one array parameter with
    PostgreSQL (a statement of the same text whatever the number, prepared once), a list with SQLite."""
    if conn.dialect.name == "postgresql":
        return "user_id = ANY(?::bigint[])", [pg_array_literal(users, "bigint")]
    return "user_id IN (" + ", ".join("?" for _ in users) + ")", list(users)


def _locking(conn: Connection, users: list[int], now: float) -> tuple[str, tuple[Any, ...]]:
    """The statement that locks (PostgreSQL) and reads the rows of the players of ``users`` who
    have a loss limit or are excluded at ``now``, in the order of their ids (one lock order for every
    writer)."""
    among, params = _users(conn, users)
    lock = " FOR UPDATE" if conn.dialect.name == "postgresql" else ""
    sql = (
        "SELECT user_id, daily_loss_limit, excluded_until FROM player_limits"
        f" WHERE {among} AND (daily_loss_limit IS NOT NULL OR excluded_until > ?) ORDER BY user_id{lock}"
    )
    return sql_of(conn, sql), (*params, now)


def _summing(conn: Connection, users: list[int], since: float) -> tuple[str, tuple[Any, ...]]:
    """The statement that sums, per player of ``users`` with a loss limit, the stakes and the
    returns of the bets placed since ``since``."""
    among, params = _users(conn, users)
    sql = (
        "SELECT user_id, sum(stake), coalesce(sum(returned), 0) FROM bets"
        f" WHERE user_id IN (SELECT user_id FROM player_limits WHERE {among} AND daily_loss_limit IS NOT NULL)"
        " AND created_at >= ? GROUP BY user_id"
    )
    return sql_of(conn, sql), (*params, since)


def _limits_of(rows: Sequence[Any]) -> dict[int, Limits]:
    """The locked rows' limits by user id."""
    return {
        int(r[0]): Limits(None if r[1] is None else int(r[1]), None, None if r[2] is None else float(r[2]))
        for r in rows
    }


def _lost_of(rows: Sequence[Any]) -> dict[int, int]:
    """What each player has lost today, by user id (stakes less returns)."""
    return {int(r[0]): int(r[1]) - int(r[2]) for r in rows}
