"""The service's clock: wall time, monotonic time and sleeping, real or moved by hand.

Everything the table server times goes through a :class:`Clock`: the betting countdown, when a
round closes, the pause after a settlement, the squeeze deadline (R23), when the table's lease is
renewed, how long an action passed on to another process is waited for. :class:`SystemClock` is the
real one. :class:`ManualClock` stands still until it is moved (:meth:`ManualClock.advance`,
:meth:`ManualClock.run_until`), so that a round of a table can be played through in the time it
takes to compute it, whatever the speed of the machine.

The database keeps its own times (when a row was written, when a table's lease expires): a lease
is a contract between every process that shares the database, so its expiry is read from the one
clock they all share, the wall clock, and not from one process's :class:`Clock`. With
:class:`SystemClock` the two are the same clock.

>>> clock = ManualClock(start=1000.0)
>>> clock.time(), clock.advance(2.5), clock.time()
(1000.0, None, 1002.5)
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import CancelledError as FutureCancelled
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

__all__ = ["Clock", "ManualClock", "SystemClock"]

T = TypeVar("T")

#: Turns of an event loop given to what a wake-up (or the last action) set going, before the
#: idle checks are asked whether the loop's work is done.
LOOP_TURNS = 8


class Clock(Protocol):
    """Where a server process reads the time and sleeps."""

    def time(self) -> float:
        """Wall time, in seconds since the epoch: what is stored in the database and sent to clients."""
        ...

    def monotonic(self) -> float:
        """Seconds that never go back, to measure durations with."""
        ...

    async def sleep(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        """Sleep ``seconds`` (none when zero or less); return early once ``wake`` is set."""
        ...


class SystemClock:
    """The real clock: :func:`time.time`, :func:`time.monotonic` and the event loop's timers."""

    __slots__ = ()

    def time(self) -> float:
        """Wall time (:func:`time.time`)."""
        return time.time()

    def monotonic(self) -> float:
        """Monotonic time (:func:`time.monotonic`)."""
        return time.monotonic()

    async def sleep(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        """Sleep on the event loop's timer; return early once ``wake`` is set."""
        if wake is None:
            await asyncio.sleep(max(0.0, seconds))
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout=max(0.0, seconds))

    def __repr__(self) -> str:
        return "SystemClock()"


@dataclass(eq=False, slots=True)
class _Sleeper:
    """One coroutine asleep on a :class:`ManualClock` until ``deadline`` (clock seconds)."""

    deadline: float
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None] = field(repr=False)
    over: bool = False  # woken, or gone (its wake event was set, or it was cancelled)


