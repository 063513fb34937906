"""Where a run's chunks are dealt: the calling thread, local threads, or a Dask cluster.

Every backend runs ``work(plan, index, blocks, hand_limit)`` for each chunk it is given and hands
back a future of the chunk's result; the runner decides which chunks, and folds them in order. A
chunk's result depends only on its arguments, so where it ran never changes a figure.

On Dask, a task that deals one short chunk spends a good part of its time being scheduled and sent
back: the backend gathers consecutive chunks into one task (a *batch*) of about
:data:`TASK_SECONDS` of work, measured on the chunks already dealt, and every worker loads (or
compiles) the kernels once, before the first chunk.
"""

from __future__ import annotations

import math
import os
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol

from baccarat.errors import InputError

__all__ = ["Backend", "ChunkWork", "Handle", "chunk_backend", "default_workers"]

#: Work per Dask task: long enough that scheduling and the trip back (a few milliseconds a task on
#: a small machine) stay under 5% of it, short enough that the last tasks of a run end together.
TASK_SECONDS = 0.25
#: Most chunks in one Dask task.
MAX_BATCH = 64
_SCHEDULER = re.compile(r"^(tcp|tls)://[A-Za-z0-9.\-\[\]:]+:\d{1,5}$")

#: A chunk's work: ``work(plan, index, blocks, hand_limit)``.
ChunkWork = Callable[[Any, int, int, int], Any]


class Handle(Protocol):
    """A chunk being dealt (a :class:`concurrent.futures.Future`, or a chunk of a Dask batch)."""

    def done(self) -> bool: ...
    def result(self) -> Any: ...
    def cancel(self) -> Any: ...
    def add_done_callback(self, fn: Callable[[Any], object], /) -> Any: ...


class Backend(Protocol):
    workers: int
    address: str | None

    @property
    def depth(self) -> int:
        """Chunks to keep submitted."""
        ...

    def submit(self, index: int, blocks: int, hand_limit: int) -> Handle: ...
    def close(self) -> None: ...


def default_workers() -> int:
    """All local cores."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class _Inline:
    """One worker: the calling thread deals each chunk as it is submitted.

    Handing chunks to a thread and back costs a tenth of a short run. Ctrl-C is seen when the
    chunk being dealt returns (a chunk takes milliseconds).
    """

    address: str | None = None
    workers = depth = 1

    def __init__(self, plan: Any, work: ChunkWork) -> None:
        self.plan, self.work = plan, work

    def submit(self, index: int, blocks: int, hand_limit: int) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(self.work(self.plan, index, blocks, hand_limit))
        except Exception as error:  # raised by result(), as from a thread
            future.set_exception(error)
        return future

    def close(self) -> None:
        pass


class _Local:
    """Threads on this machine: the kernels release the GIL."""

    address: str | None = None

    def __init__(self, plan: Any, workers: int, work: ChunkWork) -> None:
        self.plan, self.workers, self.depth, self.work = plan, workers, 4 * workers, work
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="baccarat-sim")

    def submit(self, index: int, blocks: int, hand_limit: int) -> Future[Any]:
        return self.pool.submit(self.work, self.plan, index, blocks, hand_limit)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _run_batch(work: ChunkWork, plan: Any, chunks: list[tuple[int, int, int]]) -> tuple[list[Any], float]:
    """A Dask task: the chunks ``(index, blocks, hand_limit)`` in turn, and the seconds they took."""
    started = time.perf_counter()
    results = [work(plan, index, blocks, limit) for index, blocks, limit in chunks]
    return results, time.perf_counter() - started


class _Batch:
    """Consecutive chunks sent to Dask as one task, once full or once someone waits on one of them."""

    def __init__(self, owner: _Dask) -> None:
        self.owner = owner
        self.chunks: list[tuple[int, int, int]] = []
        self.future: Any = None  # the Dask future, once sent
        self.callbacks: list[Callable[[Any], object]] = []
        self.cancelled = 0
        self._results: list[Any] | None = None

    def results(self, future: Any) -> list[Any]:
        """The batch's chunk results, fetched from the cluster once for all its chunks."""
        if self._results is None:
            self._results, seconds = future.result()
            self.owner.measure(seconds, len(self.chunks))
        return self._results

    def send(self) -> None:
        if self.future is not None:
            return
        self.future = self.owner.send(self)
        for callback in self.callbacks:
            self.future.add_done_callback(callback)


