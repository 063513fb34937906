"""Running a simulation: the job, its compiled plan, chunks of shoes, local threads or a Dask cluster.

A job is cut into chunks of whole shoes (with a strategy: of whole sessions) whose size depends only
on the job, never on the number of workers; shoe ``k`` is dealt from stream ``k`` of the seed, and
chunks are folded into the result in order. So a seeded run gives the same result, bit for bit,
on one thread, on all local cores or on a cluster. ``hands=N`` deals exactly ``N`` scored coups:
the chunk that crosses ``N`` is dealt again with a hand limit.

>>> from baccarat.shoe import ShoeConfig
>>> job = SimulationJob(config=ShoeConfig(decks=8), seed=1, hands=20_000)
>>> one, two = simulate(job, workers=1), simulate(job, workers=2)
>>> one.hands, one.outcomes == two.outcomes
(20000, True)
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from baccarat.analysis import effects_of_removal
from baccarat.bets import BetKind
from baccarat.coup import Side
from baccarat.errors import InputError
from baccarat.features import FEATURE_KEYS
from baccarat.settlement import FeatureArrays, outcome_table
from baccarat.shoe import DealingMode, ShoeConfig
from baccarat.sim import kernel as k
from baccarat.sim.backends import Backend, Handle, chunk_backend, default_workers
from baccarat.sim.bankroll import Bankroll, TableLimits
from baccarat.sim.results import Accumulator, ChunkResult, SimulationResult
from baccarat.sim.strategies import LimitAction, Selection, Strategy
from baccarat.variants import Variant, get_variant

__all__ = ["Plan", "SimulationJob", "build_plan", "run_chunk", "simulate"]

#: Shoes per chunk (with a strategy, whose kernel is three times slower, and with a continuous
#: shuffler: coups per chunk), a few milliseconds of work: long enough that the work around each
#: chunk (about 0.1 ms: setting up the kernel, collecting and folding its histogram) stays small.
CHUNK_SHOES = 4096
CHUNK_SHOES_STRATEGY = 2048
CHUNK_COUPS_CONTINUOUS = 4096
#: A long job's chunks are doubled, up to this many times those sizes, while it keeps
#: :data:`MIN_CHUNKS` chunks (for the workers to share and the progress bar to move).
CHUNK_GROWTH = 4
MIN_CHUNKS = 64
#: Most sessions whose bankroll path is kept for the percentile plot, and points per path.
TRACK_SESSIONS = 1000
TRACK_POINTS = 400
_MAX_SHOES = 10**11
_MAX_HANDS = 10**13


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationJob:
    """What to simulate: the shoe, the variant, the seed, how much, and optionally a strategy and bankroll.

    Exactly one of ``shoes`` and ``hands`` is given. With a strategy, shoes are played in sessions of
    ``session_shoes`` shoes (default 10; with a continuous shuffler, where every coup is a shoe, 800),
    each starting from the full bankroll; ``limits`` overrides the variant's table limits.
    """

    seed: int
    config: ShoeConfig = field(default_factory=ShoeConfig)
    variant: str = "macau"
    shoes: int | None = None
    hands: int | None = None
    strategy: Strategy | None = None
    bankroll: Bankroll | None = None
    limits: TableLimits | None = None
    session_shoes: int | None = None
    first_shoe: int = 1

    def __post_init__(self) -> None:
        k.check_seed(self.seed)
        if (self.shoes is None) == (self.hands is None):
            raise InputError("give either a number of shoes or a number of hands", hint="e.g. --hands 1000000")
        amount, limit, what = (
            (self.shoes, _MAX_SHOES, "shoes") if self.hands is None else (self.hands, _MAX_HANDS, "hands")
        )
        if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= limit:
            raise InputError(f"{amount!r} {what} is outside 1–{limit:.0e}", hint=f"ask for 1 to {limit:,} {what}")
        if self.session_shoes is not None and not 1 <= self.session_shoes <= 100_000:
            raise InputError(f"sessions of {self.session_shoes} shoes", hint="give 1 to 100000 shoes per session")
        k.check_shoes(self.first_shoe, 0)
        get_variant(self.variant)

    @property
    def block_shoes(self) -> int:
        """Shoes per session (1 without a strategy)."""
        if self.strategy is None:
            return 1
        if self.session_shoes is not None:
            return self.session_shoes
        return 800 if self.config.mode is DealingMode.CONTINUOUS else 10


@dataclass(frozen=True, eq=False)
class Plan:
    """Everything the kernels need, as arrays (shipped once to every worker)."""

    seed: int
    first_shoe: int
    block_shoes: int
    blocks_per_chunk: int
    deck: npt.NDArray[np.int8]
    config: npt.NDArray[np.int64]
    packed: npt.NDArray[np.int64]
    draws: npt.NDArray[np.int64]
    strategy: dict[str, npt.NDArray[Any]] | None = None
    track_len: int = 0
    #: The most scored coups a shoe can deal (a coup takes at least four cards).
    shoe_coups: int = 1 << 62


def _winner_of_keys() -> npt.NDArray[np.int8]:
    f = FeatureArrays.of_keys(np.arange(FEATURE_KEYS, dtype=np.int64))
    return np.where(f.banker_total > f.player_total, 0, np.where(f.player_total > f.banker_total, 1, 2)).astype(np.int8)


def _strategy_arrays(job: SimulationJob, variant: Variant, size: int) -> tuple[dict[str, npt.NDArray[Any]], int]:
    strategy, bankroll = job.strategy, job.bankroll
    assert strategy is not None
    kinds = strategy.bets
    for kind in kinds:
        variant.check_bet(kind)
    table = outcome_table(variant.paytable)
    rows = {kind: i for i, kind in enumerate(kinds)}
    widest = max(len(table.levels[kind]) for kind in kinds)
    outcome = np.stack([table.index[kind] for kind in kinds]).astype(np.int8)
    pays = np.ones((len(kinds), 2 * widest), dtype=np.int64)
    limits = np.empty((len(kinds), 3), dtype=np.int64)
    for kind, row in rows.items():
        for i, level in enumerate(table.levels[kind]):
            pays[row, 2 * i : 2 * i + 2] = level.pays.numerator, level.pays.denominator
        offered = variant.limit(kind)
        chosen = job.limits or TableLimits(minimum=offered.minimum, maximum=offered.maximum)
        limits[row] = chosen.minimum, chosen.maximum, offered.step
    minimum = int(limits[:, 0].min())
    if bankroll is None:
        unit = int(limits[:, 0].max())
        bankroll = Bankroll(start=100 * unit, unit=unit)
    bankroll.check_limits(minimum=int(limits[:, 0].max()))
    progression = strategy.progression
    params = np.zeros(k.P_SIZE, dtype=np.int64)
    params[k.P_SELECT] = {
        Selection.FIXED: k.SELECT_FIXED,
        Selection.STREAK: k.SELECT_FOLLOW,
        Selection.CHOP: k.SELECT_FOLLOW,
        Selection.PATTERN: k.SELECT_SEQUENCE,
        Selection.COUNT: k.SELECT_COUNT,
    }[strategy.selection]
    params[k.P_BET] = 0
    params[k.P_MIN_RUN] = strategy.min_run
    params[k.P_ON_LIMIT_RESET] = progression.on_limit is LimitAction.RESET
    params[k.P_RUIN_BELOW] = minimum
    params[k.P_BANKROLL] = bankroll.start
    params[k.P_UNIT] = bankroll.unit
    params[k.P_STOP_LOSS] = bankroll.stop_loss
    params[k.P_STOP_WIN] = bankroll.stop_win
    params[k.P_SESSION_SHOES] = job.block_shoes
    banker, player = rows.get(BetKind.BANKER, 0), rows.get(BetKind.PLAYER, 0)
    follow = np.array([player, banker] if strategy.selection is Selection.CHOP else [banker, player], dtype=np.int64)
    sequence = np.array([banker if side is Side.BANKER else player for side in strategy.pattern] or [0], np.int64)
    tags = np.zeros(52, dtype=np.float64)
    count = np.zeros(3, dtype=np.float64)
    if strategy.selection is Selection.COUNT:
        composition = job.config.full_composition()
        effects = effects_of_removal(composition, variant=variant).bets[strategy.bet]
        for index in range(52):
            eor = effects.eor[index // 4]
            tags[index] = 0.0 if eor is None else float(eor)
        count[:] = float(effects.expected_value), strategy.threshold, composition.total - 1
    most_hands = job.block_shoes * (size // 4 + 2)
    stride = max(1, math.ceil(most_hands / TRACK_POINTS))
    params[k.P_TRACK_STRIDE] = stride
    arrays: dict[str, npt.NDArray[Any]] = {
        "winner": _winner_of_keys(),
        "params": params,
        "follow": follow,
        "sequence": sequence,
        "levels": np.array(progression.levels, dtype=np.int64),
        "on_win": np.array(progression.on_win, dtype=np.int64),
        "on_loss": np.array(progression.on_loss, dtype=np.int64),
        "outcome": outcome,
        "pays": pays,
        "limits": limits,
        "tags": tags,
        "count": count,
    }
    return arrays, most_hands // stride + 2


def _blocks_per_chunk(job: SimulationJob, cards: int) -> int:
    """Blocks (shoes, or sessions) per chunk: a function of the job alone, never of the workers.

    ``CHUNK_SHOES`` shoes (about 4 ms of the counting kernel) per chunk; a job of at least
    ``MIN_CHUNKS`` chunks of twice that gets chunks twice as long, and so on up to ``CHUNK_GROWTH``
    times. A ``hands`` job estimates its shoes from the shoe's size (about 5 cards a coup).
    """
    continuous = job.config.mode is DealingMode.CONTINUOUS
    shoes_per_chunk = CHUNK_SHOES if job.strategy is None else CHUNK_SHOES_STRATEGY
    base = max(1, (CHUNK_COUPS_CONTINUOUS if continuous else shoes_per_chunk) // job.block_shoes)
    if job.shoes is not None:
        shoes = job.shoes
    else:
        per_shoe = 1 if continuous else max(1, (cards - job.config.cut_card_from_end) // 5 - job.config.demo_coups)
        shoes = (job.hands or 0) // per_shoe
    blocks = shoes // job.block_shoes
    per_chunk = base
    while per_chunk < CHUNK_GROWTH * base and blocks >= MIN_CHUNKS * 2 * per_chunk:
        per_chunk *= 2
    return per_chunk


def build_plan(job: SimulationJob) -> Plan:
    """Compile a job into kernel arrays (validating the strategy against the variant and the bankroll)."""
    tables = k.kernel_tables()
    shoe = k.shoe_tables(job.config)
    per_chunk = _blocks_per_chunk(job, shoe.size)
    strategy, track_len = (None, 0)
    if job.strategy is not None:
        strategy, track_len = _strategy_arrays(job, get_variant(job.variant), shoe.size)
    return Plan(
        seed=job.seed,
        first_shoe=job.first_shoe,
        block_shoes=job.block_shoes,
        blocks_per_chunk=per_chunk,
        deck=shoe.deck,
        config=shoe.config,
        packed=tables.packed,
        draws=tables.draws,
        strategy=strategy,
        track_len=track_len,
        shoe_coups=1 if job.config.mode is DealingMode.CONTINUOUS else shoe.max_coups,
    )


#: Zeroed histograms for the chunks to count into, kept from chunk to chunk (and run to run): a fresh
#: 800 kB array per chunk costs page faults and a cold cache. ``list.pop`` and ``append`` are atomic.
_spare: list[npt.NDArray[np.int64]] = []
#: Feature keys seen in earlier chunks, sorted (replaced, never changed in place), and as a mask.
_seen: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
_seen_mask = np.zeros(FEATURE_KEYS, dtype=np.bool_)
_seen_lock = threading.Lock()


def _take(hist: npt.NDArray[np.int64], hands: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The nonzero keys of a chunk's histogram and their counts, in key order; leaves ``hist`` zero.

    Every scored coup adds one to ``hist`` (the kernels' invariant ``hist.sum() == hands``), so when
    the keys seen before hold ``hands`` counts, no other entry is nonzero: the scan of all
    :data:`FEATURE_KEYS` entries is needed only when a chunk deals a key for the first time (on
    long runs, rare keys keep appearing: one chunk in two or more over the first 100 million hands).
    """
    global _seen
    seen = _seen
    counts = hist[seen]
    if int(counts.sum()) == hands:
        hist[seen] = 0
        nonzero = np.flatnonzero(counts)
        return seen[nonzero], counts[nonzero]
    keys = np.flatnonzero(hist != 0)
    counts = hist[keys]
    hist[keys] = 0
    with _seen_lock:
        _seen_mask[keys] = True
        _seen = np.flatnonzero(_seen_mask)
    return keys, counts


