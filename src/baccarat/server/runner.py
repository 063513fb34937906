"""The loop of one table (:class:`TableRunner`): it runs while this process holds the table's lease.

It owns the table's one authoritative :class:`~baccarat.table.Table` and drives it: deal the coup
from the provably fair shoe and store its cards, open betting, count down, close, enter the stored
cards into the table (waiting for the squeezers, R23), settle, end the shoe and reveal its seed.
Players' actions are applied to the same table in arrival order and stored with the loop's own
steps, several per transaction (group commit); a failed write rebuilds the table from the
database (its newest snapshot and the events after it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from baccarat.coup import Position
from baccarat.dealing import ShoeDealer
from baccarat.errors import BaccaratError, ProcedureError
from baccarat.fairness import redeal
from baccarat.rng import ProvablyFairSource, commitment_of
from baccarat.road_stats import shoe_stats
from baccarat.roads import Scoreboard
from baccarat.server import game
from baccarat.server.hooks import crash_point
from baccarat.server.observer import messages
from baccarat.server.observer.dealer import console_view, stake_totals
from baccarat.server.observer.views import seat_view, table_public
from baccarat.server.ops import TableOp
from baccarat.server.refusals import Refusal
from baccarat.server.settings import Dealing, TableSpec
from baccarat.server.store import ClientIdTaken, CommitResult, LeaseLost, TableWrite, User
from baccarat.server.store.limits import BetsRefused
from baccarat.shoe import DealingMode
from baccarat.table import BettingClosedError, Phase, Table, TableInputError
from baccarat.table_events import BetPlaced, BettorLeft, CashedOut, CoupSettled, RoundVoided, TableEvent

if TYPE_CHECKING:
    from baccarat.server.service import Service

__all__ = ["LEASE_SECONDS", "LoadedTable", "TableRunner"]

log = logging.getLogger("baccarat.server")
T = TypeVar("T")

#: How long a table's lease lasts without renewal (the loop renews it every second).
LEASE_SECONDS = 5.0


@dataclass(slots=True, kw_only=True)
class _Job:
    """A table action waiting to be applied and stored (in arrival order, several per transaction)."""

    apply: Callable[[Table, float], tuple[list[TableEvent], Any]]
    op: TableOp | None = None
    data: Callable[[list[TableEvent]], tuple[TableOp | None, dict[str, Any]]] | None = None
    future: asyncio.Future[Any]
    bet: tuple[User, str] | None = None  # (user, client id) of a bet
    meta: dict[str, tuple[int, str, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LoadedTable:
    """A table rebuilt from the database: the id of the newest event its snapshot covers (0: no
    snapshot, every event replayed) and how many stored events were replayed."""

    table: Table
    snapshot_event_id: int
    replayed: int


class TableRunner:
    """The loop of one table (runs only while this process holds the table's lease).

    It owns the table's one authoritative :class:`~baccarat.table.Table`: every action (the loop's
    own, and the players' intents) is applied to it in order and stored, with its ledger entries, by
    :meth:`Store.commit_table`; actions that arrive while a transaction is being written go together
    in the next one (group commit). A step that ends a round stores the table's snapshot with it. A
    failed write rebuilds the table from the database (the newest snapshot and the events after it).
    """

    def __init__(self, service: Service, spec: TableSpec) -> None:
        self.service = service
        self.spec = spec
        self.config = spec.table_config()
        self.store = service.store
        self.clock = service.clock
        self.leader = False
        self.table: Table | None = None
        self.round: dict[str, Any] | None = None
        self.dealer: ShoeDealer | None = None
        self.shoe_id: int | None = None
        self.scoreboard = Scoreboard()
        self.wallets: dict[str, int] = {}
        self._jobs: list[_Job] = []
        self._drainer: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self._lease_at = 0.0
        #: the last rebuild from the database: (the snapshot's newest event id, 0 without one; events replayed)
        self.restored: tuple[int, int] | None = None
        #: per seated bettor, the settled rounds in a row they placed no bet on (their seat is
        #: released after the lobby's ``seat_release_rounds``); and who bet on the round settling
        self.rounds_away: dict[str, int] = {}
        self._round_bettors: set[str] = set()
        #: the dealer's calls on a ``dealer_paced`` table: open the next round's betting, close it now
        self._open_asked = False
        self._close_asked = False

    # --- plumbing -------------------------------------------------------------------------------

    async def _renew(self) -> bool:
        """Take or renew the table's lease (False: another process holds it).

        When to renew is timed by the service's clock (:meth:`_keep_lease`: a second after the last
        renewal). When the lease expires is the store's business, on the wall clock: the expiry is
        compared by every process that shares the database, which share no other clock.
        """
        owned = await self.service.write(
            self.store.leases.acquire_lease, self.spec.id, self.service.owner, ttl=LEASE_SECONDS, dead=_dead_owner
        )
        self._lease_at = self.clock.monotonic()
        if not owned and self.leader:
            log.warning("table %s: lease lost", self.spec.id)
        if not owned:
            self.leader = False
        return owned

    async def _keep_lease(self) -> None:
        if self.clock.monotonic() - self._lease_at > 1.0 and not await self._renew():
            raise _LeaseLost

    def _publish(self, event: dict[str, Any] | None) -> None:
        self.service.publish(event)

    async def _sleep(self, seconds: float) -> None:
        self._wake.clear()
        if not self._stop.is_set():  # a stop asked for while the loop was busy: no more waiting
            await self.clock.sleep(seconds, wake=self._wake)

    def stop(self) -> None:
        """Ask the loop to stop after the current step."""
        self._stop.set()
        self._wake.set()

    async def run(self) -> None:
        """Run rounds for as long as the service runs; take the lease over when it is free."""
        while not self._stop.is_set():
            try:
                if not await self._renew():
                    self._forget()
                    await self._sleep(1.0)
                    continue
                if self.table is None:
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
                await self.service.write(self.store.leases.release_lease, self.spec.id, self.service.owner)

    def _forget(self) -> None:
        self.leader = False
        self.table = None
        self.dealer = None
        self.shoe_id = None
        self.round = None

    # --- state from the database ----------------------------------------------------------------

    async def _restore(self) -> None:
        """Rebuild the table, the shoe and the roads from the database (at start and after taking the lease over)."""
        self.store.lead_taken(self.spec.id)
        table = await self._rebuild()
        unfinished = await self.service.read(self.store.rounds.unfinished_rounds, self.spec.id)
        self.round = unfinished[-1] if unfinished else None
        shoe = await self.service.read(self.store.shoes.active_shoe, self.spec.id)
        self.scoreboard = Scoreboard()
        self.dealer, self.shoe_id = None, None
        if shoe is not None:
            self.shoe_id = int(shoe["id"])
            self.dealer = redeal(
                json.loads(shoe["config"]),
                server_seed=shoe["server_seed"],
                client_seed=shoe["client_seed"],
                first_shoe_number=int(shoe["first_shoe_number"]),
                coups=int(shoe["coups"]),
            )
            results = await self.service.read(self.store.shoes.shoe_results, self.shoe_id)
        elif self.spec.dealing is Dealing.DEALER_ENTRY:  # the physical shoe's rounds since its last change
            results = await self.service.read(self.store.shoes.entry_shoe_results, self.spec.id)
        else:
            results = []
        for result in results:
            self.scoreboard.add(game.coup_from_cards(result))
        self.table = table
        self.leader = True
        self.service.lead_taken.set()

    async def _reload(self) -> None:
        """After a failed write: what is stored is the truth."""
        self.table = await self._rebuild()

    async def _rebuild(self) -> Table:
        loaded = await self.service.load_table(self.spec.id, self.config)
        self.restored = (loaded.snapshot_event_id, loaded.replayed)
        return loaded.table

    # --- the journal: apply in order, store in groups ---------------------------------------------

    async def submit(
        self,
        apply: Callable[[Table, float], tuple[list[TableEvent], Any]],
        *,
        op: TableOp | None = None,
        data: Callable[[list[TableEvent]], tuple[TableOp | None, dict[str, Any]]] | None = None,
        bet: tuple[User, str] | None = None,
        meta: dict[str, tuple[int, str, int]] | None = None,
    ) -> Any:
        """Apply an action to the table and store it; returns the action's value once committed.

        A refused action raises its :class:`TableError` and stores nothing.
        """
        if self.table is None or not self.leader:
            raise ProcedureError(
                f"table {self.spec.id} is not run by this server process now",
                hint="retry in a moment (the table is starting or moving to another process)",
                code="table.unavailable",
                params={"table": self.spec.id},
            )
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._jobs.append(
            _Job(apply=apply, op=op, data=data, future=future, bet=bet, meta={} if meta is None else meta)
        )
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        batch = self.service.options.max_batch
        while self._jobs:
            jobs, self._jobs = self._jobs[:batch], self._jobs[batch:]
            if await self._store(jobs, alone=len(jobs) == 1) and len(jobs) > 1:
                # one job's failure never touches another's: each is stored again on its own
                for job in jobs:
                    if not job.future.done():
                        await self._store([job], alone=True)

    async def _store(self, jobs: list[_Job], *, alone: bool) -> bool:
        """Apply jobs to the table and store them in one transaction; whether the write failed in a
        way that another try, one job at a time, may avoid (their futures are then left unanswered,
        unless ``alone``). A bet whose client id is stored already is answered by the stored bet
        before anything is applied. A bet its player's limits refuse in the transaction (a daily
        loss limit reached at another table or in another process meanwhile) is answered by its
        refusal, and the others are stored again without it: each try answers one job at least,
        so the tries end."""
        existing = await self._stored_client_ids(jobs)
        refused: dict[str, BaccaratError | Refusal] = {}
        for _ in range(len(jobs) + 2):
            table = self.table
            if table is None:
                _fail(jobs, ProcedureError(f"table {self.spec.id} is restarting", hint="retry"))
                return False
            answers, writes = self._apply(table, jobs, existing, refused)
            try:
                result = await self.service.write(
                    self.store.commit_table, self.spec.id, writes, owner=self.service.owner
                )
            except ClientIdTaken as taken:  # stored meanwhile by another process: answer the stored bet
                await self._reload()
                existing |= await self.service.read(self.store.rounds.bets_by_client, taken.keys)
                continue
            except BetsRefused as limits:  # nothing was written: the table forgets what it applied
                await self._reload()
                refused |= limits.refusals
                continue
            except Exception as error:
                return await self._failed(jobs, error, alone=alone)
            self._answer(jobs, answers, result)
            return False
        _fail(jobs, ProcedureError("the table could not store that", hint="retry"))
        return False

    async def _stored_client_ids(self, jobs: list[_Job]) -> dict[tuple[int, str], dict[str, Any]]:
        """The stored bets of the jobs' client ids that the table does not know (it keeps the round
        in play's only): a client id sent again from an earlier round costs one read, not a failed
        write and a rebuild of the table."""
        table = self.table
        known = {} if table is None else table.state.bet_ids
        keys = [(job.bet[0].id, job.bet[1]) for job in jobs if job.bet is not None and _bet_key(job.bet) not in known]
        if not keys:
            return {}
        return await self.service.read(self.store.rounds.bets_by_client, keys)

    async def _failed(self, jobs: list[_Job], error: Exception, *, alone: bool) -> bool:
        """A write failed: what is stored is the truth again. A lost lease fails every job; any other
        failure fails the job alone, or asks for each job to be tried on its own."""
        log.warning("table %s: a write of %d job(s) failed (%s); reloading", self.spec.id, len(jobs), error)
        with contextlib.suppress(Exception):
            await self._reload()
        if isinstance(error, LeaseLost):
            _fail(jobs, error)
            self._forget()
            return False
        if not alone:
            return True
        _fail(jobs, error if isinstance(error, BaccaratError) else ProcedureError("the table could not store that"))
        return False

    def _apply(
        self,
        table: Table,
        jobs: list[_Job],
        existing: dict[tuple[int, str], dict[str, Any]],
        refused: dict[str, BaccaratError | Refusal],
    ) -> tuple[list[tuple[str, Any]], list[TableWrite]]:
        """Apply jobs to the table in order: each one's answer, and the writes that store them (a
        bet stored already is answered by the stored bet, one its player's limits refused by the
        refusal, neither applied)."""
        writes: list[TableWrite] = []
        answers: list[tuple[str, Any]] = []
        for job in jobs:
            if job.bet is not None and (job.bet[0].id, job.bet[1]) in existing:
                answers.append(("duplicate", existing[(job.bet[0].id, job.bet[1])]))
                continue
            if job.bet is not None and (refusal := refused.get(_bet_key(job.bet))) is not None:
                answers.append(("error", refusal))
                continue
            now = max(self.clock.time(), table.state.clock)
            try:
                events, value = job.apply(table, now)
            except BaccaratError as error:
                answers.append(("error", error))
                continue
            op, data = job.data(events) if job.data is not None else (job.op, {})
            round_id = None if self.round is None else int(self.round["id"])
            snapshot = None
            if table.phase is Phase.IDLE and any(isinstance(e, CoupSettled | RoundVoided) for e in events):
                snapshot = table.snapshot()  # a round ended: the table between rounds
            if events or op is not None:
                writes.append(
                    TableWrite(events, op=op, data=data, round_id=round_id, bet_meta=job.meta, snapshot=snapshot)
                )
            answers.append(("ok", (value, events)))
        return answers, writes

    def _answer(self, jobs: list[_Job], answers: list[tuple[str, Any]], result: CommitResult) -> None:
        """Answer each job, then broadcast what was stored (the answers bring the runner up to date first)."""
        placed: list[tuple[str, dict[str, Any]]] = []
        for job, (kind, answer) in zip(jobs, answers, strict=True):
            if job.future.done():
                continue
            if kind == "error":
                job.future.set_exception(answer)
            elif kind == "duplicate":
                job.future.set_result(_Placed(answer, duplicate=True))
            else:
                value, _ = answer
                done = value(result) if callable(value) else value
                job.future.set_result(done)
                if job.bet is not None and isinstance(done, _Placed) and done.bet is not None and not done.duplicate:
                    mine = messages.my_bet(
                        self.spec.id, done.bet, done.balance, at_table=done.at_table, ts=self.clock.time()
                    )
                    placed.append((job.bet[0].name, mine))
        # what was stored, then every connection of each bettor hears of their accepted bets
        self.service.publish_all(self.spec.id, result.published, placed)

    # --- the round loop -------------------------------------------------------------------------

    async def _step(self) -> None:
        table = self.table
        assert table is not None
        if table.phase is Phase.IDLE:
            if self.round is not None:  # a stored round the table never opened: nothing was bet on it
                await self.service.write(self.store.rounds.forget_round, int(self.round["id"]))
                self.round = None
            await self._open()
        elif table.phase is Phase.BETTING:
            await self._betting()
        else:
            await self._dealing()

    async def _open(self) -> None:
        is_open, change_shoe, _ = await self.service.read(self.store.tables.table_flags, self.spec.id)
        await self._take_settings()
        if not is_open or (self.spec.dealer_paced and not self._open_asked):
            await self._sleep(0.5)
            return
        self._open_asked = False
        cards: dict[str, Any] | None = None
        layout: dict[str, Any] | None = None
        new_shoe = False
        if self.spec.dealing is not Dealing.DEALER_ENTRY:
            await self._ensure_shoe(change_shoe)
            assert self.dealer is not None
            new_shoe = self.dealer.coups_in_shoe == 0
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

        def apply(table: Table, now: float) -> tuple[list[TableEvent], Any]:
            events: list[TableEvent] = []
            if new_shoe and table.state.coup_number > 0:
                events += table.change_shoe(reason="new provably fair shoe", now=now)
            events += table.open_betting(now=now)

            def opened(result: CommitResult) -> int | None:
                self.round = result.round_row  # before anyone hears of the round: bets on it are taken at once
                return result.round_id

            return events, opened

        data = {
            "shoe_id": self.shoe_id,
            "cards": cards,
            "layout": layout,
            "betting_seconds": self.spec.betting_seconds,
        }
        round_id = await self.submit(apply, op=TableOp.OPEN, data=lambda _: (TableOp.OPEN, data))
        if self.round is None or int(self.round["id"]) != int(round_id):
            self.round = await self.service.read(self.store.rounds.round_row, int(round_id))
        crash_point("round_opened")

    async def _take_settings(self) -> None:
        """Between rounds, take the house's latest changes to the table's settings (limits, timing)."""
        await self.service.refresh_settings(force=True)
        spec = self.service.lobby.table(self.spec.id)
        if spec is None or spec == self.spec:
            return
        config = spec.table_config()
        if self.table is not None:
            self.table.reconfigure(config)
        self.spec, self.config = spec, config
        log.info("table %s: settings changed (%s)", spec.id, self.service.lobby.changes.get(spec.id))

    def totals(self) -> dict[str, int]:
        """Total stake per bet kind on the table now."""
        return {} if self.table is None else stake_totals(self.table)

    async def _betting(self) -> None:
        assert self.round is not None
        round_id = int(self.round["id"])
        closes_at = float(self.round["closes_at"])
        while (left := closes_at - self.clock.time()) > 0 and not self._close_asked:
            table = self.table
            if table is None or table.phase is not Phase.BETTING:
                return
            self.service.publish_transient(
                messages.countdown(
                    table=self.spec.id,
                    round_id=round_id,
                    seconds_left=round(left, 2),
                    totals=self.totals(),
                    exposure=table.state.exposure(),
                    players=len(table.state.bettors),
                    ts=self.clock.time(),
                )
            )
            await self._sleep(min(1.0, left))
            if self._stop.is_set():
                return
            await self._keep_lease()
        number = self.round["number"]
        self._close_asked = False
        await self.submit(
            lambda table, now: (table.close_betting(now=now), None),
            op=TableOp.CLOSE,
            data=lambda events: (TableOp.CLOSE, {"number": number, **messages.betting_closed_fields(events)}),
        )
        crash_point("round_closed")

    async def _dealing(self) -> None:
        table = self.table
        assert table is not None
        if self.round is None:  # cannot happen: the round row is stored with the events that open it
            await self.submit(lambda t, now: (t.void(reason="no stored round", now=now), None))
            return
        stored = json.loads(self.round["cards"]) if self.round["cards"] else None
        side = table.reveal_due
        if side is not None:
            left = table.state.reveal_since + self.config.squeeze_seconds - self.clock.time()
            if left > 0:
                await self._sleep(min(0.5, left))
                await self._keep_lease()
                return
            await self.submit(lambda t, now: (t.reveal(side, now=now), None), data=self._settle_data)
        elif stored is not None:
            await self._deal_stored([str(c) for c in stored["cards"]])
        else:
            await self._sleep(0.2)
            await self._keep_lease()
            return
        if self.table is not None and self.table.phase is Phase.IDLE:
            await self._finished()

    async def _deal_stored(self, cards: list[str]) -> None:
        """Enter the round's stored cards: all at once, or one at a time at the table's
        ``card_seconds`` (twice that before a third card) as a dealer turns them."""
        pace = self.spec.card_seconds

        def deal(t: Table, now: float) -> tuple[list[TableEvent], Any]:
            events: list[TableEvent] = []
            while t.due is not None and not (pace and events):
                events += t.deal_card(cards[len(t.state.coup.cards)], now=now)
            return events, None

        await self.submit(deal, data=self._settle_data)
        table = self.table
        if pace and table is not None and table.due is not None and table.reveal_due is None:
            await self._sleep(pace * (2 if len(table.state.coup.cards) >= 4 else 1))
            await self._keep_lease()

    def _settle_data(self, events: list[TableEvent]) -> tuple[TableOp | None, dict[str, Any]]:
        """The round change that goes with a step of the deal: its settlement, when the coup settled."""
        settled = next((e for e in events if isinstance(e, CoupSettled)), None)
        if settled is None:
            return None, {}
        assert self.round is not None
        cards = [settled.player[0], settled.banker[0], settled.player[1], settled.banker[1]]
        cards += list(settled.player[2:]) + list(settled.banker[2:])
        texts = [str(c) for c in cards]
        result = game.coup_from_cards(texts)
        stored = json.loads(self.round["cards"]) if self.round["cards"] else None
        last = bool(stored and stored.get("last"))
        self.scoreboard.add(result)
        self._round_bettors = {s.bettor for s in settled.settlements}
        return TableOp.SETTLE, {
            "number": self.round["number"],
            "result": {"cards": texts, **result.to_dict()},
            "bets": len(settled.settlements),
            "returned": sum(s.returned for s in settled.settlements),
            "roads": self.scoreboard.to_dict(),
            "stats": shoe_stats(self.scoreboard).to_dict(),
            "last": last,
            messages.PRIVATE_FIELD: messages.settled_private(
                settled, {} if self.table is None else self.table.state.bettors
            ),
        }

    async def _finished(self) -> None:
        crash_point("round_settled")
        await self._release_seats()
        last = False
        if self.round is not None and self.round["cards"]:
            last = bool(json.loads(self.round["cards"]).get("last"))
        self.round = None
        if last and self.shoe_id is not None:
            self._publish(await self.service.write(self.store.shoes.end_shoe, self.shoe_id, reason="shoe finished"))
            crash_point("shoe_ended")
            self.dealer, self.shoe_id = None, None
        await self._sleep(self.spec.settle_pause_seconds)

    async def _release_seats(self) -> None:
        """A seated bettor who has bet on none of the last ``seat_release_rounds`` settled rounds
        (an absent player holding a seat) leaves the table: the seat is free again and their money
        goes back to their wallet, commission box paid (R27). Bets left on the table keep the seat."""
        table, limit = self.table, self.service.lobby.policy.seat_release_rounds
        if table is None or limit <= 0:
            return
        seated = {name for name, bettor in table.state.bettors.items() if bettor.seat is not None}
        self.rounds_away = {
            name: 0 if name in self._round_bettors else self.rounds_away.get(name, 0) + 1 for name in seated
        }
        self._round_bettors = set()
        for name, away in list(self.rounds_away.items()):
            if away >= limit and not table.bets_of(name):
                try:
                    await self.submit(_leaving(name))
                except BaccaratError as error:
                    log.warning("table %s: the seat of %s was not released (%s)", self.spec.id, name, error)
                self.rounds_away.pop(name, None)
                self.wallets.pop(name, None)

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
            self._publish(await self.service.write(self.store.shoes.end_shoe, self.shoe_id, reason=reason))
            crash_point("shoe_ended")
            self.dealer, self.shoe_id = None, None
        if self.dealer is not None:
            return
        config = self.spec.shoe_config()
        assert config is not None
        server_seed = secrets.token_hex(32)
        client_seed = f"{self.spec.id}:{secrets.token_hex(8)}"
        shoe_id, event = await self.service.write(
            self.store.shoes.start_shoe,
            table_id=self.spec.id,
            config=config.to_dict(),
            server_seed=server_seed,
            client_seed=client_seed,
            commitment=commitment_of(server_seed),
        )
        self._publish(event)
        self.shoe_id = shoe_id
        server_seed, client_seed = await self.service.read(self.store.shoes.seeds, shoe_id)  # the committed seeds
        self.dealer = ShoeDealer(config, source=ProvablyFairSource(server_seed=server_seed, client_seed=client_seed))
        self.scoreboard = Scoreboard()

    # --- intents --------------------------------------------------------------------------------

    def _seat_view(self, name: str) -> dict[str, Any]:
        assert self.table is not None
        return seat_view(self.table, name)

    async def _joined(
        self, user: User, *, seat: int | None = None, buy_in: int | None = None, for_bet: bool = False
    ) -> None:
        """Bring the user to the table (standing by default) with ``buy_in`` (default: the whole
        wallet). ``for_bet``: a bet brings them, and finding them there once it is applied (brought
        by another of their bets sent at the same moment) is no refusal."""
        table = self.table
        if table is not None and user.name in table.state.bettors:
            return
        wallet, _ = await self.service.read(self.store.ledger.balances, user)
        amount = wallet if buy_in is None else buy_in
        if amount > wallet:
            raise TableInputError(
                f"{user.name!r} has {wallet} in the wallet and cannot bring {amount}",
                hint="bring less",
                code="wallet.insufficient",
                params={"bettor": user.name, "wallet": wallet, "amount": amount},
            )
        self.wallets[user.name] = wallet - amount

        def apply(t: Table, now: float) -> tuple[list[TableEvent], Any]:
            if for_bet and user.name in t.state.bettors:
                return [], None
            return t.join(user.name, balance=amount, seat=seat, now=now), None

        await self.submit(apply)

    async def join(self, user: User, *, seat: int | None, buy_in: int | None) -> dict[str, Any]:
        """The user comes to the table, seated or standing."""
        if self.table is not None and user.name in self.table.state.bettors:
            raise TableInputError(
                f"{user.name!r} is already at the table",
                hint="sit, or leave first",
                code="bettor.already_at_table",
                rule="R20",
                params={"bettor": user.name},
            )
        await self._joined(user, seat=seat, buy_in=buy_in)
        return self._seat_view(user.name)

    async def sit(self, user: User, seat: int) -> dict[str, Any]:
        """Take a seat (joining the table first when needed, R20)."""
        if self.table is not None and user.name not in self.table.state.bettors:
            await self._joined(user, seat=seat)
            return self._seat_view(user.name)
        await self.submit(lambda t, now: (t.sit(user.name, seat, now=now), None))
        return self._seat_view(user.name)

    async def leave(self, user: User) -> dict[str, Any]:
        """Pay the commission box (R27), take the rest back to the wallet and leave."""
        events: list[TableEvent] = await self.submit(lambda t, now: ((e := t.leave(user.name, now=now)), e))
        left = events[0]
        assert isinstance(left, BettorLeft)
        self.wallets.pop(user.name, None)
        return {"amount": left.amount, "commission": left.commission, "at_table": False}

    async def cash_out(self, user: User, amount: int | None) -> dict[str, Any]:
        """Pay the commission box (R27) and take ``amount`` (default: all available) back to the wallet."""
        events: list[TableEvent] = await self.submit(lambda t, now: ((e := t.cash_out(user.name, amount, now=now)), e))
        out = events[0]
        assert isinstance(out, CashedOut)
        self.wallets[user.name] = self.wallets.get(user.name, 0) + out.amount
        return {"amount": out.amount, "commission": out.commission, **self._seat_view(user.name)}

    async def switch_variant(self, user: User, variant: str) -> dict[str, Any]:
        """Switch between standard and no-commission play with no bet open (R28)."""
        await self.submit(lambda t, now: (t.switch_variant(user.name, variant, now=now), None))
        return self._seat_view(user.name)

    async def reveal(self, user: User | None, side: str) -> dict[str, Any]:
        """Turn a side's face-down cards: its squeezer, or the dealer (``None``) (R23)."""
        by = None if user is None else user.name
        await self.submit(lambda t, now: (t.reveal(side, by=by, now=now), None), data=self._settle_data)
        self._wake.set()
        return self.public()

    async def hand_over(self, user: User, side: str, to: str | None) -> dict[str, Any]:
        """Hand the squeeze of a side to another seated bettor with a bet, or to the dealer (R23)."""
        await self.submit(lambda t, now: (t.hand_over(user.name, side, to=to, now=now), None))
        return self.public()

    async def enter_card(self, card: str, *, position: str | None, face_up: bool) -> dict[str, Any]:
        """A card entered by the dealer (R18)."""
        try:
            at = None if position is None else Position(position)
        except ValueError:
            raise TableInputError(
                f"unknown position {position!r}",
                hint="one of: " + ", ".join(p.value for p in Position),
                code="position.invalid",
                params={"position": position},
            ) from None

        def apply(t: Table, now: float) -> tuple[list[TableEvent], Any]:
            return t.deal_card(card, position=at, exposed=face_up, now=now), None

        return await self._dealer_step(apply)

    def ask_open_betting(self) -> dict[str, Any]:
        """The dealer opens the next round's betting on a ``dealer_paced`` table (R18 dealer entry)."""
        table = self.table
        assert table is not None
        if not self.spec.dealer_paced:
            raise ProcedureError(
                f"table {self.spec.id} opens betting on its own timer",
                hint="only a dealer_paced table waits for the dealer",
                code="table.not_dealer_paced",
                params={"table": self.spec.id},
            )
        # between rounds the ask is taken even while the loop still puts the last round away (the
        # console already shows it over): the next round opens once it has
        if table.phase is not Phase.IDLE:
            raise ProcedureError(
                f"round {table.round} is in progress ({table.phase.value})",
                hint="finish or void it first",
                code="round.in_progress",
                params={"round": table.round, "phase": table.phase.value},
            )
        self._open_asked = True
        self._wake.set()
        return {"asked": "open_betting", "phase": table.phase.value}

    def ask_close_betting(self) -> dict[str, Any]:
        """The dealer closes betting now, before the betting time runs out."""
        table = self.table
        assert table is not None
        if table.phase is not Phase.BETTING:
            raise ProcedureError(
                f"betting is not open ({table.phase.value})",
                hint="betting closes while it is open",
                code="betting.closed",
                params={"round": table.round, "phase": table.phase.value, "action": "close_betting"},
            )
        self._close_asked = True
        self._wake.set()
        return {"asked": "close_betting", "phase": table.phase.value}

    async def mark_cut_card(self) -> dict[str, Any]:
        """The dealer saw the cut card come out of the physical shoe: this coup or the next is the last (R6)."""
        await self.submit(lambda t, now: (t.mark_cut_card(now=now), None))
        return self.dealer_view()

    async def burn(self, card: str | None) -> dict[str, Any]:
        """The dealer burned the new shoe's first cards by the table's method (R4)."""
        await self.submit(lambda t, now: (t.burn(card, now=now), None))
        return self.dealer_view()

    async def new_shoe(self) -> dict[str, Any]:
        """The dealer puts a new physical shoe in play between coups (R6)."""
        await self.submit(lambda t, now: (t.change_shoe(reason="new shoe by the dealer", now=now), None))
        self.scoreboard = Scoreboard()  # the new shoe's roads start empty
        return self.dealer_view()

    def dealer_view(self) -> dict[str, Any]:
        """What the dealer's console shows of the table now (:func:`observer.dealer.console_view`)."""
        assert self.table is not None
        return console_view(self.table, self.round, dealer_paced=self.spec.dealer_paced)

    async def correct_card(self, card: str) -> dict[str, Any]:
        """The dealer corrects the last card entered, before the next one is drawn (R18)."""

        def apply(t: Table, now: float) -> tuple[list[TableEvent], Any]:
            return t.correct_card(card, now=now), None

        return await self._dealer_step(apply)

    async def _dealer_step(self, apply: Callable[[Table, float], tuple[list[TableEvent], Any]]) -> dict[str, Any]:
        """Store a card the dealer entered or corrected: the round's cards, or its settlement when the
        card completed the coup; the cards entered so far and the position due next."""

        def data(events: list[TableEvent]) -> tuple[TableOp | None, dict[str, Any]]:
            op, settled = self._settle_data(events)
            if op is not None:
                return op, settled
            return TableOp.CARDS, {"cards": self._entered()}

        await self.submit(apply, data=data)
        self._wake.set()
        table = self.table
        assert table is not None
        due = table.due
        return {"entered": self._entered(), "due": None if due is None else due.value}

    def _entered(self) -> list[str]:
        table = self.table
        assert table is not None
        coup = table.state.coup
        return [str(coup.cards[p]) for p in Position if p in coup.cards]

    async def void(self, round_id: int, reason: str) -> int:
        """Void the round in play (R18): every bet refunded in full; returns the amount refunded."""
        if self.round is None or int(self.round["id"]) != round_id:
            raise ProcedureError(
                f"round {round_id} is not in play",
                hint="only the round in play can be voided",
                code="round.not_in_play",
                params={"round": round_id},
            )
        payload: dict[str, Any] = {"number": self.round["number"], "reason": reason}
        if self.round["cards"]:
            payload["cards"] = json.loads(self.round["cards"])

        def apply(t: Table, now: float) -> tuple[list[TableEvent], Any]:
            events = t.void(reason=reason, now=now)
            voided = events[0]
            assert isinstance(voided, RoundVoided)
            payload["refunded"] = sum(r.stake for r in voided.refunds)
            payload[messages.PRIVATE_FIELD] = messages.voided_private(voided, t.state.bettors)
            return events, payload["refunded"]

        refunded = int(await self.submit(apply, data=lambda _: (TableOp.VOID, payload)))
        self.round = None
        self._wake.set()
        return refunded

    async def place_bet(
        self, user: User, *, client_id: str, bet: str, stake: int, round_id: int | None, spot: int | None = None
    ) -> _Placed:
        """Place a bet on the round betting now (joining the table standing on a first bet). It is
        taken only if it arrived before the round's ``closes_at`` on the server's clock, even when
        the table has not closed betting yet."""
        arrived = self.clock.time()
        table = self.table
        if table is None:
            raise ProcedureError(
                f"table {self.spec.id} is starting",
                hint="retry in a moment",
                code="table.unavailable",
                params={"table": self.spec.id},
            )
        key = _bet_key((user, client_id))
        if key in table.state.bet_ids:  # placed before: the stored bet is the answer (its body is not compared)
            if stored := await self._stored_bet(user, client_id):
                return stored
        else:
            current = None if self.round is None else int(self.round["id"])
            if round_id is not None and round_id != current:
                if stored := await self._stored_bet(user, client_id):
                    return stored
                raise ProcedureError(
                    f"betting is closed for round {round_id}",
                    hint="bet on the round now betting",
                    code="betting.closed",
                    params={"round": round_id},
                )
            if user.name not in table.state.bettors:
                if stored := await self._stored_bet(user, client_id):
                    return stored
                await self._joined(user, for_bet=True)
        name = user.name
        placed_round = self.round

        def apply(t: Table, now: float) -> tuple[list[TableEvent], Any]:
            _arrived_in_time(placed_round, arrived, t)
            before = t.state.bettors[name].balance if name in t.state.bettors else 0
            events = t.place_bet(name, bet, stake, spot=spot, bet_id=key, now=now)
            wallet = self.wallets.get(name, 0)
            at_table = t.state.bettors[name].balance
            after = at_table + wallet
            if not events:
                return events, lambda result: _Placed(None, duplicate=True, key=key)
            meta[key] = (user.id, client_id, before + wallet)
            placed = events[0]
            assert isinstance(placed, BetPlaced)

            def answer(result: CommitResult) -> _Placed:
                view = _accepted_bet(result.bet_ids.get(key), placed_round, client_id, placed, before + wallet)
                return _Placed(view, balance=after, at_table=at_table)

            return events, answer

        meta: dict[str, tuple[int, str, int]] = {}
        try:
            placed = await self.submit(apply, bet=(user, client_id), meta=meta)
        except BaccaratError:
            # the table forgets a round's bet ids when the round ends: a bet sent again in a later
            # round (whose betting may be closed, or whose limits it may break) is answered by the
            # stored bet, as it was in its own round
            if stored := await self._stored_bet(user, client_id):
                return stored
            raise
        assert isinstance(placed, _Placed)
        if placed.bet is None:
            placed = await self._stored_bet(user, client_id) or _Placed(None, duplicate=True)
        return placed

    async def _stored_bet(self, user: User, client_id: str) -> _Placed | None:
        """The answer to a bet placed before: the stored bet with this client id (``None``: none stored)."""
        found = await self.service.read(self.store.rounds.bets_by_client, [(user.id, client_id)])
        bet = found.get((user.id, client_id))
        return None if bet is None else _Placed(bet, duplicate=True)

    def public(self) -> dict[str, Any]:
        """What every client may see of the table now."""
        table = self.table
        if table is None:
            return {}
        return table_public(table, self.config)


