"""The perfect-knowledge bound: what a player who sees every card dealt could win at most.

The oracle stakes one unit on each of its bets whenever the bet's exact expected value for the next
coup, from the cards it has not seen, is positive. Every bet is priced exactly at every coup by the
next-coup kernel (:mod:`baccarat.analysis._next_kernel`), inside the compiled loop that deals the shoe
(:func:`baccarat.sim.kernel._deal_shoe`, the simulator's own shoes, bit for bit). The card turned face
up by burn method (b) is seen; the cards burned face down are not, unless ``burn_seen``.

Shoes are dealt in chunks by the simulation runner's backends (local threads or a Dask cluster): shoe
``k`` comes from stream ``k`` of the seed, so a seeded run gives the same figures on any backend.

>>> result = simulate_oracle(OracleJob(seed=3, shoes=4, variant="macau"), workers=1)
>>> result.shoes, result.coups > 200, sorted(result.bets) == sorted(["banker", "player", "tie", "banker_pair", "player_pair"])
(4, True, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from baccarat.analysis._next_kernel import PAIR_KEYS, TABLEAU_KEYS, next_coup_kernel
from baccarat.analysis.exact import INT64_MAX, drawing_tables, falling_factorial
from baccarat.analysis.next_coup import NextCoupPricing, next_coup_pricing
from baccarat.bets import BetKind
from baccarat.errors import InputError
from baccarat.features import KEY_BANKER_THIRD_CARD, KEY_PLAYER_THIRD_CARD
from baccarat.shoe import ShoeConfig
from baccarat.sim import kernel as k
from baccarat.sim.results import Estimate, wilson_interval

__all__ = ["OracleBet", "OracleJob", "OracleResult", "oracle_chunk", "simulate_oracle"]

#: Shoes per chunk: a chunk of eight-deck shoes takes about a second.
CHUNK_SHOES = 32
#: Per shoe and bet: coups at +EV, the sum of those EVs, the realised gain on them.
_POSITIVE, _EXPECTED, _REALISED = 0, 1, 2
#: Penetration bins of the +EV frequency: bin ``b`` holds the coups whose first card is in the
#: ``b``-th tenth of the shoe.
DEPTH_BINS = 10


@dataclass(frozen=True, slots=True, kw_only=True)
class OracleJob:
    """Shoes to deal, the variant, the bets (default: all of the variant's) and whether burned cards are seen."""

    seed: int
    shoes: int
    config: ShoeConfig = field(default_factory=ShoeConfig)
    variant: str = "macau"
    bets: tuple[BetKind, ...] | None = None
    burn_seen: bool = False
    first_shoe: int = 1

    def __post_init__(self) -> None:
        k.check_seed(self.seed)
        if isinstance(self.shoes, bool) or not 1 <= self.shoes <= 10**9:
            raise InputError(f"{self.shoes!r} shoes is outside 1–1e9", hint="ask for 1 to 1,000,000,000 shoes")
        k.check_shoes(self.first_shoe, self.shoes)


@dataclass(frozen=True, eq=False)
class OraclePlan:
    """A job as kernel arrays (shipped once to every worker)."""

    job: OracleJob
    pricing: NextCoupPricing
    deck: npt.NDArray[np.int8]
    config: npt.NDArray[np.int64]
    packed: npt.NDArray[np.int64]
    draws: npt.NDArray[np.int64]
    max_coups: int


def oracle_plan(job: OracleJob) -> OraclePlan:
    """Compile a job, refusing bets the exact kernel cannot price in 64-bit integers."""
    pricing = next_coup_pricing(job.variant, kinds=job.bets)
    if pricing.mixed:
        names = ", ".join(kind.value for kind in pricing.mixed)
        raise InputError(f"the oracle cannot price {names}", hint="leave out bets that read both pairs and totals")
    tables = k.kernel_tables()
    shoe = k.shoe_tables(job.config)
    if int(np.abs(pricing.pays).max()) * falling_factorial(shoe.size, 6) > INT64_MAX:
        raise InputError(
            f"the payouts of {pricing.paytable.name} on {shoe.size} cards overflow exact 64-bit sums",
            hint="use fewer decks",
        )
    return OraclePlan(job, pricing, shoe.deck, shoe.config, tables.packed, tables.draws, shoe.max_coups)


@njit(cache=True, nogil=True, error_model="numpy")
def _settle_next(
    counts: npt.NDArray[np.int64],
    key: int,
    tables: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]],
    index: npt.NDArray[np.int8],
    full_index: npt.NDArray[np.int8],
    pays: npt.NDArray[np.int64],
    scale: npt.NDArray[np.int64],
    merge_ten: bool,
    work: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    out: npt.NDArray[np.float64],
    depth: npt.NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """Price every bet for the coup about to be dealt from ``counts`` and add the +EV bets to ``out``
    (bets x 3: coups at +EV, their EVs, the realised gain of the coup dealt, whose feature key is ``key``)
    and to ``depth`` (by bet, +EV coups at this coup's penetration; the last entry counts the coups)."""
    scratch, ways, sums = work
    next_coup_kernel(counts, tables[0], tables[1], index, merge_ten, scratch, ways, sums)
    n = 0
    for i in range(52):
        n += counts[i]
    total = float(n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5))
    for row in range(sums.shape[0]):
        numerator = 0
        for col in range(sums.shape[1]):
            numerator += pays[row, col] * sums[row, col]
        if numerator > 0:
            depth[row] += 1
            out[row, _POSITIVE] += 1.0
            out[row, _EXPECTED] += numerator / (scale[row] * total)
            out[row, _REALISED] += pays[row, full_index[key, row] + 2] / scale[row]


