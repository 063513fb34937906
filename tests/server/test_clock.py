"""The service's clock: the real one, and the manual one the server tests move by hand (from the
test's thread, while the app's event loop runs in a thread of its own, as with ``TestClient``)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from typing import Any, TypeVar

import pytest

from baccarat.server.clock import ManualClock, SystemClock

T = TypeVar("T")


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in a thread of its own."""
    running = asyncio.new_event_loop()
    thread = threading.Thread(target=running.run_forever, daemon=True)
    thread.start()
    yield running
    running.call_soon_threadsafe(running.stop)
    thread.join(timeout=5)
    running.close()


def _start(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, T]) -> Future[T]:
    return asyncio.run_coroutine_threadsafe(coroutine, loop)


def _parked(clock: ManualClock, count: int) -> None:
    """Wait (real time) until ``count`` coroutines sleep on the clock."""
    deadline = time.monotonic() + 60  # generous: a busy machine is slow to start a thread
    while clock.sleepers < count:
        assert time.monotonic() < deadline, "the coroutines did not go to sleep"
        time.sleep(0.001)


def test_the_system_clock_sleeps_and_wakes_early() -> None:
    clock = SystemClock()
    assert abs(clock.time() - time.time()) < 1 and abs(clock.monotonic() - time.monotonic()) < 1

    async def main() -> tuple[float, float]:
        wake = asyncio.Event()
        asyncio.get_running_loop().call_later(0.01, wake.set)
        started = time.monotonic()
        await clock.sleep(30, wake=wake)
        woken = time.monotonic() - started
        started = time.monotonic()
        await clock.sleep(0.01)
        await clock.sleep(-1)
        return woken, time.monotonic() - started

    woken, slept = asyncio.run(main())
    assert woken < 10 and 0.005 < slept < 10


def test_the_manual_clock_stands_still_until_advanced() -> None:
    clock = ManualClock(start=1_000.0)
    time.sleep(0.01)
    assert (clock.time(), clock.monotonic()) == (1_000.0, 0.0)
    clock.advance(1.5)
    assert (clock.time(), clock.monotonic()) == (1_001.5, 1.5)
    with pytest.raises(ValueError):
        clock.advance(-0.1)
    assert clock.sleepers == 0 and clock.next_deadline() is None


def test_sleepers_wake_in_deadline_order_each_at_its_deadline(loop: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock(start=0.0)
    woken: list[tuple[str, float]] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woken.append((name, clock.monotonic()))

    for name, seconds in (("c", 3.0), ("a", 1.0), ("b", 2.0), ("late", 9.0)):
        _start(loop, sleeper(name, seconds))
    _parked(clock, 4)
    assert clock.next_deadline() == 1.0
    clock.advance(2.5)
    assert woken == [("a", 1.0), ("b", 2.0)] and clock.monotonic() == 2.5
    clock.advance(1.0)
    assert woken[2:] == [("c", 3.0)] and clock.sleepers == 1


def test_advancing_lets_the_loop_run_what_a_wake_up_sets_going(loop: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock(start=0.0)
    ticks: list[float] = []

    async def ticker() -> None:  # a loop that sleeps a second at a time, like a table's countdown
        while len(ticks) < 5:
            await clock.sleep(1.0)
            await asyncio.sleep(0)
            ticks.append(clock.monotonic())

    done = _start(loop, ticker())
    _parked(clock, 1)
    clock.advance(3.0)  # each tick goes back to sleep before the clock moves to the next deadline
    assert ticks == [1.0, 2.0, 3.0]
    clock.advance(10.0)
    assert ticks == [1.0, 2.0, 3.0, 4.0, 5.0] and done.result(timeout=60) is None


def test_a_wake_event_ends_the_sleep_at_once(loop: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock(start=0.0)
    wake = asyncio.Event()

    async def sleeper() -> float:
        await clock.sleep(60, wake=wake)
        return clock.monotonic()

    done = _start(loop, sleeper())
    _parked(clock, 1)
    loop.call_soon_threadsafe(wake.set)
    assert done.result(timeout=60) == 0.0
    assert clock.sleepers == 0 and clock.next_deadline() is None
    already = _start(loop, clock.sleep(60, wake=wake))  # set before: no sleep at all
    assert already.result(timeout=60) is None


def test_advancing_waits_for_the_idle_checks(loop: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock(start=0.0)
    busy = threading.Event()
    stored: list[float] = []

    def store_call() -> None:  # a database call on a thread: the loop waits on it
        time.sleep(0.05)
        stored.append(clock.monotonic())
        busy.clear()

    async def step() -> None:
        await clock.sleep(1.0)
        busy.set()
        await asyncio.get_running_loop().run_in_executor(None, store_call)
        await clock.sleep(1.0)

    clock.add_idle_check(lambda: not busy.is_set())
    _start(loop, step())
    _parked(clock, 1)
    clock.advance(1.0)
    assert stored == [1.0]  # done before the advance returned, at the time it was woken at


def test_run_until_moves_the_clock_until_the_predicate_holds(loop: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock(start=0.0)
    rang: list[float] = []

    async def alarm() -> None:
        await clock.sleep(2.0)
        rang.append(clock.monotonic())

    _start(loop, alarm())
    _parked(clock, 1)
    assert clock.run_until(lambda: rang and rang[0], step=0.5) == 2.0
    assert clock.monotonic() == 2.0
    with pytest.raises(AssertionError, match="clock time"):
        clock.run_until(lambda: False, step=1.0, limit=3.0)
    assert clock.monotonic() == 5.0