class _Chunk:
    """One chunk of a batch, as the runner sees it: a future of the chunk's result."""

    def __init__(self, batch: _Batch, position: int) -> None:
        self.batch, self.position = batch, position

    def _sent(self) -> Any:
        with self.batch.owner.lock:
            self.batch.send()
        return self.batch.future

    def done(self) -> bool:
        """Whether the chunk is dealt; a batch not yet full is sent now only if a worker would idle."""
        owner = self.batch.owner
        with owner.lock:
            if self.batch.future is None:
                if owner.running() >= owner.workers:
                    return False
                self.batch.send()
        return bool(self.batch.future.done())

    def result(self) -> Any:
        return self.batch.results(self._sent())[self.position]

    def cancel(self) -> None:
        """Cancel the batch once every chunk in it is cancelled (the runner cancels the later chunks)."""
        batch = self.batch
        with batch.owner.lock:
            batch.cancelled += 1
            if batch.cancelled < len(batch.chunks):
                return
            if batch.future is None:
                batch.owner.drop(batch)
                return
        batch.future.cancel()

    def add_done_callback(self, fn: Callable[[Any], object], /) -> None:
        with self.batch.owner.lock:
            if self.batch.future is None:
                self.batch.callbacks.append(fn)
                return
        self.batch.future.add_done_callback(fn)


class _Dask:
    """A Dask distributed cluster: the plan is scattered to every worker once, every worker warms
    the kernels once, and chunks travel in batches of about :data:`TASK_SECONDS` of work."""

    def __init__(self, plan: Any, address: str, work: ChunkWork) -> None:
        if not _SCHEDULER.match(address):
            raise InputError(f"scheduler address {address!r} is not tcp://HOST:PORT", hint="e.g. tcp://10.0.0.5:8786")
        from distributed import Client

        connect: Any = Client  # distributed ships no type hints
        try:
            self.client: Any = connect(address, timeout="3s", set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise InputError(
                f"cannot reach the Dask scheduler at {address}: {error}",
                hint="start one with `dask scheduler` and workers with `dask worker tcp://HOST:8786`, or leave out --scheduler",
            ) from None
        self.address: str | None = address
        self.workers = int(max(1, sum(self.client.nthreads().values())))
        self.work = work
        self.plan = self.client.scatter(plan, broadcast=True)
        self.lock = threading.Lock()
        self.open: _Batch | None = None
        self.batch = 1  # chunks per task, grown from the chunks' measured time
        self.sent: list[Any] = []  # the futures of batches sent and maybe still running
        self._warm()

    def _warm(self) -> None:
        """Deal an empty chunk on every worker: each loads (or compiles) the kernels before the run."""
        addresses = list(self.client.nthreads())
        futures = [
            self.client.submit(self.work, self.plan, 0, 0, -1, workers=[a], allow_other_workers=False, pure=False)
            for a in addresses
        ]
        self.client.gather(futures)

    @property
    def depth(self) -> int:
        """Two tasks a worker thread, and never fewer chunks than the threads' own backend keeps."""
        return max(4, 2 * self.batch) * self.workers

    def submit(self, index: int, blocks: int, hand_limit: int) -> _Chunk:
        with self.lock:
            if self.open is None:
                self.open = _Batch(self)
            batch = self.open
            batch.chunks.append((index, blocks, hand_limit))
            chunk = _Chunk(batch, len(batch.chunks) - 1)
            if len(batch.chunks) >= self.batch:
                batch.send()
        return chunk

    def send(self, batch: _Batch) -> Any:
        """Submit a batch (called under the lock); a batch no longer open takes no more chunks."""
        if self.open is batch:
            self.open = None
        future = self.client.submit(_run_batch, self.work, self.plan, list(batch.chunks), pure=False)
        self.sent.append(future)
        return future

    def running(self) -> int:
        """Batches sent and not yet done (called under the lock)."""
        self.sent = [future for future in self.sent if not future.done()]
        return len(self.sent)

    def drop(self, batch: _Batch) -> None:
        """Forget a batch never sent whose chunks were all cancelled (called under the lock)."""
        if self.open is batch:
            self.open = None

    def measure(self, seconds: float, chunks: int) -> None:
        """Size the next batches from the seconds a batch of ``chunks`` chunks took on its worker."""
        per_chunk = max(seconds / max(chunks, 1), 1e-6)
        self.batch = max(1, min(MAX_BATCH, math.ceil(TASK_SECONDS / per_chunk)))

    def close(self) -> None:
        self.client.close()


def chunk_backend(plan: Any, work: ChunkWork, workers: int, scheduler: str | None) -> Backend:
    """The backend that runs ``work(plan, index, blocks, hand_limit)`` chunk by chunk: the calling thread
    (one worker), local threads or the Dask cluster at ``scheduler``."""
    if scheduler:
        return _Dask(plan, scheduler, work)
    if workers == 1:
        return _Inline(plan, work)
    return _Local(plan, workers, work)