@njit(cache=True, nogil=True, error_model="numpy")
def _oracle_kernel(
    seed: np.uint64,
    first_shoe: int,
    deck: npt.NDArray[np.int8],
    cfg: npt.NDArray[np.int64],
    packed: npt.NDArray[np.int64],
    draws: npt.NDArray[np.int64],
    burn_seen: bool,
    merge_ten: bool,
    tables: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]],
    pricing: tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    out: npt.NDArray[np.float64],
    out_coups: npt.NDArray[np.int64],
    out_depth: npt.NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """Deal ``out.shape[0]`` shoes and play the oracle on each: ``out[shoe, bet, :]`` as in
    :func:`_settle_next`, ``out_coups[shoe]`` the scored coups, ``out_depth[bin, bet]`` the +EV coups
    by penetration (``out_depth[bin, bets]``: the coups)."""
    n = deck.shape[0]
    fresh, table, thresh, fold, magic, work = k._buffers(deck, packed, draws, 0)
    cap = n // 4 + 2
    keys, starts, flags = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.int64)
    index, full_index, pays, scale = pricing
    bets = index.shape[1]
    buffers = (
        np.empty((2, 11), np.int64),
        np.empty(TABLEAU_KEYS + PAIR_KEYS, np.int64),
        np.empty((bets, pays.shape[1]), np.int64),
    )
    full = np.zeros(52, dtype=np.int64)
    for i in range(n):
        full[(fresh[i] >> 16) & 255] += 1
    counts = np.empty(52, dtype=np.int64)
    for s in range(out.shape[0]):
        coups, turned, base = k._deal_shoe(
            seed, first_shoe + s, fresh, cfg, table, thresh, fold, magic, work, keys, starts, flags
        )
        shoe = work[base : base + n]
        counts[:] = full
        if turned >= 0 and not burn_seen:
            counts[(shoe[turned] >> 16) & 255] -= 1
        seen = 0
        scored = 0
        for c in range(coups):
            if burn_seen:
                for p in range(seen, starts[c]):
                    counts[(shoe[p] >> 16) & 255] -= 1
            if not flags[c] & k.FLAG_DEMO:
                scored += 1
                depth = out_depth[starts[c] * out_depth.shape[0] // n]
                depth[bets] += 1
                _settle_next(counts, keys[c], tables, index, full_index, pays, scale, merge_ten, buffers, out[s], depth)
            key = keys[c]
            used = 4 + (key // KEY_PLAYER_THIRD_CARD) % 2 + (key // KEY_BANKER_THIRD_CARD) % 2
            for p in range(starts[c], starts[c] + used):
                counts[(shoe[p] >> 16) & 255] -= 1
            seen = starts[c] + used
        out_coups[s] = scored


@dataclass(frozen=True, eq=False)
class OracleChunk:
    """One chunk's per-shoe figures: ``per_shoe[shoe, bet, :]`` (+EV coups, expected, realised), coups per
    shoe, and ``depth[bin, bet]``: +EV coups by penetration (``depth[bin, -1]``: the coups)."""

    index: int
    per_shoe: npt.NDArray[np.float64]
    coups: npt.NDArray[np.int64]
    seconds: float
    depth: npt.NDArray[np.int64]


def oracle_chunk(plan: OraclePlan, index: int, shoes: int, _hand_limit: int = -1) -> OracleChunk:
    """Deal chunk ``index`` of a plan (``shoes`` shoes from shoe ``first_shoe + index * CHUNK_SHOES``)."""
    started = time.perf_counter()
    p = plan.pricing
    out = np.zeros((shoes, len(p.kinds), 3), dtype=np.float64)
    coups = np.zeros(shoes, dtype=np.int64)
    depth = np.zeros((DEPTH_BINS, len(p.kinds) + 1), dtype=np.int64)
    _oracle_kernel(
        np.uint64(plan.job.seed),
        plan.job.first_shoe + index * CHUNK_SHOES,
        plan.deck,
        plan.config,
        plan.packed,
        plan.draws,
        plan.job.burn_seen,
        not p.reads_face,
        drawing_tables(),
        (p.index, p.full_index, p.pays, p.scale),
        out,
        coups,
        depth,
    )
    return OracleChunk(index, out, coups, time.perf_counter() - started, depth)


# --- the figures --------------------------------------------------------------------------------


def _mean(values: npt.NDArray[np.float64]) -> Estimate:
    """The mean over shoes with its standard error."""
    n = values.size
    sd = float(values.std(ddof=1)) if n > 1 else 0.0
    return Estimate(float(values.mean()), sd / math.sqrt(n))


def _ratio(top: npt.NDArray[np.float64], bottom: npt.NDArray[np.float64], per: float = 1.0) -> Estimate | None:
    """``per * Σ top / Σ bottom`` over shoes, with its standard error (the shoes as clusters, delta method)."""
    n, total = top.size, float(bottom.sum())
    if total == 0:
        return None
    ratio = float(top.sum()) / total
    spread = float(np.sum((top - ratio * bottom) ** 2)) / (n * (n - 1)) if n > 1 else 0.0
    return Estimate(per * ratio, per * math.sqrt(spread) / (total / n))


@dataclass(frozen=True, slots=True)
class OracleBet:
    """One bet's perfect-knowledge figures over the run (money per unit stake)."""

    kind: BetKind
    positive_coups: int
    coups: int
    positive_shoes: int
    shoes: int
    mean_edge: Estimate | None  # the mean EV of the bet when it is positive
    expected_per_shoe: Estimate  # the sum of the positive EVs, per shoe
    realised_per_shoe: Estimate
    expected_per_100: Estimate | None
    realised_per_100: Estimate | None

    @property
    def coup_share(self) -> float:
        return self.positive_coups / self.coups if self.coups else 0.0

    @property
    def shoe_share(self) -> float:
        return self.positive_shoes / self.shoes

    @classmethod
    def of(cls, kind: BetKind, per_shoe: npt.NDArray[np.float64], coups: npt.NDArray[np.float64]) -> OracleBet:
        """From ``per_shoe[shoe, :]`` (+EV coups, expected, realised) and the coups of each shoe."""
        positive, expected, realised = per_shoe[:, _POSITIVE], per_shoe[:, _EXPECTED], per_shoe[:, _REALISED]
        return cls(
            kind=kind,
            positive_coups=int(positive.sum()),
            coups=int(coups.sum()),
            positive_shoes=int((positive > 0).sum()),
            shoes=int(coups.size),
            mean_edge=_ratio(expected, positive),
            expected_per_shoe=_mean(expected),
            realised_per_shoe=_mean(realised),
            expected_per_100=_ratio(expected, coups, 100.0),
            realised_per_100=_ratio(realised, coups, 100.0),
        )

    def to_dict(self) -> dict[str, Any]:
        def est(e: Estimate | None) -> dict[str, Any] | None:
            return None if e is None else {"value": e.value, "std_error": e.std_error, "ci95": list(e.interval)}

        return {
            "positive_coups": self.positive_coups,
            "coup_share": self.coup_share,
            "coup_share_ci95": list(wilson_interval(self.positive_coups, self.coups)),
            "positive_shoes": self.positive_shoes,
            "shoe_share": self.shoe_share,
            "shoe_share_ci95": list(wilson_interval(self.positive_shoes, self.shoes)),
            "mean_edge": est(self.mean_edge),
            "expected_per_shoe": est(self.expected_per_shoe),
            "realised_per_shoe": est(self.realised_per_shoe),
            "expected_per_100_coups": est(self.expected_per_100),
            "realised_per_100_coups": est(self.realised_per_100),
        }


@dataclass(frozen=True, eq=False)
class OracleResult:
    """The run's figures by bet id, with what was dealt and how long it took."""

    job: OracleJob
    shoes: int
    coups: int
    bets: dict[str, OracleBet]
    seconds: float
    workers: int
    interrupted: bool = False
    #: By penetration bin: the scored coups, and for each bet its +EV coups.
    depth_coups: tuple[int, ...] = ()
    depth_positive: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, job: OracleJob, kinds: tuple[BetKind, ...], chunks: list[OracleChunk], **run: Any) -> OracleResult:
        per_shoe = np.concatenate([c.per_shoe for c in chunks]) if chunks else np.zeros((0, len(kinds), 3))
        coups = np.concatenate([c.coups for c in chunks]).astype(np.float64) if chunks else np.zeros(0)
        if coups.size == 0:
            raise InputError("no shoe was dealt", hint="let the run finish at least one chunk")
        bets = {kind.value: OracleBet.of(kind, per_shoe[:, row, :], coups) for row, kind in enumerate(kinds)}
        depth = sum((c.depth for c in chunks), np.zeros((DEPTH_BINS, len(kinds) + 1), dtype=np.int64))
        return cls(
            job=job,
            shoes=int(coups.size),
            coups=int(coups.sum()),
            bets=bets,
            depth_coups=tuple(int(n) for n in depth[:, -1]),
            depth_positive={kind.value: tuple(int(n) for n in depth[:, row]) for row, kind in enumerate(kinds)},
            **run,
        )

    def penetration(self) -> dict[str, Any]:
        """The +EV frequency by penetration: for each tenth of the shoe, the coups dealt from it and,
        per bet, the share of them at +EV (``None`` where no coup started there)."""
        shares = {
            name: [p / n if n else None for p, n in zip(positive, self.depth_coups, strict=True)]
            for name, positive in self.depth_positive.items()
        }
        return {"bins": DEPTH_BINS, "coups": list(self.depth_coups), "coup_share": shares}

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": "oracle",
            "variant": self.job.variant,
            "decks": self.job.config.decks,
            "cut_card": self.job.config.cut_card_from_end,
            "burn_seen": self.job.burn_seen,
            "seed": self.job.seed,
            "shoes": self.shoes,
            "coups": self.coups,
            "seconds": self.seconds,
            "workers": self.workers,
            "interrupted": self.interrupted,
            "bets": {name: bet.to_dict() for name, bet in self.bets.items()},
            "penetration": self.penetration(),
        }


