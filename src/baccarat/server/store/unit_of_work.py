"""The store: one repository per aggregate over the engine, and the group commit that writes a run of
a table's steps across them in one transaction."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from baccarat.server.bulk import IdReserve, pipelined
from baccarat.server.hooks import crash_point
from baccarat.server.ops import TableOp
from baccarat.server.store.accounts import Accounts
from baccarat.server.store.audit import Audit
from baccarat.server.store.base import Database
from baccarat.server.store.intents import Intents
from baccarat.server.store.journal import ClientIdTaken, CommitResult, Journal, TableWrite
from baccarat.server.store.leases import Leases
from baccarat.server.store.ledger import Ledger
from baccarat.server.store.limits import PlayerLimits
from baccarat.server.store.rounds import Rounds
from baccarat.server.store.shoes import Shoes
from baccarat.server.store.staff import Staff
from baccarat.server.store.tables import Tables
from baccarat.table_events import BetPlaced, CoupSettled, RoundVoided

__all__ = ["Store"]

#: What stores one :class:`TableOp`: it journals the write's events and changes the round.
_Handler = Callable[[Journal, TableWrite, CommitResult], None]


class Store:
    """The durable state of the service: a repository per aggregate (``accounts``, ``ledger``,
    ``rounds``, ``shoes``, ``leases``, ``intents``, ``tables``, ``audit``), each public method of which runs
    in its own transaction, and :meth:`commit_table`, the one transaction across them of a table's
    run of steps."""

    def __init__(self, engine: Engine, *, channel: str | None = None) -> None:
        self.engine = engine
        self.db = Database(engine, channel=channel)
        self.ledger = Ledger(self.db)
        self.accounts = Accounts(self.db, self.ledger)
        self.tables = Tables(self.db, self.ledger)
        self.shoes = Shoes(self.db, self.tables)
        self.rounds = Rounds(self.db)
        self.leases = Leases(self.db)
        self.intents = Intents(self.db)
        self.audit = Audit(self.db)
        self.staff = Staff(self.db, self.accounts)
        self.limits = PlayerLimits(self.db)
        #: a unique constraint broken, as SQLAlchemy raises it and as the driver raises it from a
        #: pipeline (:func:`~baccarat.server.bulk.pipelined`)
        self._integrity_errors: tuple[type[Exception], ...] = (
            IntegrityError,
            getattr(engine.dialect.dbapi, "IntegrityError", IntegrityError),
        )
        #: the bets' ids held ahead for each table this process writes (PostgreSQL)
        self._bet_ids: dict[str, IdReserve] = {}
        self._handlers: dict[TableOp, _Handler] = {
            TableOp.OPEN: self._open,
            TableOp.CLOSE: self._close,
            TableOp.CARDS: self._cards,
            TableOp.SETTLE: self._settle,
            TableOp.VOID: self._void,
        }

    @property
    def channel(self) -> str | None:
        """PostgreSQL NOTIFY channel on which stored events are announced (``None``: no NOTIFY)."""
        return self.db.channel

    @channel.setter
    def channel(self, channel: str | None) -> None:
        self.db.channel = channel

    def lead_taken(self, table_id: str) -> None:
        """This process runs the table from now on (again): the bets' ids it held from before may
        come before those of the bets another process stored meanwhile, so they are dropped."""
        self._bet_ids.pop(table_id, None)

    def commit_table(self, table_id: str, writes: Sequence[TableWrite], *, owner: str | None = None) -> CommitResult:
        """Store a run of the table's events with their ledger entries and round changes, in one transaction.

        Money follows the events exactly (see :mod:`baccarat.server.store.journal`); each write's
        ``op`` changes the round (:class:`TableOp`), in the same transaction as the entries of its
        events, so a round leaves ``betting``/``closed`` exactly once with its settlement or refunds.
        ``owner`` fences the write: it is refused (:class:`LeaseLost`) unless that process still
        holds the table's lease. A write's ``snapshot`` is stored as covering every event of the
        table up to that write's. A bet whose ``(user id, client id)`` is stored already raises
        :class:`ClientIdTaken` and nothing is written. The bets hold their players' limits in the
        same transaction (:meth:`PlayerLimits.hold`): a bet of a self-excluded player, or one past
        its player's daily loss limit counted across every table and process, raises
        :class:`~baccarat.server.store.limits.BetsRefused` and nothing is written.
        """
        try:
            return self._commit(table_id, writes, owner=owner)
        except BaseException as error:
            self._bet_ids.pop(table_id, None)  # the ids held may have been asked for by the failed transaction
            if not isinstance(error, self._integrity_errors):
                raise
            # the unique (user, client id) of a bet: find which, so that the caller answers the stored bets
            wanted = {(uid, client) for w in writes for uid, client, _ in w.bet_meta.values()}
            if not wanted:
                raise
            with self.engine.connect() as conn:
                taken = self.rounds.taken(conn, wanted)
            if not taken:
                raise
            raise ClientIdTaken(taken) from None

    def _commit(self, table_id: str, writes: Sequence[TableWrite], *, owner: str | None) -> CommitResult:
        result = CommitResult()
        with self.engine.begin() as conn:
            now = time.time()
            people = self.accounts.users_named(conn, _bettors(writes))
            postgres = conn.dialect.name == "postgresql"
            ids = self._bet_ids.setdefault(table_id, IdReserve("bets")) if postgres else None
            journal = Journal(conn, table_id, people, now, ledger=self.ledger, tables=self.tables, ids=ids)
            if postgres and _bets_only(writes):
                self._journal_bets(journal, writes, owner)
            else:
                if owner is not None:
                    self.leases.fence(conn, table_id, owner, now)
                self._journal_all(journal, writes, result)
                self.limits.hold(conn, journal.staked, now)
            self.db.announce(conn, [int(event["id"]) for event in journal.published])
            if journal.bet_ids:
                crash_point("bets_uncommitted")
            result.published = journal.published
            result.bet_ids = journal.bet_ids
        if journal.bet_ids:
            crash_point("bets_committed")
        return result

    def _journal_all(self, journal: Journal, writes: Sequence[TableWrite], result: CommitResult) -> None:
        """Journal each write's events, round changes and snapshot, in order."""
        for w in writes:
            if w.round_id is not None:
                journal.round_id = w.round_id
            if w.op is None:
                journal.add_all(w.events, w.bet_meta)
            else:
                self._handlers[w.op](journal, w, result)
            if w.snapshot is not None:
                journal.flush()
                self.tables.store_snapshot(journal.conn, journal.table_id, w.snapshot, journal.now)
        journal.flush()

    def _journal_bets(self, journal: Journal, writes: Sequence[TableWrite], owner: str | None) -> None:
        """Journal writes of bets only (the hot path, PostgreSQL) in one round trip: the fence, the
        events, bets, entries and balances, the next bets' ids and the hold on the bettors' limits,
        pipelined; the fence's and the hold's answers are checked once they have all been answered,
        before the commit."""
        journal.prepare_bets(writes)  # whatever must be read, read before the pipeline
        with pipelined(journal.conn):
            fenced = (
                None if owner is None else self.leases.fence_later(journal.conn, journal.table_id, owner, journal.now)
            )
            for w in writes:
                if w.round_id is not None:
                    journal.round_id = w.round_id
                journal.add_all(w.events, w.bet_meta)
            journal.flush()
            held = self.limits.hold_later(journal.conn, journal.staked, journal.now)
        if fenced is not None:
            fenced()
        held()

    # --- one handler per TableOp ----------------------------------------------------------------

    def _open(self, journal: Journal, w: TableWrite, result: CommitResult) -> None:
        """A new round: its row first (the write's events belong to it), then betting opens."""
        shoe_id = w.data.get("shoe_id")
        coup = None if shoe_id is None else self.shoes.count_coup(journal.conn, int(shoe_id))
        row, opened = self.rounds.open_round(journal.conn, journal.table_id, w.data, coup_in_shoe=coup, now=journal.now)
        result.round_id, result.round_row = int(row["id"]), row
        journal.round_id = result.round_id
        _journal(journal, w)
        journal.public("betting_opened", opened)

    def _close(self, journal: Journal, w: TableWrite, result: CommitResult) -> None:
        _journal(journal, w)
        if journal.round_id is not None:
            count, staked = self.rounds.close_round(journal.conn, journal.round_id, journal.now)
            journal.public("betting_closed", {**w.data, "bets": count, "staked": staked})

    def _cards(self, journal: Journal, w: TableWrite, result: CommitResult) -> None:
        _journal(journal, w)
        if journal.round_id is not None:
            self.rounds.enter_cards(journal.conn, journal.round_id, w.data["cards"])
            journal.public("card_entered", {"cards": w.data["cards"]})

    def _settle(self, journal: Journal, w: TableWrite, result: CommitResult) -> None:
        _journal(journal, w)
        if journal.round_id is not None:
            link = self.rounds.settle_round(journal.conn, journal.round_id, w.data["result"], journal.now)
            crash_point("settle_uncommitted")
            journal.public("round_settled", w.data if link is None else w.data | {"chain_link": link})

    def _void(self, journal: Journal, w: TableWrite, result: CommitResult) -> None:
        _journal(journal, w)
        if journal.round_id is not None:
            link = self.rounds.void_round(journal.conn, journal.round_id, w.data["reason"], journal.now)
            journal.public("round_voided", w.data if link is None else w.data | {"chain_link": link})


def _journal(journal: Journal, w: TableWrite) -> None:
    """Journal a write's events and write its bets now (the round change that follows counts them)."""
    journal.add_all(w.events, w.bet_meta)
    journal.flush()


def _bets_only(writes: Iterable[TableWrite]) -> bool:
    """Whether the writes only place bets (no round change, no snapshot, no other event)."""
    return all(w.op is None and w.snapshot is None and all(isinstance(e, BetPlaced) for e in w.events) for w in writes)


def _bettors(writes: Iterable[TableWrite]) -> set[str]:
    """The names of every bettor the writes' events concern."""
    names: set[str] = set()
    for w in writes:
        for e in w.events:
            bettor = getattr(e, "bettor", None)
            if isinstance(bettor, str):
                names.add(bettor)
            if isinstance(e, CoupSettled):
                names |= {s.bettor for s in e.settlements}
            elif isinstance(e, RoundVoided):
                names |= {r.bettor for r in e.refunds}
    return names