@dataclass(slots=True)
class _Placed:
    """The answer to a bet: the stored bet, whether it was a repeat, the bettor's balance after (and
    their money at the table after)."""

    bet: dict[str, Any] | None
    duplicate: bool = False
    balance: int | None = None
    key: str | None = None
    at_table: int | None = None


def _dead_owner(owner: str) -> bool:
    """Whether a lease holder (``host:pid:token``) is a process of this machine that no longer runs."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != os.uname().nodename or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except OSError:
        return Path("/proc/self").exists()  # no such process (where /proc can tell)
    except IndexError:
        return False
    return state in "ZX"


def _bet_key(bet: tuple[User, str]) -> str:
    return f"{bet[0].id}/{bet[1]}"


def _accepted_bet(
    bet_id: int | None, round_row: dict[str, Any] | None, client_id: str, placed: BetPlaced, balance_before: int
) -> dict[str, Any]:
    """A bet just stored, as the API shows a stored bet (``bet_dict``): accepted, not yet settled."""
    return {
        "id": bet_id,
        "round_id": None if round_row is None else round_row["id"],
        "client_id": client_id,
        "bet": placed.kind.value,
        "stake": placed.amount,
        "status": "accepted",
        "result": None,
        "paid": None,
        "commission": None,
        "returned": None,
        "balance_before": balance_before,
        "balance_after": None,
    }


def _arrived_in_time(round_row: dict[str, Any] | None, arrived: float, table: Table) -> None:
    """Refuse a bet that arrived at or after its round's ``closes_at`` (the table closes betting a
    moment later, when its loop gets to it)."""
    closes_at = None if round_row is None else round_row.get("closes_at")
    if closes_at is not None and table.phase is Phase.BETTING and arrived >= float(closes_at):
        late = 1000 * (arrived - float(closes_at))
        raise BettingClosedError(
            f"betting closed {late:.0f} ms before the bet arrived: the bet is refused",
            hint="bet before the countdown ends",
            params={"round": table.round, "phase": table.phase, "action": "the bet"},
        )


def _leaving(name: str) -> Callable[[Table, float], tuple[list[TableEvent], Any]]:
    """The job of bettor ``name`` leaving the table."""

    def apply(table: Table, now: float) -> tuple[list[TableEvent], Any]:
        return table.leave(name, now=now), None

    return apply


def _fail(jobs: list[_Job], error: BaseException) -> None:
    """Answer every job not yet answered with ``error``."""
    for job in jobs:
        if not job.future.done():
            job.future.set_exception(error)


class _LeaseLost(Exception):
    """This process no longer holds the table's lease."""