def simulate_oracle(
    job: OracleJob,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> OracleResult:
    """Run the oracle on the runner's backends (local threads, default every core, or a Dask cluster).

    ``progress`` is called with the shoes each finished chunk adds; Ctrl-C stops the run, whose result
    then covers the chunks completed in order and says ``interrupted``.
    """
    from baccarat.sim.backends import chunk_backend, default_workers

    started = time.perf_counter()
    plan = oracle_plan(job)
    workers = workers or default_workers()
    if workers > 1 or scheduler:
        oracle_chunk(plan, 0, 0)  # load (or compile) the kernel before the threads start
    backend = chunk_backend(plan, oracle_chunk, workers, scheduler)
    sizes = [min(CHUNK_SHOES, job.shoes - i) for i in range(0, job.shoes, CHUNK_SHOES)]
    done: dict[int, OracleChunk] = {}
    interrupted = False
    try:
        pending: dict[int, Any] = {}
        upcoming = iter(enumerate(sizes))
        for index, shoes in upcoming:
            pending[index] = backend.submit(index, shoes, -1)
            if len(pending) >= backend.depth:
                break
        while pending:
            first = min(pending)
            chunk = pending.pop(first).result()
            done[first] = chunk
            if progress is not None:
                progress(int(chunk.coups.size))
            for index, shoes in upcoming:
                pending[index] = backend.submit(index, shoes, -1)
                break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        backend.close()
    ordered = [done[i] for i in range(len(done)) if i in done]
    kinds = plan.pricing.kinds
    seconds = time.perf_counter() - started
    return OracleResult.of(job, kinds, ordered, seconds=seconds, workers=backend.workers, interrupted=interrupted)
