"""Rate limits held in memory, bounded: token buckets by client, and the log-in lockout.

Each table holds at most ``capacity`` keys; past it, the least recently seen key goes (a client
that has not been seen for longest has, almost always, a full bucket and no lock anyway), so an
attacker who sends many keys evicts only stale ones, never the buckets of active clients all at once.

>>> buckets = Buckets(rate=1.0, burst=2, capacity=2)
>>> [buckets.allow("a", now=0.0) for _ in range(3)]
[True, True, False]
>>> buckets.allow("b", now=0.0), buckets.allow("c", now=0.0), len(buckets)  # "a" was seen least recently
(True, True, 2)
>>> buckets.allow("a", now=0.0)  # forgotten, so full again
True
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["Buckets", "LoginGuard", "Lru", "RateLimiter"]

V = TypeVar("V")


class RateLimiter:
    """A token bucket: ``rate`` actions a second on average, bursts up to ``burst``.

    >>> bucket = RateLimiter(rate=1, burst=2)
    >>> bucket.allow(now=0.0), bucket.allow(now=0.0), bucket.allow(now=0.0), bucket.allow(now=1.0)
    (True, True, False, True)
    >>> bucket.wait(now=1.0)
    1.0
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, *, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp: float | None = None

    def _refill(self, now: float) -> None:
        if self.stamp is not None:
            self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def allow(self, *, now: float | None = None) -> bool:
        """Spend one token if there is one."""
        if now is None:
            import time

            now = time.monotonic()
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self, *, now: float) -> float:
        """Seconds until the next token."""
        self._refill(now)
        if self.tokens >= 1.0:
            return 0.0
        if self.rate <= 0 or self.burst < 1:
            return float("inf")
        return (1.0 - self.tokens) / self.rate


class Lru(Generic[V]):
    """A mapping that keeps its ``capacity`` most recently used keys."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, V] = OrderedDict()

    def get(self, key: str) -> V | None:
        """The value of a key (now the most recently used), if held."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: str, value: V) -> V:
        """Hold a value, dropping the least recently used key past the capacity."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)
        return value

    def pop(self, key: str) -> None:
        """Forget a key."""
        self._items.pop(key, None)

    def drop_where(self, doomed: Callable[[V], bool]) -> None:
        """Forget every key whose value is ``doomed``."""
        for key in [k for k, v in self._items.items() if doomed(v)]:
            del self._items[key]

    def items(self) -> list[tuple[str, V]]:
        """Every key and value held, least recently used first (their use unchanged)."""
        return list(self._items.items())

    def __len__(self) -> int:
        return len(self._items)


class Buckets:
    """A token bucket per key (client address or account), at most ``capacity`` of them."""

    def __init__(self, *, rate: float, burst: int, capacity: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: Lru[RateLimiter] = Lru(capacity)

    def bucket(self, key: str) -> RateLimiter:
        """The key's bucket (a full one for a key not held)."""
        found = self._buckets.get(key)
        if found is None:
            found = self._buckets.put(key, RateLimiter(rate=self.rate, burst=self.burst))
        return found

    def allow(self, key: str, *, now: float) -> bool:
        """Spend one of the key's tokens if it has one."""
        return self.bucket(key).allow(now=now)

    def __len__(self) -> int:
        return len(self._buckets)


@dataclass(slots=True)
class _Strikes:
    failures: int = 0
    last: float = 0.0
    locked_until: float = 0.0


class LoginGuard:
    """Failed log-ins by name and by address: past ``per_name`` (``per_address``) failures the name
    (address) is locked for ``base`` seconds, doubled by each further failure up to ``cap``.
    Failures older than ``cap`` are forgotten; a successful log-in clears its name's.

    >>> guard = LoginGuard(per_name=2, per_address=10, base=30.0, cap=600.0)
    >>> for _ in range(3):
    ...     guard.failed("ann", "10.0.0.1", now=0.0)
    >>> guard.locked("ann", "10.0.0.9", now=10.0), guard.locked("bob", "10.0.0.1", now=10.0)
    (20.0, 0.0)
    """

    def __init__(self, *, per_name: int, per_address: int, base: float, cap: float, capacity: int = 10_000) -> None:
        self.per_name = per_name
        self.per_address = per_address
        self.base = base
        self.cap = cap
        self._names: Lru[_Strikes] = Lru(capacity)
        self._addresses: Lru[_Strikes] = Lru(capacity)

    def locked(self, name: str, address: str, *, now: float) -> float:
        """Seconds the name or the address stays locked (0: neither is)."""
        left = 0.0
        for table, key in ((self._names, name.lower()), (self._addresses, address)):
            strikes = table.get(key)
            if strikes is not None:
                left = max(left, strikes.locked_until - now)
        return max(0.0, left)

    def failed(self, name: str, address: str, *, now: float) -> None:
        """Count a failed log-in."""
        for table, key, free in (
            (self._names, name.lower(), self.per_name),
            (self._addresses, address, self.per_address),
        ):
            strikes = table.get(key) or table.put(key, _Strikes())
            if now - strikes.last > self.cap:
                strikes.failures = 0
            strikes.failures += 1
            strikes.last = now
            if strikes.failures > free:
                lock = min(self.cap, self.base * 2.0 ** (strikes.failures - free - 1))
                strikes.locked_until = max(strikes.locked_until, now + lock)

    def succeeded(self, name: str, address: str) -> None:
        """A successful log-in (counted as a failure when it began): the name's failures are
        forgotten, and the address's count goes back by one."""
        self._names.pop(name.lower())
        strikes = self._addresses.get(address)
        if strikes is not None and strikes.failures > 0:
            strikes.failures -= 1
