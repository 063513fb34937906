"""The running service: one authoritative loop per table, bets with group commit, recovery, fan-out.

Each table's rounds are run by exactly one process at a time: the one holding the table's lease
(a row renewed every second, taken over by another process once it expires). The loop owns the
round's life: deal the coup and store its cards, open betting, count down, close, reveal and
settle (or wait for the dealer's cards), end the shoe and reveal its seed. Every step is a
conditional update in its own transaction, so a loop that resumes after a crash, or a second loop,
can neither skip a step nor repeat one: a round in flight when the process died simply continues
from its stored state with its stored cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import text

from baccarat.dealing import ShoeDealer
from baccarat.rng import ProvablyFairSource, commitment_of
from baccarat.roads import Scoreboard
from baccarat.server import game
from baccarat.server.db import is_postgres, make_engine, migrate
from baccarat.server.fairness import shoe_config_from
from baccarat.server.hooks import crash_point
from baccarat.server.hub import Hub, PgListener
from baccarat.server.schema import RoundStatus
from baccarat.server.settings import Dealing, Lobby, TableSpec
from baccarat.server.store import BetOutcome, BetRequest, Store
from baccarat.shoe import DealingMode

__all__ = ["BetBatcher", "Service", "ServiceOptions", "TableRunner"]

log = logging.getLogger("baccarat.server")
T = TypeVar("T")

LEASE_SECONDS = 5.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ServiceOptions:
    """How a service process runs: its database, lobby and limits."""

    db_url: str
    lobby: Lobby
    run_tables: bool = True
    ws_messages_per_second: float = 20.0
    ws_burst: int = 40
    http_requests_per_second: float = 50.0
    http_burst: int = 100
    max_batch: int = 1000


class BetBatcher:
    """Group commit: bets that arrive while a batch is being written go together in the next one."""

    def __init__(self, service: Service, *, max_batch: int) -> None:
        self.service = service
        self.max_batch = max_batch
        self._pending: list[tuple[BetRequest, asyncio.Future[BetOutcome]]] = []
        self._task: asyncio.Task[None] | None = None

    async def place(self, request: BetRequest) -> BetOutcome:
        """Place one bet durably; returns once its batch has committed."""
        future: asyncio.Future[BetOutcome] = asyncio.get_running_loop().create_future()
        self._pending.append((request, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[: self.max_batch], self._pending[self.max_batch :]
            try:
                outcomes = await self.service.write(self.service.store.place_bets, [r for r, _ in batch])
            except Exception as error:
                log.exception("placing a batch of %d bets failed", len(batch))
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if not future.done():
                    future.set_result(outcome)


class TableRunner:
    """The loop of one table (runs only while this process holds the table's lease)."""

    def __init__(self, service: Service, spec: TableSpec) -> None:
        self.service = service
        self.spec = spec
        self.store = service.store
        self.leader = False
        self.dealer: ShoeDealer | None = None
        self.shoe_id: int | None = None
        self.scoreboard = Scoreboard()
        self._stop = asyncio.Event()
        self._lease_at = 0.0

    # --- plumbing -------------------------------------------------------------------------------

    async def _renew(self) -> bool:
        owned = await self.service.write(self.store.acquire_lease, self.spec.id, self.service.owner, ttl=LEASE_SECONDS)
        self._lease_at = time.monotonic()
        if not owned and self.leader:
            log.warning("table %s: lease lost", self.spec.id)
        if not owned:
            self.leader = False
        return owned

    async def _keep_lease(self) -> None:
        if time.monotonic() - self._lease_at > 1.0 and not await self._renew():
            raise _LeaseLost

    def _publish(self, event: dict[str, Any] | None) -> None:
        self.service.publish(event)

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), timeout=max(0.0, seconds))

    def stop(self) -> None:
        """Ask the loop to stop after the current step."""
        self._stop.set()

    async def run(self) -> None:
        """Run rounds for as long as the service runs; take the lease over when it is free."""
        while not self._stop.is_set():
            try:
                if not await self._renew():
                    await self._sleep(1.0)
                    continue
                if self.dealer is None and self.shoe_id is None and not hasattr(self, "_restored"):
                    await self._restore()
                await self._step()
            except _LeaseLost:
                self._forget()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: the round loop failed; retrying", self.spec.id)
                self._forget()
                await self._sleep(1.0)
        if self.leader:
            with contextlib.suppress(Exception):
                await self.service.write(self.store.release_lease, self.spec.id, self.service.owner)

    def _forget(self) -> None:
        self.leader = False
        self.dealer = None
        self.shoe_id = None
        if hasattr(self, "_restored"):
            del self._restored

    # --- state from the database ----------------------------------------------------------------

    async def _restore(self) -> None:
        """Rebuild the shoe and the roads from the database (at start and after taking the lease over)."""
        self.leader = True
        self._restored = True
        shoe = await self.service.read(self.store.active_shoe, self.spec.id)
        self.scoreboard = Scoreboard()
        if shoe is None:
            return
        self.shoe_id = int(shoe["id"])
        config = shoe_config_from(json.loads(shoe["config"]))
        source = ProvablyFairSource(server_seed=shoe["server_seed"], client_seed=shoe["client_seed"])
        dealer = ShoeDealer(config, source=source, first_shoe_number=int(shoe["first_shoe_number"]))
        for _ in range(int(shoe["coups"])):
            dealer.next_coup()
        self.dealer = dealer
        for result in await self.service.read(self.service.shoe_results, self.shoe_id):
            self.scoreboard.add(game.coup_from_cards(result))

    # --- the round loop -------------------------------------------------------------------------

    async def _step(self) -> None:
        pending = await self.service.read(self.store.unfinished_rounds, self.spec.id)
        if pending:
            for row in pending:
                await self._finish(row)
            return
        is_open, change_shoe, _ = await self.service.read(self.store.table_flags, self.spec.id)
        if not is_open:
            await self._sleep(0.5)
            return
        cards: dict[str, Any] | None = None
        layout: dict[str, Any] | None = None
        if self.spec.dealing is not Dealing.DEALER_ENTRY:
            await self._ensure_shoe(change_shoe)
            assert self.dealer is not None
            dealt = self.dealer.next_coup()
            cards = {
                "cards": [str(c) for c in dealt.result.cards],
                "shoe_number": dealt.shoe_number,
                "coup": dealt.number,
                "last": dealt.last,
                "burned": [str(c) for c in dealt.burned],
            }
            if dealt.layout is not None:
                layout = dealt.layout.face_down()
                cards["layout"] = dealt.layout.reveal()
        round_id, event = await self.service.write(
            self.store.open_round,
            table_id=self.spec.id,
            shoe_id=self.shoe_id,
            cards=cards,
            layout=layout,
            betting_seconds=self.spec.betting_seconds,
        )
        self._publish(event)
        crash_point("round_opened")
        opened: dict[str, Any] | None = await self.service.read(self.store.round_row, round_id)
        if opened is not None:
            await self._finish(opened)

    async def _ensure_shoe(self, change_requested: bool) -> None:
        dealer = self.dealer
        coups = 0 if dealer is None else dealer.coups_in_shoe
        over = dealer is not None and (
            change_requested
            or (dealer.config.mode is not DealingMode.CONTINUOUS and dealer.shoe_over and coups > 0)
            or (dealer.config.mode is DealingMode.CONTINUOUS and coups >= self.spec.coups_per_seed)
        )
        if over and self.shoe_id is not None:
            reason = "changed by the house" if change_requested else "shoe finished"
            self._publish(await self.service.write(self.store.end_shoe, self.shoe_id, reason=reason))
            crash_point("shoe_ended")
            self.dealer, self.shoe_id = None, None
        if self.dealer is not None:
            return
        config = self.spec.shoe_config()
        assert config is not None
        server_seed = secrets.token_hex(32)
        client_seed = f"{self.spec.id}:{secrets.token_hex(8)}"
        shoe_id, event = await self.service.write(
            self.store.start_shoe,
            table_id=self.spec.id,
            config=config.to_dict(),
            server_seed=server_seed,
            client_seed=client_seed,
            commitment=commitment_of(server_seed),
        )
        self._publish(event)
        self.shoe_id = shoe_id
        self.dealer = ShoeDealer(config, source=ProvablyFairSource(server_seed=server_seed, client_seed=client_seed))
        self.scoreboard = Scoreboard()

    async def _finish(self, row: dict[str, Any]) -> None:
        """Take a round from its stored state to settled (or leave it voided)."""
        round_id = int(row["id"])
        if row["status"] == RoundStatus.BETTING.value:
            closes_at = float(row["closes_at"])
            while (left := closes_at - time.time()) > 0:
                totals = await self.service.read(self.store.round_totals, round_id)
                self.service.publish_transient(
                    {
                        "table": self.spec.id,
                        "type": "countdown",
                        "round_id": round_id,
                        "seconds_left": round(left, 2),
                        "totals": totals,
                        "ts": time.time(),
                    }
                )
                await self._sleep(min(1.0, left))
                if self._stop.is_set():
                    return
                await self._keep_lease()
            self._publish(await self.service.write(self.store.close_round, round_id))
            crash_point("round_closed")
        while True:
            current = await self.service.read(self.store.round_row, round_id)
            if current is None or current["status"] != RoundStatus.CLOSED.value:
                return  # voided by the house meanwhile
            if current["cards"] is not None:
                stored = json.loads(current["cards"])
                cards, last = list(stored["cards"]), bool(stored.get("last"))
                break
            entered = json.loads(current["entered"] or "[]")
            if game.dealer_entry_state(entered).complete:
                cards, last = entered, False
                break
            await self._sleep(0.2)
            if self._stop.is_set():
                return
            await self._keep_lease()
        result = game.coup_from_cards(cards)
        bet_rows = await self.service.read(self.store.round_bets, round_id)
        settled = game.settle_round_bets(
            result, [(int(b["id"]), str(b["kind"]), int(b["stake"])) for b in bet_rows], variant=self.spec.variant
        )
        self.scoreboard.add(result)
        event = await self.service.write(
            self.store.settle_round,
            round_id,
            result={"cards": cards, **result.to_dict()},
            settled=settled,
            extra={"roads": self.scoreboard.to_dict(), "last": last},
        )
        self._publish(event)
        crash_point("round_settled")
        if last and self.shoe_id is not None:
            self._publish(await self.service.write(self.store.end_shoe, self.shoe_id, reason="shoe finished"))
            crash_point("shoe_ended")
            self.dealer, self.shoe_id = None, None
        await self._sleep(self.spec.settle_pause_seconds)