class ManualClock:
    """A clock that stands still until it is moved, for tests.

    :meth:`sleep` parks the coroutine until the clock is moved past its deadline. :meth:`advance`
    moves the clock, from any thread: the sleepers whose deadlines it passes are woken one deadline
    after the other, the time standing at each deadline in turn, and after each wake-up the woken
    loops are given turns to run what it set going, until every idle check (:meth:`add_idle_check`)
    holds. FastAPI's ``TestClient`` runs the app's event loop in a thread of its own: advancing from
    the test's thread wakes the app's sleepers through ``loop.call_soon_threadsafe``.

    ``start`` is the wall time the clock starts at (default: now); the monotonic time starts at 0.
    ``settle_seconds`` caps, in real seconds, one wait for the loops to become idle.
    """

    def __init__(self, start: float | None = None, *, settle_seconds: float = 30.0) -> None:
        self._lock = threading.Lock()
        self._moving = threading.Lock()  # one advance at a time
        self._epoch = time.time() if start is None else float(start)
        self._elapsed = 0.0
        self._queue: list[tuple[float, int, _Sleeper]] = []
        self._order = itertools.count()
        self._loops: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
        self._idle_checks: list[Callable[[], bool]] = []
        self.settle_seconds = settle_seconds

    def __repr__(self) -> str:
        return f"ManualClock(time={self.time():.3f}, sleepers={self.sleepers})"

    # --- reading the time --------------------------------------------------------------------------

    def time(self) -> float:
        """Wall time: the start plus every second advanced."""
        with self._lock:
            return self._epoch + self._elapsed

    def monotonic(self) -> float:
        """Seconds advanced since the clock was made."""
        with self._lock:
            return self._elapsed

    @property
    def sleepers(self) -> int:
        """How many coroutines sleep on the clock now."""
        with self._lock:
            return sum(not entry[2].over for entry in self._queue)

    def next_deadline(self) -> float | None:
        """The monotonic time the next sleeper wakes at (``None``: nobody sleeps)."""
        with self._lock:
            self._drop_over()
            return self._queue[0][0] if self._queue else None

    # --- sleeping ----------------------------------------------------------------------------------

    async def sleep(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        """Park until the clock is moved ``seconds`` on (none when zero or less), or until ``wake`` is set."""
        if wake is not None and wake.is_set():
            return
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        with self._lock:
            sleeper = _Sleeper(self._elapsed + seconds, loop, loop.create_future())
            heapq.heappush(self._queue, (sleeper.deadline, next(self._order), sleeper))
            self._loops.add(loop)
        try:
            if wake is None:
                await sleeper.future
                return
            waiter = loop.create_task(wake.wait())
            try:
                await asyncio.wait((sleeper.future, waiter), return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()
        finally:
            with self._lock:
                sleeper.over = True

    # --- moving the clock --------------------------------------------------------------------------

    def add_idle_check(self, check: Callable[[], bool]) -> None:
        """Also wait, after each wake-up, until ``check()`` holds (called from the advancing thread),
        e.g. that a service has no database call under way."""
        self._idle_checks.append(check)

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, waking the sleepers it passes in deadline order.

        Called from a thread other than the sleepers' loops, it lets each woken loop run what the
        wake-up set going (and become idle) before the clock moves to the next deadline.
        """
        if seconds < 0:
            raise ValueError(f"a clock does not go back ({seconds} s)")
        with self._moving:
            with self._lock:
                target = self._elapsed + seconds
            while woken := self._wake_next(target):
                self._settle({s.loop for s in woken})

    def wait_idle(self) -> None:
        """Let every loop that sleeps on the clock run until it is idle (see :meth:`advance`)."""
        with self._lock:
            loops = set(self._loops)
        self._settle(loops)

    def run_until(
        self, predicate: Callable[[], T | None], *, step: float = 0.25, limit: float = 300.0, timeout: float = 120.0
    ) -> T:
        """Move the clock ``step`` seconds at a time until ``predicate()`` is truthy; returns its value.

        Before each look at the predicate the loops are let run until idle, so what the test did
        last and what the last step woke are done. Fails (``AssertionError``) once the clock has
        moved ``limit`` seconds, or after ``timeout`` real seconds, without the predicate holding.
        """
        started, deadline = self.monotonic(), time.monotonic() + timeout
        while True:
            self.wait_idle()
            value = predicate()
            if value:
                return value
            if self.monotonic() - started >= limit:
                raise AssertionError(f"condition not reached in {limit:g} s of clock time")
            if time.monotonic() > deadline:
                raise AssertionError(f"condition not reached in {timeout:g} s (real time)")
            self.advance(step)

    def _wake_next(self, target: float) -> list[_Sleeper]:
        """Move the time to the next deadline at or before ``target`` and wake its sleepers; at
        ``target`` with nobody to wake, returns ``[]``."""
        with self._lock:
            self._drop_over()
            if not self._queue or self._queue[0][0] > target:
                self._elapsed = max(self._elapsed, target)
                return []
            deadline = self._queue[0][0]
            self._elapsed = max(self._elapsed, deadline)
            woken = []
            while self._queue and self._queue[0][0] <= deadline:
                sleeper = heapq.heappop(self._queue)[2]
                if not sleeper.over:
                    sleeper.over = True
                    woken.append(sleeper)
        for sleeper in woken:
            with contextlib.suppress(RuntimeError):  # its loop is closed: nothing to wake
                sleeper.loop.call_soon_threadsafe(_resolve, sleeper.future)
        return woken

    def _drop_over(self) -> None:
        while self._queue and self._queue[0][2].over:
            heapq.heappop(self._queue)

    def _settle(self, loops: set[asyncio.AbstractEventLoop]) -> None:
        """Give each loop turns until the idle checks hold (real time, at most :attr:`settle_seconds`)."""
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None:
            return  # called on a loop: it cannot run while this call waits
        deadline = time.monotonic() + self.settle_seconds
        quiet = 0  # idle twice in a row: a task between two database calls is not taken for idle
        while quiet < 2:
            for loop in loops:
                _turns(loop, deadline)
            if all(check() for check in self._idle_checks):
                quiet += 1
                continue
            quiet = 0
            if time.monotonic() > deadline:
                raise AssertionError(f"the event loops were still busy after {self.settle_seconds:g} s")
            time.sleep(0.001)


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


async def _yield_turns() -> None:
    for _ in range(LOOP_TURNS):
        await asyncio.sleep(0)


def _turns(loop: asyncio.AbstractEventLoop, deadline: float) -> None:
    """Let ``loop`` (running in another thread) run :data:`LOOP_TURNS` turns."""
    if loop.is_closed() or not loop.is_running():
        return
    try:
        done = asyncio.run_coroutine_threadsafe(_yield_turns(), loop)
    except RuntimeError:  # the loop closed meanwhile
        return
    with contextlib.suppress(FutureTimeout, FutureCancelled):  # a loop that stops does not run it
        done.result(timeout=max(0.01, deadline - time.monotonic()))