def _count(
    plan: Plan, seed: np.uint64, first: int, shoes: int, hand_limit: int, hist: npt.NDArray[np.int64]
) -> tuple[int, int]:
    """``_count_kernel`` over shoes ``first …``; returns ``(hands, shoes started)``.

    With a hand limit the kernel deals one shoe at a time, at half its speed: so the shoes that
    cannot reach the limit (``shoe_coups`` coups each at most) are dealt first without one.
    """
    hands = done = 0
    if hand_limit >= 0:
        while (safe := min((hand_limit - hands) // plan.shoe_coups, shoes - done)) >= 16:
            dealt, _ = k._count_kernel(
                seed, first + done, safe, -1, plan.deck, plan.config, plan.packed, plan.draws, hist
            )
            hands, done = hands + int(dealt), done + safe
        hand_limit -= hands
    dealt, started = k._count_kernel(
        seed, first + done, shoes - done, hand_limit, plan.deck, plan.config, plan.packed, plan.draws, hist
    )
    return hands + int(dealt), done + int(started)


def run_chunk(plan: Plan, index: int, blocks: int | None = None, hand_limit: int = -1) -> ChunkResult:
    """Deal chunk ``index`` of a plan: its first ``blocks`` blocks (default all), stopping after
    ``hand_limit`` scored coups (-1: no limit).

    A pure function of its arguments: any worker, anywhere, returns the same result.
    """
    started = time.perf_counter()
    try:
        hist = _spare.pop()
    except IndexError:
        hist = np.zeros(FEATURE_KEYS, dtype=np.int64)
    first = plan.first_shoe + index * plan.blocks_per_chunk * plan.block_shoes
    blocks = plan.blocks_per_chunk if blocks is None else blocks
    seed = np.uint64(plan.seed)
    s = plan.strategy
    if s is None:
        hands, shoes = _count(plan, seed, first, blocks, hand_limit, hist)
        keys, counts = _take(hist, hands)
        _spare.append(hist)  # zeroed again by _take (a kernel that raises leaves it out)
        return ChunkResult(
            index=index,
            hands=int(hands),
            shoes=int(shoes),
            keys=keys,
            counts=counts,
            seconds=time.perf_counter() - started,
        )
    bets = s["outcome"].shape[0]
    sessions = np.zeros((blocks, k.S_SIZE), dtype=np.int64)
    tracked = min(max(TRACK_SESSIONS - index * plan.blocks_per_chunk, 0), blocks)
    track = np.zeros((tracked, plan.track_len), dtype=np.int64)
    results = np.zeros((bets, s["pays"].shape[1] // 2 + 2), dtype=np.int64)
    money = np.zeros((bets, 2), dtype=np.int64)
    shoe_sums = np.zeros(k.B_SIZE, dtype=np.float64)
    hands, played = k._play_kernel(
        seed,
        first,
        hand_limit,
        plan.deck,
        plan.config,
        plan.packed,
        plan.draws,
        s["winner"],
        s["params"],
        s["follow"],
        s["sequence"],
        s["levels"],
        s["on_win"],
        s["on_loss"],
        s["outcome"],
        s["pays"],
        s["limits"],
        s["tags"],
        s["count"],
        hist,
        sessions,
        results,
        money,
        shoe_sums,
        track,
    )
    keys, counts = _take(hist, hands)
    _spare.append(hist)  # zeroed again by _take (a kernel that raises leaves it out)
    return ChunkResult(
        index=index,
        hands=int(hands),
        shoes=int(shoe_sums[k.B_SHOES]),
        keys=keys,
        counts=counts,
        sessions=sessions[:played],
        results=results,
        money=money,
        shoe_sums=shoe_sums,
        track=track[: min(tracked, played)],
        seconds=time.perf_counter() - started,
    )


def _warm_up(plan: Plan) -> None:
    """Load (or compile) the kernel once before the threads start."""
    run_chunk(plan, 0, 0)


# --- the run ------------------------------------------------------------------------------------


def _hands_per_shoe(plan: Plan) -> float:
    hist = np.zeros(FEATURE_KEYS, dtype=np.int64)
    shoes = 16
    hands, _ = k._count_kernel(
        np.uint64(plan.seed), plan.first_shoe, shoes, -1, plan.deck, plan.config, plan.packed, plan.draws, hist
    )
    return max(hands / shoes, 1.0)


def simulate(
    job: SimulationJob,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Run a job on ``workers`` local threads (default: every core) or on the Dask cluster at ``scheduler``.

    ``progress`` is called with the hands (or, for a ``shoes`` job, the shoes) each finished chunk
    adds. Ctrl-C (KeyboardInterrupt) stops the run: the result then covers the chunks completed in
    order, and says ``interrupted``.
    """
    if workers is not None and not 1 <= workers <= 4096:
        raise InputError(f"{workers} workers", hint="give 1 to 4096 workers, or leave it out for every core")
    started = time.perf_counter()
    plan = build_plan(job)
    accumulator = Accumulator(job, plan)
    workers = workers or default_workers()
    if workers > 1 and not scheduler:
        _warm_up(plan)  # a Dask backend warms every worker itself
    backend = chunk_backend(plan, run_chunk, workers, scheduler)
    interrupted = False
    try:
        _drive(job, plan, backend, accumulator, progress)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        backend.close()
    return accumulator.result(
        elapsed=time.perf_counter() - started,
        workers=backend.workers,
        scheduler=backend.address,
        interrupted=interrupted,
    )


def _drive(
    job: SimulationJob,
    plan: Plan,
    backend: Backend,
    acc: Accumulator,
    progress: Callable[[int], None] | None,
) -> None:
    per_chunk_shoes = plan.blocks_per_chunk * plan.block_shoes
    if job.shoes is not None:
        total_chunks = math.ceil(math.ceil(job.shoes / plan.block_shoes) / plan.blocks_per_chunk)
        last_blocks = math.ceil(job.shoes / plan.block_shoes) - (total_chunks - 1) * plan.blocks_per_chunk
        target = -1
        chunk_hands = 0.0
    else:
        target = job.hands or 0
        total_chunks = -1
        last_blocks = plan.blocks_per_chunk
        chunk_hands = _hands_per_shoe(plan) * per_chunk_shoes
    in_flight: dict[int, Handle] = {}
    waiting: dict[int, ChunkResult] = {}
    next_index = 0
    limited: int | None = None  # the chunk being dealt again with a hand limit
    ready = threading.Event()  # set when a chunk finishes: no polling delay between chunks

    def submit(index: int, blocks: int, hand_limit: int) -> Handle:
        handle = backend.submit(index, blocks, hand_limit)
        handle.add_done_callback(lambda _: ready.set())
        return handle

    def wanted() -> bool:
        if limited is not None:
            return False
        if total_chunks >= 0:
            return next_index < total_chunks
        return acc.hands + (len(in_flight) + len(waiting)) * chunk_hands < target * 1.001 + chunk_hands

    while True:
        while len(in_flight) < backend.depth and wanted():
            blocks = last_blocks if next_index == total_chunks - 1 else plan.blocks_per_chunk
            in_flight[next_index] = submit(next_index, blocks, -1)
            next_index += 1
        if not in_flight:
            if target >= 0 and acc.hands < target and limited is None:
                continue  # the estimate fell short: deal more chunks
            return
        ready.clear()  # before looking, so that a chunk finishing meanwhile sets it again
        finished = [i for i, handle in in_flight.items() if handle.done()]
        if not finished:
            ready.wait(0.1)  # with a timeout, so that Ctrl-C is seen promptly
            continue
        for i in finished:
            waiting[i] = in_flight.pop(i).result()
        while acc.next_index in waiting:
            chunk = waiting.pop(acc.next_index)
            if target >= 0 and acc.hands + chunk.hands > target:
                if limited == chunk.index:
                    raise AssertionError("a hand-limited chunk dealt too many hands")  # pragma: no cover
                limited = chunk.index
                for j in [j for j in in_flight if j > chunk.index]:
                    in_flight.pop(j).cancel()
                waiting.clear()
                in_flight[chunk.index] = submit(chunk.index, plan.blocks_per_chunk, target - acc.hands)
                break
            acc.fold(chunk)
            if progress is not None:
                progress(chunk.shoes if job.shoes is not None else chunk.hands)
            if target >= 0 and acc.hands == target:
                for handle in in_flight.values():
                    handle.cancel()
                return
