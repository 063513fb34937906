"""The Dask backend gathers short chunks into batches and warms every worker, without changing a figure."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from baccarat.shoe import ShoeConfig
from baccarat.sim import backends
from baccarat.sim.runner import CHUNK_SHOES, SimulationJob, simulate

CHUNK_SECONDS = 0.01


def _slow_square(plan: Any, index: int, blocks: int, hand_limit: int) -> tuple[int, int, int, int]:
    """A chunk's work that takes CHUNK_SECONDS and says what it was given."""
    if blocks:
        time.sleep(CHUNK_SECONDS)
    return plan["offset"] + index * index, index, blocks, hand_limit


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None, protocol="tcp"
    ) as cluster:
        yield cluster.scheduler_address


def test_chunks_travel_in_batches_of_a_quarter_second_and_come_back_in_place(scheduler: str) -> None:
    backend = backends.chunk_backend({"offset": 7}, _slow_square, 2, scheduler)
    try:
        assert backend.batch == 1 and backend.depth == 4 * backend.workers
        first = [backend.submit(i, 1, -1) for i in range(4)]
        assert [h.result()[0] for h in first] == [7 + i * i for i in range(4)]
        # measured on its worker: a chunk takes CHUNK_SECONDS, so a task of TASK_SECONDS holds about 25
        assert 10 <= backend.batch <= backends.TASK_SECONDS / CHUNK_SECONDS + 1
        assert backend.depth == 2 * backend.batch * backend.workers
        handles = [backend.submit(i, 1, 5 if i == 30 else -1) for i in range(4, 60)]
        results = [h.result() for h in handles]
        assert [r[0] for r in results] == [7 + i * i for i in range(4, 60)]
        assert results[26] == (7 + 900, 30, 1, 5)
        # far fewer tasks than chunks: 60 chunks in at most 10 tasks (a batch not yet full is sent
        # when a worker would idle, so how many go part-full depends on the timing; usually 7 or 8)
        assert len(backend.sent) <= 10
    finally:
        backend.close()


def test_a_batch_not_full_is_sent_when_a_worker_would_idle(scheduler: str) -> None:
    backend = backends.chunk_backend({"offset": 0}, _slow_square, 2, scheduler)
    try:
        backend.batch = 50
        handle = backend.submit(3, 1, -1)
        deadline = time.monotonic() + 60
        while not handle.done():  # nothing else runs: done() sends it
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert handle.result() == (9, 3, 1, -1)
    finally:
        backend.close()


def test_cancelling_every_chunk_of_a_batch_not_sent_drops_it(scheduler: str) -> None:
    backend = backends.chunk_backend({"offset": 0}, _slow_square, 2, scheduler)
    try:
        backend.batch = 10
        handles = [backend.submit(i, 1, -1) for i in range(3)]
        for handle in handles:
            handle.cancel()
        assert backend.open is None and backend.sent == []
        assert backend.submit(4, 1, -1).result() == (16, 4, 1, -1)
    finally:
        backend.close()


def test_a_hands_run_on_dask_cuts_the_same_coup_as_on_threads(scheduler: str) -> None:
    """The chunk that crosses the hand count is dealt again with a limit while later batches are cancelled."""
    job = SimulationJob(seed=8, hands=5 * CHUNK_SHOES * 70 + 123, config=ShoeConfig(decks=8))
    local, remote = simulate(job, workers=2).to_dict(), simulate(job, scheduler=scheduler).to_dict()
    assert remote["hands"] == local["hands"] == job.hands
    assert remote["outcomes"] == local["outcomes"]
