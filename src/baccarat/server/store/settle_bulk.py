"""A round's settlement written in bulk: a few statements for the whole round, not one row per bet.

A settlement (:class:`~baccarat.table_events.BetSettlement`) covers every accepted bet of one bettor
on one bet kind in the round, often many rows (a player who clicks the same chip ten times). When
the settlement returns every stake in full, or none of it, each row's entry and outcome follow from
its own stake: the ``return`` (or ``loss``) entries are inserted by one ``INSERT … SELECT`` over the
round's bets joined to a ``VALUES`` list of the settlements, and the rows are marked settled by one
``UPDATE … FROM`` the same list; the winnings and the commission go on the first row of each
settlement, as :meth:`Journal._settle <baccarat.server.store.journal.Journal>` writes them one row at
a time. Both SQLite (3.33 and later) and PostgreSQL name the columns of a ``VALUES`` list
``column1``, ``column2``, …; each settlement's rows are found by the index on ``(round_id,
user_id, kind)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, func, select, text

from baccarat.server.bulk import execute_values
from baccarat.server.schema import OPEN_BET, BetStatus, EntryKind, bets, rounds
from baccarat.settlement import BetResult
from baccarat.table_events import BetSettlement

__all__ = ["CHUNK", "Group", "SettledRow", "in_bulk", "open_groups", "settle_rows"]

#: Settlements per statement (11 parameters each: within SQLite's and PostgreSQL's limits).
CHUNK = 1000


@dataclass(frozen=True, slots=True)
class Group:
    """A bettor's accepted bets of one kind at a table: their round, how many, their stakes' sum, the first id."""

    round_id: int
    count: int
    staked: int
    first: int


@dataclass(frozen=True, slots=True)
class SettledRow:
    """One settlement whose every stake is returned in full (``full``) or lost: what its rows get."""

    round_id: int
    user_id: int
    kind: str
    outcome: str
    full: bool
    first: int
    paid: int
    commission: int
    extra: int  # returned beyond the stakes (the winnings), on the first row
    purse: int
    balance_after: int | None = None  # the bettor's total balance after the round


def in_bulk(settlement: BetSettlement) -> bool:
    """Whether a settlement's rows can be written in bulk: it ends its bets (no ``stay``) and
    returns every stake in full or none of it."""
    return settlement.result is not BetResult.STAY and not 0 < settlement.returned < settlement.stake


def open_groups(conn: Connection, table_id: str) -> dict[tuple[int, str], list[Group]]:
    """The accepted bets of a table by ``(user id, kind)``, one :class:`Group` per round."""
    query = (
        select(bets.c.round_id, bets.c.user_id, bets.c.kind, func.count(), func.sum(bets.c.stake), func.min(bets.c.id))
        .join(rounds, rounds.c.id == bets.c.round_id)
        .where(rounds.c.table_id == table_id, text(f"bets.{OPEN_BET}"))
        .group_by(bets.c.round_id, bets.c.user_id, bets.c.kind)
    )
    groups: dict[tuple[int, str], list[Group]] = {}
    for round_id, user_id, kind, count, staked, first in conn.execute(query):
        group = Group(int(round_id), int(count), int(staked), int(first))
        groups.setdefault((int(user_id), str(kind)), []).append(group)
    return groups


_MATCH = "bets.round_id = s.column1 AND bets.user_id = s.column2 AND bets.kind = s.column3"

_ENTRIES = (
    "INSERT INTO entries (from_account, to_account, amount, kind, bet_id, round_id, created_at) "
    "SELECT ?, CASE WHEN s.column5 = 1 THEN s.column10 ELSE ? END, bets.stake, "
    "CASE WHEN s.column5 = 1 THEN ? ELSE ? END, bets.id, ?, ? "
    "FROM bets JOIN {values} ON " + _MATCH + " WHERE bets.status = ? ORDER BY bets.id"
)

_BETS = (
    "UPDATE bets SET status = ?, outcome = s.column4, "
    "paid = CASE WHEN bets.id = s.column6 THEN s.column7 ELSE 0 END, "
    "commission = CASE WHEN bets.id = s.column6 THEN s.column8 ELSE 0 END, "
    "returned = CASE WHEN s.column5 = 1 THEN bets.stake ELSE 0 END "
    "+ CASE WHEN bets.id = s.column6 THEN s.column9 ELSE 0 END, "
    "balance_after = s.column11 "
    "FROM {values} WHERE " + _MATCH + " AND bets.status = ?"
)


def settle_rows(
    conn: Connection, settled: Sequence[SettledRow], *, in_play: int, house: int, round_id: int | None, now: float
) -> None:
    """Write the ``return``/``loss`` entry of every bet row of ``settled`` and mark the rows settled
    with the bettor's balance after the round.

    The balances are the caller's to move (it knows each settlement's sums), before this.
    """
    accepted = BetStatus.ACCEPTED.value
    for start in range(0, len(settled), CHUNK):
        rows = [
            (
                r.round_id,
                r.user_id,
                r.kind,
                r.outcome,
                1 if r.full else 0,
                r.first,
                r.paid,
                r.commission,
                r.extra,
                r.purse,
                r.balance_after,
            )
            for r in settled[start : start + CHUNK]
        ]
        head = (in_play, house, EntryKind.RETURN.value, EntryKind.LOSS.value, round_id, now)
        execute_values(conn, _ENTRIES, rows, before=head, after=[accepted])
        execute_values(conn, _BETS, rows, before=[BetStatus.SETTLED.value], after=[accepted])
