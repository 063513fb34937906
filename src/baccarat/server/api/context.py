"""What one application holds beside its :class:`~baccarat.server.service.Service`: the session
cache, the per-client rate limits, and the tables this process reads but does not run.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from baccarat.roads import Scoreboard
from baccarat.server import game
from baccarat.server.observer.views import round_view, table_view, user_view
from baccarat.server.schema import RoundStatus
from baccarat.server.service import Service
from baccarat.server.settings import TableSpec
from baccarat.server.store import User
from baccarat.table import Table

__all__ = ["AppContext", "RateLimiter", "Sessions"]

#: How long a session token is trusted from memory before it is looked up again.
TOKEN_CACHE_SECONDS = 30.0
#: Password hashes computed at once.
HASHING_AT_ONCE = 2
#: How long a copy of a table run by another process is served before its newest event is checked.
REPLICA_SECONDS = 1.0


class RateLimiter:
    """A token bucket: ``rate`` actions a second on average, bursts up to ``burst``.

    >>> bucket = RateLimiter(rate=1, burst=2)
    >>> bucket.allow(now=0.0), bucket.allow(now=0.0), bucket.allow(now=0.0), bucket.allow(now=1.0)
    (True, True, False, True)
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, *, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp: float | None = None

    def allow(self, *, now: float | None = None) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic() if now is None else now
        if self.stamp is not None:
            self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass(frozen=True, slots=True)
class _Cached:
    user: User
    at: float


class Sessions:
    """Session tokens to users, trusted from memory for :data:`TOKEN_CACHE_SECONDS`."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.cache: dict[str, _Cached] = {}

    async def user(self, token: str | None) -> User | None:
        """The user of a session token (``None``: no such live session)."""
        if not token or len(token) > 200:
            return None
        hit = self.cache.get(token)
        if hit is not None and time.monotonic() - hit.at < TOKEN_CACHE_SECONDS:
            return hit.user
        user = await self.service.read(self.service.store.accounts.user_for_token, token)
        if user is None:
            self.cache.pop(token, None)
            return None
        if len(self.cache) > 50_000:
            self.cache.clear()
        self.cache[token] = _Cached(user, time.monotonic())
        return user

    def forget(self, token: str) -> None:
        """Stop trusting a token (its session ended)."""
        self.cache.pop(token, None)


@dataclass(slots=True)
class AppContext:
    """The service and what the routes share."""

    service: Service
    sessions: Sessions
    buckets: dict[str, RateLimiter] = field(default_factory=dict)
    #: password hashes and checks running at once, each on a worker thread (never on the event loop)
    hashing: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(HASHING_AT_ONCE))
    _replicas: dict[str, tuple[int, float, Table]] = field(default_factory=dict)

    @classmethod
    def of(cls, service: Service) -> AppContext:
        """The context of a new application."""
        return cls(service=service, sessions=Sessions(service))

    def bucket(self, key: str) -> RateLimiter:
        """The rate limit of one client (HTTP requests)."""
        found = self.buckets.get(key)
        if found is None:
            if len(self.buckets) > 10_000:
                self.buckets.clear()
            options = self.service.options
            found = self.buckets[key] = RateLimiter(rate=options.http_requests_per_second, burst=options.http_burst)
        return found

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

    def _board(self, table_id: str) -> Scoreboard:
        store = self.service.store
        shoe = store.shoes.active_shoe(table_id)
        board = Scoreboard()
        if shoe is not None:
            for cards in store.shoes.shoe_results(int(shoe["id"])):
                board.add(game.coup_from_cards(cards))
        return board

    async def table(self, spec: TableSpec, *, full: bool) -> dict[str, Any]:
        """A table's view: the lobby's card, or (``full``) the whole table with its menus and roads."""
        service, store = self.service, self.service.store
        is_open, change_shoe, _ = await service.read(store.tables.table_flags, spec.id)
        shoe = await service.read(store.shoes.active_shoe, spec.id)
        round_ = await self.round_of(await service.read(store.rounds.current_round, spec.id))
        table = await self.table_of(spec)
        board = await service.read(self._board, spec.id) if full else None
        return table_view(spec, flags=(is_open, change_shoe), shoe=shoe, round_=round_, table=table, board=board)

    async def user(self, user: User) -> dict[str, Any]:
        """The user's own account view."""
        service = self.service
        wallet, owed = await service.read(service.store.ledger.balances, user)
        purses = await service.read(service.store.ledger.purses, user)
        return user_view(user.id, user.name, user.role.value, wallet=wallet, owed=owed, purses=purses)
