"""What one application holds beside its :class:`~baccarat.server.service.Service`: the session
cache, the per-client rate limits, and the tables this process reads but does not run.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from baccarat.roads import Scoreboard
from baccarat.server import game
from baccarat.server.api.throttle import Buckets, LoginGuard, Lru, RateLimiter
from baccarat.server.observer.views import round_view, table_view, user_view
from baccarat.server.policy import Policy
from baccarat.server.schema import RoundStatus
from baccarat.server.service import Service
from baccarat.server.settings import Dealing, TableSpec
from baccarat.server.store import User
from baccarat.server.store.sessions import TOUCH_SECONDS, token_hash
from baccarat.table import Table

T = TypeVar("T")

__all__ = ["AppContext", "RateLimiter", "Revoked", "Sessions"]

#: How long a session token is trusted from memory before it is looked up again: ended sessions
#: are dropped from memory at once, in every process (on PostgreSQL through ``NOTIFY``).
TOKEN_CACHE_SECONDS = 30.0
#: The same without PostgreSQL, where another process's log-out is not announced.
TOKEN_CACHE_SECONDS_ALONE = 2.0
#: Password hashes computed at once.
HASHING_AT_ONCE = 2
#: How long a copy of a table run by another process is served before its newest event is checked.
REPLICA_SECONDS = 1.0

#: Called when sessions end: (token hash or ``None``, user id or ``None``).
Revoked = Callable[[str | None, int | None], None]


@dataclass(frozen=True, slots=True)
class _Cached:
    user: User
    at: float
    seen: float


class Sessions:
    """Session tokens to users, trusted from memory for a few seconds, forgotten as soon as they end."""

    def __init__(self, service: Service, now: Callable[[], float]) -> None:
        self.service = service
        self.now = now
        self.cache: Lru[_Cached] = Lru(50_000)
        #: told of every ended session (the websockets authenticated with it close)
        self.listeners: list[Revoked] = []

    @property
    def policy(self) -> Policy:
        """The server's security settings."""
        return self.service.lobby.policy

    async def user(self, token: str | None) -> User | None:
        """The user of a session token (``None``: no such live session)."""
        if not token or len(token) > 200:
            return None
        key = token_hash(token)
        hit = self.cache.get(key)
        trust = TOKEN_CACHE_SECONDS if self.service.channel else TOKEN_CACHE_SECONDS_ALONE
        service = self.service
        if hit is not None and self.now() - hit.at < trust:
            if service.clock.time() - hit.seen > TOUCH_SECONDS:  # in use: the idle timeout starts again
                await service.write(service.store.accounts.sessions.touch, token)
                self.cache.put(key, replace(hit, seen=service.clock.time()))
            return hit.user
        found = await service.read(service.store.accounts.user_for_token, token, idle=self.policy.session_idle_seconds)
        if found is None:
            self.cache.pop(key)
            return None
        user, seen = found
        if service.clock.time() - seen > TOUCH_SECONDS:
            await service.write(service.store.accounts.sessions.touch, token)
        self.cache.put(key, _Cached(user, self.now(), seen))
        return user

    def remember(self, token: str, user: User) -> None:
        """Trust a session just made."""
        self.cache.put(token_hash(token), _Cached(user, self.now(), self.service.clock.time()))

    async def refresh(self) -> None:
        """Look up, in one query, every session trusted from memory for more than half its time:
        the live ones are trusted again, the ended ones forgotten (their websockets told). Busy
        connections then never wait on a lookup of their own."""
        trust = TOKEN_CACHE_SECONDS if self.service.channel else TOKEN_CACHE_SECONDS_ALONE
        now = self.now()
        stale = [(key, hit) for key, hit in self.cache.items() if now - hit.at > trust / 2]
        if not stale:
            return
        service = self.service
        live = await service.read(
            service.store.accounts.sessions.live, [key for key, _ in stale], idle=self.policy.session_idle_seconds
        )
        for key, hit in stale:
            if key in live:
                self.cache.put(key, replace(hit, at=now))
            else:
                self.revoked(key, None)

    def cached(self, token: str | None) -> User | None:
        """The user of a token trusted from memory now, without a lookup."""
        hit = self.cache.get(token_hash(token)) if token and len(token) <= 200 else None
        return hit.user if hit is not None else None

    def revoked(self, digest: str | None = None, user_id: int | None = None) -> None:
        """Sessions ended (one by its token hash, or all of a user's): forget them and tell the listeners."""
        if digest is not None:
            self.cache.pop(digest)
        if user_id is not None:
            self.cache.drop_where(lambda cached: cached.user.id == user_id)
        for listener in list(self.listeners):
            listener(digest, user_id)

    def forget(self, token: str) -> None:
        """Stop trusting a token (its session ended in this process)."""
        self.revoked(token_hash(token), None)


#: How many times more requests a client may make for the browser table's files than for the API.
ASSET_FACTOR = 8


