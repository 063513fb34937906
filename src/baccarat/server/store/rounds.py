"""Rounds and their bets.

A bet is unique per ``(user, client id)``: placing it twice places it once. Each round leaves
``betting``/``closed`` exactly once, in the transaction that writes its settlement or refund
entries (see :meth:`Store.commit_table`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, func, insert, select, update

from baccarat.server.bulk import execute_values, sql_of
from baccarat.server.chain import BET_COLUMNS, digest_of, link_of, record_of_rows
from baccarat.server.schema import AccountKind, RoundStatus, accounts, bets, rounds, shoes, users
from baccarat.server.store.base import Database

if TYPE_CHECKING:
    from baccarat.server.store.accounts import User

__all__ = ["Rounds", "SettledBet", "bet_dict", "total_balances"]

_IN_FLIGHT = (RoundStatus.BETTING.value, RoundStatus.CLOSED.value)


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledBet:
    """How one bet of a round settles, in minor units (from :func:`baccarat.settlement.settle_bets`)."""

    bet_id: int
    outcome: str  # win, lose or push
    paid: int
    commission: int
    owed: int
    returned: int


def bet_dict(row: Any) -> dict[str, Any]:
    """A stored bet as the API shows it."""
    m = row._mapping
    return {
        "id": m["id"],
        "round_id": m["round_id"],
        "client_id": m["client_id"],
        "bet": m["kind"],
        "stake": m["stake"],
        "status": m["status"],
        "result": m["outcome"],
        "paid": m["paid"],
        "commission": m["commission"],
        "returned": m["returned"],
        "balance_before": m["balance_before"],
        "balance_after": m["balance_after"],
    }


class Rounds:
    """The rounds of the tables and the bets placed on them."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --- reads ----------------------------------------------------------------------------------

    def round_row(self, round_id: int) -> dict[str, Any] | None:
        """A round's stored row."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(rounds).where(rounds.c.id == round_id)).first()
        return None if row is None else dict(row._mapping)

    def unfinished_rounds(self, table_id: str) -> list[dict[str, Any]]:
        """Rounds of a table still betting or closed (in flight), oldest first."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(rounds)
                .where(rounds.c.table_id == table_id, rounds.c.status.in_(_IN_FLIGHT))
                .order_by(rounds.c.id)
            ).all()
        return [dict(row._mapping) for row in rows]

    def current_round(self, table_id: str) -> dict[str, Any] | None:
        """The table's latest round."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(rounds).where(rounds.c.table_id == table_id).order_by(rounds.c.id.desc()).limit(1)
            ).first()
        return None if row is None else dict(row._mapping)

    def round_totals(self, round_id: int) -> dict[str, int]:
        """Total stake per bet kind in a round (what the table shows)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(bets.c.kind, func.sum(bets.c.stake)).where(bets.c.round_id == round_id).group_by(bets.c.kind)
            ).all()
        return {str(kind): int(total) for kind, total in rows}

    def bets_by_client(self, keys: Sequence[tuple[int, str]]) -> dict[tuple[int, str], dict[str, Any]]:
        """Stored bets by ``(user id, client id)`` (to answer a repeated client id). One statement
        outside a transaction: read before every group commit that places bets, it ends without a
        round trip of its own."""
        with self.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            return {
                (int(r._mapping["user_id"]), str(r._mapping["client_id"])): bet_dict(r) for r in _by_client(conn, keys)
            }

    def taken(self, conn: Connection, wanted: set[tuple[int, str]]) -> list[tuple[int, str]]:
        """The ``(user id, client id)`` pairs of ``wanted`` that stored bets already use."""
        return [(int(r._mapping["user_id"]), str(r._mapping["client_id"])) for r in _by_client(conn, sorted(wanted))]

    def history(self, user: User, *, limit: int = 20) -> list[dict[str, Any]]:
        """A user's last rounds: cards, bets, payouts, and the wallet balance before and after."""
        with self.db.engine.connect() as conn:
            round_ids = [
                r[0]
                for r in conn.execute(
                    select(bets.c.round_id)
                    .where(bets.c.user_id == user.id)
                    .group_by(bets.c.round_id)
                    .order_by(bets.c.round_id.desc())
                    .limit(limit)
                ).all()
            ]
            if not round_ids:
                return []
            round_rows = {
                r._mapping["id"]: r._mapping for r in conn.execute(select(rounds).where(rounds.c.id.in_(round_ids)))
            }
            bet_rows = conn.execute(
                select(bets).where(bets.c.user_id == user.id, bets.c.round_id.in_(round_ids)).order_by(bets.c.id)
            ).all()
        out = []
        for round_id in round_ids:
            r = round_rows[round_id]
            mine = [bet_dict(b) for b in bet_rows if b._mapping["round_id"] == round_id]
            finished = r["status"] in (RoundStatus.SETTLED.value, RoundStatus.VOIDED.value)
            out.append(
                {
                    "round_id": round_id,
                    "table": r["table_id"],
                    "number": r["number"],
                    "status": r["status"],
                    "result": json.loads(r["result"]) if r["result"] else None,
                    "void_reason": r["void_reason"],
                    "bets": mine,
                    "balance_before": mine[0]["balance_before"],
                    "balance_after": mine[0]["balance_after"] if finished else None,
                }
            )
        return out

    # --- writes ---------------------------------------------------------------------------------

    def forget_round(self, round_id: int) -> None:
        """Void a stored round that the table never opened (no bet can be on it)."""
        with self.db.engine.begin() as conn:
            conn.execute(
                update(rounds)
                .where(rounds.c.id == round_id, rounds.c.status.in_(_IN_FLIGHT))
                .values(status=RoundStatus.VOIDED.value, finished_at=time.time(), void_reason="not opened")
            )
            self.chain(conn, round_id)

    def open_round(
        self, conn: Connection, table_id: str, data: dict[str, Any], *, coup_in_shoe: int | None, now: float
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Store the table's next round, betting from ``now`` (``data``: its shoe id, cards, layout and
        betting seconds); returns its row and the payload of its ``betting_opened`` event."""
        number = (
            conn.execute(select(func.max(rounds.c.number)).where(rounds.c.table_id == table_id)).scalar() or 0
        ) + 1
        cards, layout = data.get("cards"), data.get("layout")
        closes_at = now + float(data["betting_seconds"])
        round_id = int(
            conn.execute(
                insert(rounds)
                .values(
                    table_id=table_id,
                    number=number,
                    shoe_id=data.get("shoe_id"),
                    coup_in_shoe=coup_in_shoe,
                    status=RoundStatus.BETTING.value,
                    opened_at=now,
                    closes_at=closes_at,
                    cards=None if cards is None else json.dumps(cards),
                    layout=None if layout is None else json.dumps(layout),
                    entered=None if cards is not None else "[]",
                )
                .returning(rounds.c.id)
            ).scalar_one()
        )
        row = dict(conn.execute(select(rounds).where(rounds.c.id == round_id)).one()._mapping)
        payload: dict[str, Any] = {
            "number": number,
            "closes_at": closes_at,
            "betting_seconds": data["betting_seconds"],
            "coup_in_shoe": coup_in_shoe,
        }
        if layout is not None:
            payload["layout"] = layout
        return row, payload

    def close_round(self, conn: Connection, round_id: int, now: float) -> tuple[int, int]:
        """Close betting on the round; returns its number of bets and their total stake."""
        conn.execute(
            update(rounds).where(rounds.c.id == round_id).values(status=RoundStatus.CLOSED.value, closed_at=now)
        )
        count, total = conn.execute(
            select(func.count(), func.coalesce(func.sum(bets.c.stake), 0)).where(bets.c.round_id == round_id)
        ).one()
        return int(count), int(total)

    def enter_cards(self, conn: Connection, round_id: int, cards: list[str]) -> None:
        """Store the cards entered so far in a dealer-entry round."""
        conn.execute(update(rounds).where(rounds.c.id == round_id).values(entered=json.dumps(cards)))

    def settle_round(self, conn: Connection, round_id: int, result: dict[str, Any], now: float) -> str | None:
        """Mark the round settled with its result (its bets' entries are written with it), store each
        bettor's balance after it and chain its record; returns its chain link (``None``: no shoe seed)."""
        conn.execute(
            update(rounds)
            .where(rounds.c.id == round_id)
            .values(status=RoundStatus.SETTLED.value, finished_at=now, result=json.dumps(result))
        )
        self._balances_after(conn, round_id)
        return self.chain(conn, round_id)

    def void_round(self, conn: Connection, round_id: int, reason: str, now: float) -> str | None:
        """Mark the round voided (its refunds are written with it), store each bettor's balance after it
        and chain its record; returns its chain link (``None``: no shoe seed)."""
        conn.execute(
            update(rounds)
            .where(rounds.c.id == round_id)
            .values(status=RoundStatus.VOIDED.value, finished_at=now, void_reason=reason)
        )
        self._balances_after(conn, round_id)
        return self.chain(conn, round_id)

    def chain(self, conn: Connection, round_id: int) -> str | None:
        """Hash the finished round's record into its shoe's fairness chain (:mod:`baccarat.server.chain`);
        returns the new link (``None``: a round without a shoe seed, or one chained already)."""
        row = conn.execute(select(rounds).where(rounds.c.id == round_id)).first()
        if row is None or row._mapping["shoe_id"] is None or row._mapping["chain_link"] is not None:
            return None
        shoe = conn.execute(
            select(shoes.c.chain_head, shoes.c.commitment).where(shoes.c.id == row._mapping["shoe_id"])
        ).one()
        digest = digest_of(record_of_rows(dict(row._mapping), _record_rows(conn, round_id)))
        link = link_of(shoe.chain_head or shoe.commitment, digest)
        conn.execute(update(rounds).where(rounds.c.id == round_id).values(record_digest=digest, chain_link=link))
        conn.execute(update(shoes).where(shoes.c.id == row._mapping["shoe_id"]).values(chain_head=link))
        return link

    def record(self, round_id: int) -> str | None:
        """The finished round's record as its stored rows give it now (to check against its digest)."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(rounds).where(rounds.c.id == round_id)).first()
            if row is None:
                return None
            return record_of_rows(dict(row._mapping), _record_rows(conn, round_id))

    def chain_of(self, shoe_id: int, *, upto: int | None = None) -> list[dict[str, Any]]:
        """The shoe's chain: each finished round's place in the shoe, digest and link, in chain order
        (up to and including coup ``upto``)."""
        query = (
            select(rounds.c.id, rounds.c.coup_in_shoe, rounds.c.record_digest, rounds.c.chain_link)
            .where(rounds.c.shoe_id == shoe_id, rounds.c.chain_link.is_not(None))
            .order_by(rounds.c.coup_in_shoe, rounds.c.id)
        )
        if upto is not None:
            query = query.where(rounds.c.coup_in_shoe <= upto)
        with self.db.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [{"round_id": r[0], "coup_in_shoe": r[1], "digest": r[2], "link": r[3]} for r in rows]

    def _balances_after(self, conn: Connection, round_id: int) -> None:
        """Write each bettor's total balance (wallet and money at the tables) after the round on
        their bets that have none yet (a few statements; a settlement in bulk writes its own)."""
        bettors = sorted(
            int(u) for u in conn.execute(select(bets.c.user_id).where(bets.c.round_id == round_id).distinct()).scalars()
        )
        totals = total_balances(conn, bettors)
        after = [(round_id, user_id, totals[user_id]) for user_id in bettors if user_id in totals]
        for start in range(0, len(after), 1000):  # one statement per thousand bettors, not one per bet
            execute_values(
                conn,
                "UPDATE bets SET balance_after = s.column3 FROM {values} "
                "WHERE bets.round_id = s.column1 AND bets.user_id = s.column2 AND bets.balance_after IS NULL",
                after[start : start + 1000],
            )


def _record_rows(conn: Connection, round_id: int) -> list[Any]:
    """The round's bets as its record holds them: tuples of :data:`~baccarat.server.chain.BET_COLUMNS`
    in the order of their ids, read by the driver itself (tens of thousands in a busy round)."""
    columns = ", ".join(BET_COLUMNS)
    statement = f"SELECT {columns} FROM bets WHERE round_id = ? ORDER BY id"
    return list(conn.exec_driver_sql(sql_of(conn, statement), (round_id,)).all())


def total_balances(conn: Connection, user_ids: Sequence[int]) -> dict[int, int]:
    """Each user's total balance: the wallet and the money at every table."""
    totals: dict[int, int] = {}
    wanted = sorted(set(user_ids))
    for start in range(0, len(wanted), 500):
        for user_id, balance in conn.execute(
            select(users.c.id, accounts.c.balance)
            .join(accounts, accounts.c.id == users.c.wallet_id)
            .where(users.c.id.in_(wanted[start : start + 500]))
        ):
            totals[int(user_id)] = int(balance)
    if totals:
        for name, balance in conn.execute(
            select(accounts.c.name, accounts.c.balance).where(accounts.c.kind == AccountKind.PURSE.value)
        ):
            owner = int(str(name).split(":")[1])
            if owner in totals:
                totals[owner] += int(balance)
    return totals


#: The stored bets of a list of ``(user id, client id)`` pairs, each found by the unique index: the
#: list drives the join (SQLite takes a ``CROSS JOIN``'s left side as the outer loop; PostgreSQL
#: looks each pair up in a ``LATERAL`` subquery, which a ``LIMIT`` keeps from being turned into a
#: scan of every bet joined by hash).
_BY_CLIENT = {
    "sqlite": "SELECT bets.* FROM {values} CROSS JOIN bets WHERE bets.user_id = s.column1 AND bets.client_id = s.column2",
    "postgresql": "SELECT b.* FROM {values} CROSS JOIN LATERAL (SELECT * FROM bets "
    "WHERE bets.user_id = s.column1 AND bets.client_id = s.column2 LIMIT 1) AS b",
}


def _by_client(conn: Connection, keys: Sequence[tuple[int, str]]) -> list[Any]:
    """The stored bets of the ``(user id, client id)`` pairs (:data:`_BY_CLIENT`)."""
    wanted = sorted(set(keys))
    rows: list[Any] = []
    for start in range(0, len(wanted), 1000):
        found = execute_values(conn, _BY_CLIENT[conn.dialect.name], wanted[start : start + 1000])
        rows += [] if found is None else found.all()
    return rows
