"""The journal of a table: what one group commit writes (events, bets, ledger entries), in bulk.

Money follows the events exactly: a bettor joining or adding funds moves money from the wallet to
the user's purse at the table; a bet from the purse to the table's in-play account; a settlement
back to the purse (and winnings from the house, commission owed recorded in the commission box); a
refund back to the purse; leaving or cashing out pays the commission box and moves the rest back
to the wallet. Each bet has at most one entry of each kind (a unique constraint), so nothing is
paid twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import Connection, select, text, update

from baccarat.errors import ProcedureError
from baccarat.server.bulk import IdReserve, add_to_column, insert_rows, next_ids, pipelined, update_rows
from baccarat.server.ops import TableOp
from baccarat.server.schema import OPEN_BET, BetStatus, EntryKind, accounts, bets, rounds
from baccarat.server.store.accounts import User
from baccarat.server.store.base import dumps
from baccarat.server.store.ledger import Ledger, transfer
from baccarat.server.store.limits import Staked
from baccarat.server.store.rounds import total_balances
from baccarat.server.store.settle_bulk import SettledRow, in_bulk, open_groups, settle_rows
from baccarat.server.store.tables import PRIVATE_EVENTS, Tables
from baccarat.settlement import BetResult
from baccarat.table_events import (
    BetPlaced,
    BetSettlement,
    BettorJoined,
    BettorLeft,
    CashedOut,
    CoupSettled,
    FundsAdded,
    RoundVoided,
    TableEvent,
)

__all__ = ["ClientIdTaken", "CommitResult", "Journal", "TableWrite", "bet_payload"]


@dataclass(slots=True)
class TableWrite:
    """One step of a table to store: its events, and what it does to the round (``op``)."""

    events: Sequence[TableEvent]
    op: TableOp | None = None
    data: dict[str, Any] = field(default_factory=dict)
    round_id: int | None = None
    #: per bet id of a BetPlaced event: (user id, client id, total balance before the bet)
    bet_meta: dict[str, tuple[int, str, int]] = field(default_factory=dict)
    #: the table's snapshot (``Table.snapshot``) once this step's events are applied, between rounds
    snapshot: dict[str, Any] | None = None


@dataclass(slots=True)
class CommitResult:
    """What :meth:`Store.commit_table` stored: the new round's id, the bets' ids, the events to broadcast."""

    round_id: int | None = None
    #: the new round's stored row (when a round was opened)
    round_row: dict[str, Any] | None = None
    bet_ids: dict[str, int] = field(default_factory=dict)
    published: list[dict[str, Any]] = field(default_factory=list)


class ClientIdTaken(ProcedureError):
    """New bets whose ``(user id, client id)`` is already stored (used at another table): nothing was written."""

    def __init__(self, keys: list[tuple[int, str]]) -> None:
        self.keys = keys
        super().__init__(f"{len(keys)} client id(s) already used", hint="answer the stored bets")


class Journal:
    """Writes table events and their ledger entries inside one transaction (bets in bulk)."""

    def __init__(
        self,
        conn: Connection,
        table_id: str,
        people: dict[str, User],
        now: float,
        *,
        ledger: Ledger,
        tables: Tables,
        ids: IdReserve | None = None,
    ) -> None:
        self.conn, self.table_id, self.people, self.now = conn, table_id, people, now
        self.ledger, self.tables = ledger, tables
        #: the bets' ids held ahead by the process that runs the table (PostgreSQL)
        self.ids = ids
        #: the round the events being added belong to
        self.round_id: int | None = None
        self.in_play = ledger.in_play_of(conn, table_id)
        self.house = ledger.house(conn)
        self.published: list[dict[str, Any]] = []
        self.bet_ids: dict[str, int] = {}
        self._events: list[tuple[Any, ...]] = []
        self._bets: list[tuple[int | None, int, str, str, int, int]] = []
        self._bet_keys: list[tuple[str, int]] = []
        #: every bet journaled, in order, as its players' limits hold it (:meth:`PlayerLimits.hold`)
        self.staked: list[Staked] = []
        self._purses: dict[int, int] = {}
        self._moves: list[tuple[Any, ...]] = []
        self._finished: list[tuple[Any, ...]] = []
        self._deltas: dict[int, int] = {}

    def user(self, name: str) -> User:
        """The registered user betting as ``name``."""
        found = self.people.get(name)
        if found is None:
            raise ProcedureError(f"no user {name!r}", hint="a bettor at a server table is a registered user")
        return found

    def add_all(self, events: Sequence[TableEvent], bet_meta: dict[str, tuple[int, str, int]]) -> None:
        """Journal a step's events (bets wait for :meth:`flush`, every other event is written at once)."""
        for event in events:
            self.add(event, bet_meta)

    def add(self, event: TableEvent, bet_meta: dict[str, tuple[int, str, int]]) -> None:
        """Journal one event with the money it moves."""
        if isinstance(event, BetPlaced):
            self._add_bet(event, bet_meta)
            return
        self.flush()
        self._store(event)
        self._money(event)

    def _add_bet(self, event: BetPlaced, bet_meta: dict[str, tuple[int, str, int]]) -> None:
        user = self.user(event.bettor)
        purse = self.ledger.purse(self.conn, self.table_id, user)
        key = event.bet_id or f"{user.id}/{len(self._bets)}"
        _, client_id, before = bet_meta.get(key, (user.id, key, 0))
        self._events.append((self.table_id, self.round_id, "BetPlaced", dumps(bet_payload(event)), self.now))
        self._bets.append((self.round_id, user.id, client_id, event.kind.value, event.amount, before))
        self._bet_keys.append((key, purse))
        self.staked.append((key, user.id, event.amount))
        self._purses[purse] = self._purses.get(purse, 0) - event.amount

    def prepare_bets(self, writes: Sequence[Any]) -> None:
        """Read now what journaling the bets of ``writes`` needs (their bettors' purses, their ids),
        so that it then sends statements only, without reading: as in a pipeline."""
        count = 0
        for w in writes:
            for event in w.events:
                if isinstance(event, BetPlaced):
                    self.ledger.purse(self.conn, self.table_id, self.user(event.bettor))
                    count += 1
        if self.ids is not None and self.conn.dialect.name == "postgresql":
            self.ids.ensure(self.conn, count)

    def flush(self) -> None:
        """Write the bets waiting (events, bet rows, stake entries, balances) with a few bulk
        statements: on PostgreSQL pipelined, with their ids taken beforehand (and the next ids
        asked for in the same round trip when a reserve is kept), on SQLite with their ids taken
        after the first insert, which takes the database's one write lock."""
        if not self._bets:
            return
        conn, count = self.conn, len(self._bets)
        if conn.dialect.name != "postgresql":
            insert_rows(conn, "events", _EVENT_COLUMNS, self._events)
            self._write_bets(next_ids(conn, "bets", count))
            return
        ids = next_ids(conn, "bets", count) if self.ids is None else self.ids.take(conn, count)
        with pipelined(conn):
            insert_rows(conn, "events", _EVENT_COLUMNS, self._events)
            self._write_bets(ids)
            if self.ids is not None:
                self.ids.refill_later(conn, count)

    def _write_bets(self, ids: list[int]) -> None:
        conn, now, accepted = self.conn, self.now, BetStatus.ACCEPTED.value
        insert_rows(
            conn,
            "bets",
            _BET_COLUMNS,
            [
                (i, r, u, c, k, stake, accepted, b, now)
                for i, (r, u, c, k, stake, b) in zip(ids, self._bets, strict=True)
            ],
        )
        insert_rows(
            conn,
            "entries",
            _ENTRY_COLUMNS,
            [
                (purse, self.in_play, row[4], EntryKind.STAKE.value, bet_id, self.round_id, now)
                for (_, purse), row, bet_id in zip(self._bet_keys, self._bets, ids, strict=True)
            ],
        )
        for (key, _), bet_id in zip(self._bet_keys, ids, strict=True):
            self.bet_ids[key] = bet_id
        self._move_many({**self._purses, self.in_play: -sum(self._purses.values())})
        self._events, self._bets, self._bet_keys, self._purses = [], [], [], {}

    def _move_many(self, deltas: dict[int, int]) -> None:
        add_to_column(self.conn, "accounts", "balance", deltas)

    def _store(self, event: TableEvent) -> None:
        payload = event.to_dict()
        stored = self.tables.event(
            self.conn, table_id=self.table_id, kind=event.type, payload=payload, round_id=self.round_id, notify=False
        )
        if event.type not in PRIVATE_EVENTS:
            self.published.append(stored)  # whole: the hub makes its public and private messages

    def public(self, kind: str, payload: dict[str, Any]) -> None:
        """Store a round event of the server (betting_opened, round_settled, …) to broadcast."""
        self.published.append(
            self.tables.event(
                self.conn, table_id=self.table_id, kind=kind, payload=payload, round_id=self.round_id, notify=False
            )
        )

    def _transfer(self, source: int, target: int, amount: int, kind: EntryKind, bet_id: int | None = None) -> None:
        transfer(
            self.conn, source=source, target=target, amount=amount, kind=kind, bet_id=bet_id, round_id=self.round_id
        )

    def _open_rows(self) -> dict[tuple[int, str], list[Any]]:
        rows = self.conn.execute(
            select(bets.c.id, bets.c.user_id, bets.c.kind, bets.c.stake)
            .join(rounds, rounds.c.id == bets.c.round_id)
            .where(rounds.c.table_id == self.table_id, text(f"bets.{OPEN_BET}"))
            .order_by(bets.c.id)
        ).all()
        grouped: dict[tuple[int, str], list[Any]] = {}
        for row in rows:
            grouped.setdefault((int(row[1]), str(row[2])), []).append(row)
        return grouped

    def _money(self, event: TableEvent) -> None:
        match event:
            case BettorJoined(bettor=name, balance=amount) | FundsAdded(bettor=name, amount=amount):
                user = self.user(name)
                purse = self.ledger.purse(self.conn, self.table_id, user, create=True)
                if amount > 0:
                    left = self.conn.execute(
                        update(accounts)
                        .where(accounts.c.id == user.wallet_id, accounts.c.balance >= amount)
                        .values(balance=accounts.c.balance)
                    ).rowcount
                    if left != 1:
                        raise ProcedureError(f"{name!r} has less than {amount} in the wallet", hint="bring less")
                    self._transfer(user.wallet_id, purse, amount, EntryKind.BUY_IN)
            case (
                CashedOut(bettor=name, amount=amount, commission=commission)
                | BettorLeft(bettor=name, amount=amount, commission=commission)
            ):
                user = self.user(name)
                purse = self.ledger.purse(self.conn, self.table_id, user)
                self._transfer(purse, user.owed_id, commission, EntryKind.COMMISSION_PAID)
                self._transfer(purse, user.wallet_id, amount, EntryKind.CASH_OUT)
            case CoupSettled(settlements=settlements):
                self._settle_all(settlements)
            case RoundVoided(refunds=refunds):
                grouped = self._open_rows()
                for refund in refunds:
                    user = self.user(refund.bettor)
                    purse = self.ledger.purse(self.conn, self.table_id, user)
                    rows = grouped.get((user.id, refund.kind.value), [])
                    if sum(int(r[3]) for r in rows) != refund.stake:
                        raise ProcedureError(f"the stored bets of {refund.bettor!r} do not match the table's")
                    for row in rows:
                        self._move(self.in_play, purse, int(row[3]), EntryKind.REFUND, int(row[0]))
                        self._settled_bet(int(row[0]), BetStatus.REFUNDED.value, "refund", 0, 0, int(row[3]))
                self._write_moves()
            case _:
                pass

    def _settle_all(self, settlements: Sequence[BetSettlement]) -> None:
        """Settle a coup: each settlement that returns every stake in full or none of it in bulk
        (:mod:`~baccarat.server.store.settle_bulk`, once every balance has moved, with the balance
        after the round), any other row by row."""
        groups = open_groups(self.conn, self.table_id)
        uniform: list[SettledRow] = []
        for s in settlements:
            user = self.user(s.bettor)
            found = groups.get((user.id, s.kind.value), [])
            if sum(g.staked for g in found) != s.stake:
                raise ProcedureError(f"the stored {s.kind.value} bets of {s.bettor!r} do not match the table's")
            if not found:
                continue
            purse = self.ledger.purse(self.conn, self.table_id, user)
            if len(found) > 1 or not in_bulk(s):
                self._settle(s, self._group_rows(user.id, s.kind.value))
                continue
            group, full = found[0], s.returned >= s.stake
            uniform.append(
                SettledRow(
                    round_id=group.round_id,
                    user_id=user.id,
                    kind=s.kind.value,
                    outcome=s.result.value,
                    full=full,
                    first=group.first,
                    paid=s.paid,
                    commission=s.commission,
                    extra=max(0, s.returned - s.stake),
                    purse=purse,
                )
            )
            back = purse if full else self.house
            self._deltas[self.in_play] = self._deltas.get(self.in_play, 0) - s.stake
            self._deltas[back] = self._deltas.get(back, 0) + s.stake
            self._move(self.house, purse, s.returned - s.stake, EntryKind.WIN, group.first)
            self._move(user.owed_id, self.house, s.owed, EntryKind.COMMISSION, group.first)
        self._write_moves()  # every balance moved: the balances after the round are known
        totals = total_balances(self.conn, [r.user_id for r in uniform])
        uniform = [replace(r, balance_after=totals.get(r.user_id)) for r in uniform]
        settle_rows(self.conn, uniform, in_play=self.in_play, house=self.house, round_id=self.round_id, now=self.now)

    def _group_rows(self, user_id: int, kind: str) -> list[Any]:
        """The accepted bets of one bettor on one kind at the table, oldest first: (id, user id, kind, stake)."""
        return list(
            self.conn.execute(
                select(bets.c.id, bets.c.user_id, bets.c.kind, bets.c.stake)
                .join(rounds, rounds.c.id == bets.c.round_id)
                .where(
                    rounds.c.table_id == self.table_id,
                    text(f"bets.{OPEN_BET}"),
                    bets.c.user_id == user_id,
                    bets.c.kind == kind,
                )
                .order_by(bets.c.id)
            ).all()
        )

    def _move(self, source: int, target: int, amount: int, kind: EntryKind, bet_id: int) -> None:
        """A transfer written by :meth:`_write_moves` (entries and balances in bulk)."""
        if amount <= 0:
            return
        self._moves.append((source, target, amount, kind.value, bet_id, self.round_id, self.now))
        self._deltas[source] = self._deltas.get(source, 0) - amount
        self._deltas[target] = self._deltas.get(target, 0) + amount

    def _settled_bet(self, bet_id: int, status: str, outcome: str, paid: int, commission: int, returned: int) -> None:
        self._finished.append((status, outcome, paid, commission, returned, bet_id))

    def _write_moves(self) -> None:
        """Write the settled bets' entries, bet rows and balances with a few bulk statements."""
        insert_rows(self.conn, "entries", _ENTRY_COLUMNS, self._moves)
        update_rows(
            self.conn,
            "UPDATE bets SET status = ?, outcome = ?, paid = ?, commission = ?, returned = ? WHERE id = ?",
            self._finished,
        )
        self._move_many(self._deltas)
        self._moves, self._finished, self._deltas = [], [], {}

    def _settle(self, s: BetSettlement, rows: list[Any]) -> None:
        """Settle one settlement's rows one by one (a stake returned in part, or bets left on the table)."""
        user = self.user(s.bettor)
        purse = self.ledger.purse(self.conn, self.table_id, user)
        if s.result is BetResult.STAY:
            self.conn.execute(update(bets).where(bets.c.id.in_([int(r[0]) for r in rows])).values(outcome="stay"))
            return
        back = min(s.returned, s.stake)
        for index, row in enumerate(rows):
            bet_id, stake = int(row[0]), int(row[3])
            returned = min(stake, back)
            back -= returned
            self._move(self.in_play, purse, returned, EntryKind.RETURN, bet_id)
            self._move(self.in_play, self.house, stake - returned, EntryKind.LOSS, bet_id)
            first = index == 0
            if first:
                self._move(self.house, purse, s.returned - s.stake, EntryKind.WIN, bet_id)
                self._move(user.owed_id, self.house, s.owed, EntryKind.COMMISSION, bet_id)
            self._settled_bet(
                bet_id,
                BetStatus.SETTLED.value,
                s.result.value,
                s.paid if first else 0,
                s.commission if first else 0,
                returned + (max(0, s.returned - s.stake) if first else 0),
            )


_EVENT_COLUMNS = ("table_id", "round_id", "kind", "payload", "created_at")
_BET_COLUMNS = ("id", "round_id", "user_id", "client_id", "kind", "stake", "status", "balance_before", "created_at")
_ENTRY_COLUMNS = ("from_account", "to_account", "amount", "kind", "bet_id", "round_id", "created_at")


def bet_payload(event: BetPlaced) -> dict[str, Any]:
    """``event.to_dict()`` of a bet, built directly (the one event stored thousands of times a second)."""
    return {
        "type": "BetPlaced",
        "at": event.at,
        "round": event.round,
        "bettor": event.bettor,
        "kind": event.kind.value,
        "amount": event.amount,
        "stake": event.stake,
        "spot": event.spot,
        "bet_id": event.bet_id,
    }