@dataclass(slots=True)
class Limits:
    """The per-client limits of one process: requests by account or address (the browser table's
    files by address, in a bucket :data:`ASSET_FACTOR` times larger: a page loads some eighty of
    them, and many players may share one address), registrations and websocket connections by
    address, failed log-ins by name and address."""

    requests: Buckets
    assets: Buckets
    registrations: Buckets
    connects: Buckets
    logins: LoginGuard

    @classmethod
    def of(cls, service: Service) -> Limits:
        """The limits the service's options and policy set."""
        options, policy = service.options, service.lobby.policy
        capacity = policy.max_tracked_clients
        refill = 1.0 / policy.registration_refill_seconds if policy.registration_refill_seconds > 0 else 0.0
        return cls(
            requests=Buckets(rate=options.http_requests_per_second, burst=options.http_burst, capacity=capacity),
            assets=Buckets(
                rate=options.http_requests_per_second * ASSET_FACTOR,
                burst=options.http_burst * ASSET_FACTOR,
                capacity=capacity,
            ),
            registrations=Buckets(rate=refill, burst=policy.registrations_per_address, capacity=capacity),
            connects=Buckets(rate=policy.ws_connects_per_second, burst=policy.ws_connects_burst, capacity=capacity),
            logins=LoginGuard(
                per_name=policy.login_failures_per_name,
                per_address=policy.login_failures_per_address,
                base=policy.lockout_seconds,
                cap=policy.lockout_max_seconds,
                capacity=capacity,
            ),
        )


@dataclass(slots=True)
class AppContext:
    """The service and what the routes share."""

    service: Service
    sessions: Sessions
    limits: Limits
    #: the time the limits and the session cache count in (monotonic seconds; a test may move it)
    now: Callable[[], float] = time.monotonic
    #: password hashes and checks running at once, each on a worker thread (never on the event loop)
    hashing: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(HASHING_AT_ONCE))
    _replicas: dict[str, tuple[int, float, Table]] = field(default_factory=dict)

    @classmethod
    def of(cls, service: Service) -> AppContext:
        """The context of a new application."""
        context = cls(service=service, sessions=Sessions(service, time.monotonic), limits=Limits.of(service))
        context.sessions.now = lambda: context.now()
        return context

    @property
    def policy(self) -> Policy:
        """The server's security settings."""
        return self.service.lobby.policy

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a password hash or check on a worker thread, a few at a time (:attr:`hashing`)."""
        async with self.hashing:
            return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    async def table_of(self, spec: TableSpec) -> Table:
        """The table's state: this process's own, or a copy rebuilt from the database (its snapshot and
        the events after it) when the table's newest event changes."""
        service = self.service
        runner = service.runners.get(spec.id)
        if runner is not None and runner.table is not None and runner.leader:
            return runner.table
        cached = self._replicas.get(spec.id)
        if cached is not None and time.monotonic() - cached[1] < REPLICA_SECONDS:
            return cached[2]
        last = await service.read(service.store.tables.last_event_id, spec.id)
        if cached is not None and cached[0] == last:
            self._replicas[spec.id] = (last, time.monotonic(), cached[2])
            return cached[2]
        table = (await service.load_table(spec.id, spec.table_config())).table
        self._replicas[spec.id] = (last, time.monotonic(), table)
        return table

    async def round_of(self, row: dict[str, Any] | None) -> dict[str, Any] | None:
        """A stored round's public view (with its totals while betting)."""
        if row is None:
            return None
        totals = None
        if row["status"] == RoundStatus.BETTING.value:
            totals = await self.service.read(self.service.store.rounds.round_totals, int(row["id"]))
        return round_view(row, totals=totals)

    def _board(self, spec: TableSpec) -> Scoreboard:
        """The roads of the shoe in play: the server's shoe, or a dealer-entry table's physical one."""
        shoes = self.service.store.shoes
        shoe = shoes.active_shoe(spec.id)
        if shoe is not None:
            results = shoes.shoe_results(int(shoe["id"]))
        else:
            results = shoes.entry_shoe_results(spec.id) if spec.dealing is Dealing.DEALER_ENTRY else []
        board = Scoreboard()
        for cards in results:
            board.add(game.coup_from_cards(cards))
        return board

    async def table(self, spec: TableSpec, *, full: bool) -> dict[str, Any]:
        """A table's view: the lobby's card, or (``full``) the whole table with its menus and roads."""
        service, store = self.service, self.service.store
        is_open, change_shoe, _ = await service.read(store.tables.table_flags, spec.id)
        shoe = await service.read(store.shoes.active_shoe, spec.id)
        round_ = await self.round_of(await service.read(store.rounds.current_round, spec.id))
        table = await self.table_of(spec)
        board = await service.read(self._board, spec) if full else None
        return table_view(spec, flags=(is_open, change_shoe), shoe=shoe, round_=round_, table=table, board=board)

    async def user(self, user: User) -> dict[str, Any]:
        """The user's own account view."""
        service = self.service
        wallet, owed = await service.read(service.store.ledger.balances, user)
        purses = await service.read(service.store.ledger.purses, user)
        return user_view(user.id, user.name, user.role.value, wallet=wallet, owed=owed, purses=purses)