class _LeaseLost(Exception):
    """This process no longer holds the table's lease."""


class Service:
    """Everything one server process runs: the store, the table loops, the bet batcher and the hub."""

    def __init__(self, options: ServiceOptions) -> None:
        self.options = options
        self.lobby = options.lobby
        self.engine = make_engine(options.db_url)
        self.owner = f"{os.uname().nodename}:{os.getpid()}:{secrets.token_hex(4)}"
        self.hub = Hub()
        self.channel: str | None = None
        self.store = Store(self.engine)
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-write")
        self._readers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="db-read")
        self.batcher = BetBatcher(self, max_batch=options.max_batch)
        self.runners: dict[str, TableRunner] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._listener: PgListener | None = None

    # --- executors ------------------------------------------------------------------------------

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a writing store call on the single writer thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, lambda: fn(*args, **kwargs))

    async def read(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a reading store call on a reader thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, lambda: fn(*args, **kwargs))

    # --- events ---------------------------------------------------------------------------------

    def publish(self, event: dict[str, Any] | None) -> None:
        """Deliver a stored event (with PostgreSQL the NOTIFY sent at commit delivers it instead)."""
        if event is not None and self.channel is None:
            self.hub.deliver(event)

    def publish_transient(self, message: dict[str, Any]) -> None:
        """Deliver a message that is not stored (countdown, totals) to every process's clients."""
        if self.channel is None:
            self.hub.deliver(message)
            return
        payload = json.dumps(message, separators=(",", ":"))
        if len(payload) > 7000:
            return
        loop = asyncio.get_running_loop()
        loop.run_in_executor(self._readers, self._notify, payload)

    def _notify(self, payload: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": self.channel, "p": payload})

    def shoe_results(self, shoe_id: int) -> list[list[str]]:
        """The cards of every settled round of a shoe, in order (to rebuild the roads)."""
        from sqlalchemy import select

        from baccarat.server.schema import rounds

        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rounds.c.result)
                .where(rounds.c.shoe_id == shoe_id, rounds.c.status == RoundStatus.SETTLED.value)
                .order_by(rounds.c.id)
            ).all()
        return [list(json.loads(r[0])["cards"]) for r in rows if r[0]]

    # --- life -----------------------------------------------------------------------------------

    def prepare(self) -> None:
        """Migrate the database and create what the lobby needs (blocking; call before serving)."""
        migrate(self.engine)
        if is_postgres(self.engine):
            with self.engine.connect() as conn:
                database, schema = conn.execute(text("SELECT current_database(), current_schema()")).one()
            self.channel = "baccarat_" + hashlib.sha256(f"{database}/{schema}".encode()).hexdigest()[:16]
            self.store.channel = self.channel
        self.store.ensure_tables(
            [spec.id for spec in self.lobby.tables], open_by_default={spec.id: spec.open for spec in self.lobby.tables}
        )

    async def start(self) -> None:
        """Start listening for other processes' events and the table loops."""
        self.hub.loop = asyncio.get_running_loop()
        if self.channel is not None:
            url = self.engine.url.set(drivername="postgresql")
            self._listener = PgListener(
                conninfo=url.render_as_string(hide_password=False),
                channel=self.channel,
                fetch=self.store.event_by_id,
                hub=self.hub,
            )
            await asyncio.get_running_loop().run_in_executor(None, self._listener.start)
        if self.options.run_tables:
            for spec in self.lobby.tables:
                runner = TableRunner(self, spec)
                self.runners[spec.id] = runner
                self._tasks.append(asyncio.create_task(runner.run(), name=f"table-{spec.id}"))

    async def stop(self) -> None:
        """Stop the loops (releasing their leases) and the listener."""
        for runner in self.runners.values():
            runner.stop()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=5)
        for task in self._tasks:
            task.cancel()
        if self._listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._listener.stop)
        self._writer.shutdown(wait=True)
        self._readers.shutdown(wait=False)
        self.engine.dispose()
