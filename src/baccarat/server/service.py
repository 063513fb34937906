"""The running service: one authoritative loop per table (:mod:`baccarat.server.runner`), the
store, the fan-out to clients, and the actions passed on between processes.

Each table's rounds are run by exactly one process at a time: the one holding the table's lease
(a row renewed every second, taken over by another process once it expires). That process holds
the table's state machine (:class:`baccarat.table.Table`) and drives it: deal the coup from the
provably fair shoe and store its cards, open betting, count down, close, enter the stored cards
into the table (waiting for the squeezers, R23), settle, end the shoe and reveal its seed. Players'
intents (join, sit, bet, reveal, leave, …) are applied to the same table in arrival order. Every
step's events are stored with their ledger entries in one transaction, fenced by the lease, so a
process that resumes after a crash rebuilds the table and goes on: a round in flight when the
process died continues from its stored state with its stored cards. Each round that ends stores a
snapshot of the table (:meth:`Table.snapshot`) in the same transaction as its last events, so the
table is rebuilt from the newest snapshot and the events after it, not from its whole history.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import text

from baccarat.server.clock import Clock, SystemClock
from baccarat.server.db import Checkpointer, is_postgres, make_engine, migrate
from baccarat.server.hub import Hub, PgListener
from baccarat.server.notes import private_notes, transient_note
from baccarat.server.relay import INTENT_SECONDS, NO_ANSWER, IntentHandler, IntentRelay
from baccarat.server.runner import LoadedTable, TableRunner
from baccarat.server.settings import Lobby
from baccarat.server.store import Store, User
from baccarat.table import SnapshotError, Table
from baccarat.table_config import TableConfig

__all__ = ["INTENT_SECONDS", "NO_ANSWER", "LoadedTable", "Service", "ServiceOptions", "TableRunner"]

log = logging.getLogger("baccarat.server")
T = TypeVar("T")

#: How long the house's changes to the tables' settings, as read, are used before they are read again.
SETTINGS_SECONDS = 2.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ServiceOptions:
    """How a service process runs: its database, lobby, limits and clock.

    ``clock`` times everything the process does (the betting countdown, the pause after a
    settlement, the squeeze deadline, when the lease is renewed, how long an action passed on to
    another process is waited for) and dates the table's events. The store dates its rows itself,
    with the wall clock (when a round opens and closes, when a table's lease expires): a lease is
    shared by every process of the database, so it is read from the one clock they all share, not
    from a process's own. A clock other than :class:`~baccarat.server.clock.SystemClock` therefore
    goes with a store whose wall clock follows it (as the server tests arrange for their
    :class:`~baccarat.server.clock.ManualClock`).
    """

    db_url: str
    lobby: Lobby
    run_tables: bool = True
    ws_messages_per_second: float = 20.0
    ws_burst: int = 40
    http_requests_per_second: float = 50.0
    http_burst: int = 100
    max_batch: int = 1000
    clock: Clock = field(default_factory=SystemClock)


class Service:
    """Everything one server process runs: the store, the table loops, the bet batcher and the hub."""

    def __init__(self, options: ServiceOptions) -> None:
        self.options = options
        self.lobby = options.lobby
        self.clock = options.clock
        #: store calls started and not yet returned (none: the process waits on nothing but time and its clients)
        self.in_flight = 0
        #: set each time one of this process's table loops takes its table's lease (made anew by :meth:`start`)
        self.lead_taken = asyncio.Event()
        self.engine = make_engine(options.db_url, background_checkpoints=True)
        self.checkpointer = None if is_postgres(self.engine) else Checkpointer(self.engine)
        self.owner = f"{os.uname().nodename}:{os.getpid()}:{secrets.token_hex(4)}"
        self.hub = Hub()
        self.channel: str | None = None
        self.store = Store(self.engine)
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-write")
        self._readers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="db-read")
        self.runners: dict[str, TableRunner] = {}
        self._settings_read = float("-inf")
        self._tasks: list[asyncio.Task[None]] = []
        self._listener: PgListener | None = None
        #: the actions passed on to the process that runs a table, and those passed on to this one
        self.relay = IntentRelay(self)
        self._intent_loop: asyncio.Task[None] | None = None

    # --- executors ------------------------------------------------------------------------------

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a writing store call on the single writer thread."""
        loop = asyncio.get_running_loop()
        self.in_flight += 1
        try:
            return await loop.run_in_executor(self._writer, lambda: fn(*args, **kwargs))
        finally:
            self.in_flight -= 1

    async def read(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a reading store call on a reader thread."""
        loop = asyncio.get_running_loop()
        self.in_flight += 1
        try:
            return await loop.run_in_executor(self._readers, lambda: fn(*args, **kwargs))
        finally:
            self.in_flight -= 1

    async def load_table(self, table_id: str, config: TableConfig) -> LoadedTable:
        """A table's state machine rebuilt from the database: its newest snapshot and the events after
        it; with no snapshot this version can read, every stored event. Bet ids are kept for the
        round in play only (a client id reused later is caught by the bets' unique constraint)."""
        history = await self.read(self.store.tables.table_history, table_id)
        events = history.events
        if history.snapshot is not None:
            try:
                table = Table.from_snapshot(config, history.snapshot, events=events, keep_log=False, round_bet_ids=True)
                return LoadedTable(table, history.after, len(events))
            except SnapshotError as error:
                log.warning("table %s: its snapshot cannot be read (%s); replaying every event", table_id, error)
                events = await self.read(self.store.tables.table_events, table_id)
        table = Table.replay(config, events, keep_log=False, round_bet_ids=True)
        return LoadedTable(table, 0, len(events))

    # --- events ---------------------------------------------------------------------------------

    def publish(self, event: dict[str, Any] | None) -> None:
        """Deliver a stored event to this process's clients (with PostgreSQL the note sent at
        commit carries it to the other processes)."""
        if event is not None:
            self.hub.deliver(event)

    def publish_all(
        self, table_id: str, events: list[dict[str, Any]], private: list[tuple[str, dict[str, Any]]]
    ) -> None:
        """Deliver what one commit stored (its events) with the private messages that go with it
        (accepted bets), together, to this process's clients; with PostgreSQL the events reach
        the other processes by the note sent at commit, the private messages by notes sent now."""
        self.hub.deliver_all(table_id, events, private)
        if self.channel is not None and private:
            self._notify_soon(private_notes(table_id, private, sender=self.owner))

    def publish_transient(self, message: dict[str, Any]) -> None:
        """Deliver a public message that is not stored (the countdown) to every process's clients."""
        self.hub.broadcast(message)
        if self.channel is not None:
            note = transient_note(message, sender=self.owner)
            if note is not None:
                self._notify_soon([note])

    def _notify_soon(self, notes: list[str]) -> None:
        if notes:
            asyncio.get_running_loop().run_in_executor(self._readers, self._notify_all, notes)

    def _notify_all(self, payloads: list[str]) -> None:
        with self.engine.begin() as conn:
            self.store.db.notify(conn, *payloads)

    # --- intents: actions for a table another process runs ------------------------------------------

    @property
    def intent_handler(self) -> IntentHandler | None:
        """Applies an intent to a table this process runs: (user, table id, kind, body) -> (status, answer)."""
        return self.relay.handler

    @intent_handler.setter
    def intent_handler(self, handler: IntentHandler | None) -> None:
        self.relay.handler = handler

    async def forward(self, table_id: str, user: User, kind: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Pass an action on to the process that runs the table (:meth:`IntentRelay.forward`)."""
        return await self.relay.forward(table_id, user, kind, body)

    # --- life -----------------------------------------------------------------------------------

    async def refresh_settings(self, *, force: bool = False) -> None:
        """Read the house's changes to the tables' settings again (at most every
        :data:`SETTINGS_SECONDS`, or now with ``force``) into :attr:`Lobby.changes`."""
        now = time.monotonic()
        if not force and now - self._settings_read < SETTINGS_SECONDS:
            return
        self._settings_read = now
        changes = await self.read(self.store.tables.table_settings)
        self.lobby.changes.clear()
        self.lobby.changes.update(changes)

    def prepare(self) -> None:
        """Migrate the database and create what the lobby needs (blocking; call before serving)."""
        migrate(self.engine)
        if is_postgres(self.engine):
            with self.engine.connect() as conn:
                database, schema = conn.execute(text("SELECT current_database(), current_schema()")).one()
            self.channel = "baccarat_" + hashlib.sha256(f"{database}/{schema}".encode()).hexdigest()[:16]
            self.store.channel = self.channel
            self.store.db.sender = self.owner
        self.store.tables.ensure_tables(
            [spec.id for spec in self.lobby.tables], open_by_default={spec.id: spec.open for spec in self.lobby.tables}
        )

    async def start(self) -> None:
        """Start listening for other processes' events and the table loops."""
        self.hub.loop = asyncio.get_running_loop()
        if self.checkpointer is not None:
            self.checkpointer.start()
        if self.channel is not None:
            url = self.engine.url.set(drivername="postgresql")
            self._listener = PgListener(
                conninfo=url.render_as_string(hide_password=False),
                channel=self.channel,
                fetch=self.store.tables.events_by_ids,
                hub=self.hub,
                control=self.relay.control,
                sender=self.owner,
            )
            await asyncio.get_running_loop().run_in_executor(None, self._listener.start)
        self.lead_taken = asyncio.Event()  # an event belongs to the loop it is first waited on: this one
        self._intent_loop = asyncio.create_task(self.relay.serve(), name="intents")
        if self.options.run_tables:
            for spec in self.lobby.tables:
                runner = TableRunner(self, spec)
                self.runners[spec.id] = runner
                self._tasks.append(asyncio.create_task(runner.run(), name=f"table-{spec.id}"))
            deadline = self.clock.monotonic() + 3.0  # for the lease of every table, or until then
            while not all(r.leader for r in self.runners.values()):
                left = deadline - self.clock.monotonic()
                if left <= 0:
                    break
                self.lead_taken.clear()
                await self.clock.sleep(left, wake=self.lead_taken)

    async def stop(self) -> None:
        """Stop the loops (releasing their leases) and the listener."""
        if self._intent_loop is not None:
            self._intent_loop.cancel()
            with contextlib.suppress(BaseException):
                await self._intent_loop
        for runner in self.runners.values():
            runner.stop()
        if self._tasks:  # real time: a process that stops does not wait on a clock that may stand still
            await asyncio.wait(self._tasks, timeout=5)
        for task in self._tasks:
            task.cancel()
        if self._listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._listener.stop)
        self._writer.shutdown(wait=True)
        self._readers.shutdown(wait=False)
        if self.checkpointer is not None:
            self.checkpointer.stop()
        self.engine.dispose()
