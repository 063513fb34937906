"""A counting study of a variant's side bets: fitted and published counts, their exact indices, their win
rates by penetration, and what perfect knowledge (the oracle) wins on the same shoes.

For each bet: the exact effects of removal give a fitted count (:func:`baccarat.analysis.counting.fit_tags`)
and its betting correlation, beside the published count where there is one. The exact index of each
count comes from compositions met in dealt shoes (shoes numbered from :data:`SAMPLE_FIRST_SHOE`, apart
from the shoes the win rates are measured on). The win rates come from shoes ``1 … shoes`` of the seed,
one unit bet whenever the true count is at or above the index; the oracle deals the first
``oracle_shoes`` of those same shoes.

>>> from baccarat.bets import BetKind
>>> study = count_study(CountStudyJob(variant="ez", bets=(BetKind.DRAGON7,), shoes=20, sample_shoes=20, oracle_shoes=4, seed=2))
>>> [s.system.name for s in study.bets[0].systems]
['fitted level-3 (= Jacobson Dragon 7)', 'Jacobson Dragon 7']
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from baccarat.analysis.counting import (
    PUBLISHED,
    CountSystem,
    IndexSearch,
    betting_correlation,
    exact_index,
    fit_tags,
    linear_slope,
)
from baccarat.bets import BetKind
from baccarat.errors import InputError
from baccarat.shoe import ShoeConfig
from baccarat.sim.counting_sim import BETS, DEFAULT_BANDS, EXPECTED, REALISED, CountRun, count_plan, deal_and_count
from baccarat.sim.results import Estimate

__all__ = ["BetStudy", "CountStudy", "CountStudyJob", "SystemStudy", "count_study", "side_bets"]

#: Where the shoes of the index search start: streams far from the win-rate shoes of the same seed.
SAMPLE_FIRST_SHOE = 1_000_000_001
#: Samples kept per run of the index search.
MAX_SAMPLES = 400_000
#: True counts sampled below and above the linear index.
WINDOW_BELOW, WINDOW_ABOVE = 5.0, 4.0
#: A linear index beyond this is out of reach of any shoe: the bet's exact index is not searched.
FARTHEST_INDEX = 40.0
_MAIN_BETS = frozenset({BetKind.BANKER, BetKind.PLAYER})


def side_bets(variant: str) -> tuple[BetKind, ...]:
    """The bets a count is studied for by default: the side bets with a published count, else every side bet."""
    from baccarat.analysis.par_sheet import resolve_pricing

    _, _, kinds = resolve_pricing(variant, None)
    published = tuple(kind for kind in kinds if kind in PUBLISHED)
    return published or tuple(kind for kind in kinds if kind not in _MAIN_BETS)


@dataclass(frozen=True, slots=True, kw_only=True)
class CountStudyJob:
    """What to study: the variant's bets (default :func:`side_bets`), the shoe, levels and run sizes."""

    variant: str = "ez"
    bets: tuple[BetKind, ...] | None = None
    config: ShoeConfig = field(default_factory=ShoeConfig)
    levels: int = 3
    shoes: int = 2000
    sample_shoes: int = 400
    oracle_shoes: int = 200
    seed: int = 1
    bands: int = DEFAULT_BANDS

    def __post_init__(self) -> None:
        for name, value, low in (("shoes", self.shoes, 1), ("sample shoes", self.sample_shoes, 1)):
            if isinstance(value, bool) or not low <= value <= 10**7:
                raise InputError(f"{value!r} {name} is outside {low}–10,000,000", hint=f"give {low} to 10,000,000")
        if not 0 <= self.oracle_shoes <= self.shoes:
            raise InputError(
                f"{self.oracle_shoes} oracle shoes for {self.shoes} shoes",
                hint="the oracle deals some of the same shoes: give 0 to --shoes",
            )


def _mean(values: npt.NDArray[np.float64]) -> Estimate:
    n = values.size
    sd = float(values.std(ddof=1)) if n > 1 else 0.0
    return Estimate(float(values.mean()), sd / math.sqrt(n) if n else 0.0)


def _ratio(top: npt.NDArray[np.float64], bottom: npt.NDArray[np.float64], per: float = 100.0) -> Estimate | None:
    """``per · Σ top / Σ bottom`` over shoes, the shoes as clusters (delta method)."""
    n, total = top.size, float(bottom.sum())
    if total == 0:
        return None
    ratio = float(top.sum()) / total
    spread = float(np.sum((top - ratio * bottom) ** 2)) / (n * (n - 1)) if n > 1 else 0.0
    return Estimate(per * ratio, per * math.sqrt(spread) / (total / n))


def _est(e: Estimate | None) -> dict[str, Any] | None:
    return None if e is None else {"value": e.value, "std_error": e.std_error, "ci95": list(e.interval)}


@dataclass(frozen=True, slots=True)
class BandFigures:
    """One penetration band's figures for a count: bets, expected and realised gain per shoe and per 100 coups."""

    low: float
    high: float
    bets_per_shoe: float
    expected_per_shoe: Estimate
    realised_per_shoe: Estimate
    expected_per_100: Estimate | None
    realised_per_100: Estimate | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "penetration": [self.low, self.high],
            "bets_per_shoe": self.bets_per_shoe,
            "expected_per_shoe": _est(self.expected_per_shoe),
            "realised_per_shoe": _est(self.realised_per_shoe),
            "expected_per_100_coups": _est(self.expected_per_100),
            "realised_per_100_coups": _est(self.realised_per_100),
        }


@dataclass(frozen=True, slots=True)
class SystemStudy:
    """One count on one bet: its correlation, indices and win rates (whole shoe and by band)."""

    system: CountSystem
    correlation: float
    balance: int
    search: IndexSearch
    index_used: float | None
    whole: BandFigures
    bands: tuple[BandFigures, ...]
    expected_on_oracle_shoes: Estimate | None

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.system.to_dict(),
            "betting_correlation": self.correlation,
            "balance": self.balance,
            "index_search": self.search.to_dict(),
            "index_used": self.index_used,
            "whole_shoe": self.whole.to_dict(),
            "by_penetration": [b.to_dict() for b in self.bands],
            "expected_per_shoe_on_oracle_shoes": _est(self.expected_on_oracle_shoes),
        }


@dataclass(frozen=True, slots=True)
class BetStudy:
    """A bet's counts and the oracle's figures on the same shoes (``None`` without an oracle run)."""

    kind: BetKind
    expected_value: float
    systems: tuple[SystemStudy, ...]
    oracle_expected_per_shoe: Estimate | None
    oracle_realised_per_shoe: Estimate | None

    def best(self) -> SystemStudy:
        """The count with the highest expected gain per shoe."""
        return max(self.systems, key=lambda s: s.whole.expected_per_shoe.value)

    def to_dict(self) -> dict[str, Any]:
        return {
            "expected_value": self.expected_value,
            "systems": [s.to_dict() for s in self.systems],
            "best": self.best().system.name,
            "oracle_expected_per_shoe": _est(self.oracle_expected_per_shoe),
            "oracle_realised_per_shoe": _est(self.oracle_realised_per_shoe),
        }


@dataclass(frozen=True, slots=True)
class CountStudy:
    """The study of every bet asked for."""

    job: CountStudyJob
    bets: tuple[BetStudy, ...]
    coups_per_shoe: float

    def to_dict(self) -> dict[str, Any]:
        j = self.job
        return {
            "variant": j.variant,
            "decks": j.config.decks,
            "cut_card": j.config.cut_card_from_end,
            "levels": j.levels,
            "seed": j.seed,
            "shoes": j.shoes,
            "sample_shoes": j.sample_shoes,
            "oracle_shoes": j.oracle_shoes,
            "coups_per_shoe": self.coups_per_shoe,
            "bets": {b.kind.value: b.to_dict() for b in self.bets},
        }


def _band(run: CountRun, system: int, lo: int, hi: int, edges: tuple[float, float]) -> BandFigures:
    """Figures of bands ``lo … hi − 1`` of a run for one count."""
    cells = run.per_shoe[:, system, lo:hi, :].sum(axis=1)
    coups = run.coups[:, lo:hi].sum(axis=1).astype(np.float64)
    return BandFigures(
        low=edges[0],
        high=edges[1],
        bets_per_shoe=float(cells[:, BETS].mean()),
        expected_per_shoe=_mean(cells[:, EXPECTED]),
        realised_per_shoe=_mean(cells[:, REALISED]),
        expected_per_100=_ratio(cells[:, EXPECTED], coups),
        realised_per_100=_ratio(cells[:, REALISED], coups),
    )


def _systems(job: CountStudyJob, kind: BetKind, eor: Any, rank_counts: list[int]) -> list[CountSystem]:
    """The fitted count, and the published one (the fitted count's name says when they agree)."""
    fitted = fit_tags(eor, rank_counts, levels=job.levels)
    published = PUBLISHED.get(kind)
    if published is None:
        return [fitted]
    if fitted.tags == published.tags:
        fitted = CountSystem(f"{fitted.name} (= {published.name})", fitted.tags, None, fitted.source)
    return [fitted, published]


def _linear_index(system: CountSystem, ev: float, eor: Any, rank_counts: list[int]) -> float | None:
    slope = linear_slope(system.tags, eor, rank_counts)
    if slope <= 0:
        return None
    return -ev / slope


def _searches(job: CountStudyJob, entries: list[tuple[BetKind, CountSystem, float | None]]) -> list[IndexSearch]:
    """The exact index of every count, from one run of sample shoes (windows around the linear indices)."""
    kinds = tuple(dict.fromkeys(kind for kind, _, _ in entries))
    plan = count_plan(
        job.variant,
        kinds,
        [s for _, s, _ in entries],
        [k for k, _, _ in entries],
        [None] * len(entries),
        config=job.config,
    )
    window = [
        (-math.inf, -math.inf) if lin is None or lin > FARTHEST_INDEX else (lin - WINDOW_BELOW, lin + WINDOW_ABOVE)
        for _, _, lin in entries
    ]
    run = deal_and_count(
        plan,
        seed=job.seed,
        shoes=job.sample_shoes,
        first_shoe=SAMPLE_FIRST_SHOE,
        window=window,
        max_samples=MAX_SAMPLES,
    )
    searches = []
    for i, (_, _, lin) in enumerate(entries):
        mine = run.samples[run.samples[:, 0] == i]
        searches.append(exact_index(mine[:, 1].tolist(), mine[:, 2].tolist(), linear_index=lin))
    return searches


def _oracle(job: CountStudyJob, kinds: tuple[BetKind, ...]) -> dict[str, tuple[Estimate, Estimate]]:
    """The oracle's expected and realised gain per shoe, by bet id, on the first ``oracle_shoes`` shoes."""
    if job.oracle_shoes == 0:
        return {}
    from baccarat.sim.oracle import OracleJob, simulate_oracle

    result = simulate_oracle(
        OracleJob(seed=job.seed, shoes=job.oracle_shoes, config=job.config, variant=job.variant, bets=kinds),
        workers=1,
    )
    return {name: (bet.expected_per_shoe, bet.realised_per_shoe) for name, bet in result.bets.items()}


def _system_study(
    job: CountStudyJob, run: CountRun, i: int, search: IndexSearch, used: float | None, fit: Any
) -> SystemStudy:
    """Count ``i`` of the run: its correlation (``fit``: the bet's EoRs and the rank counts) and figures."""
    system = run.plan.systems[i]
    eor, rank_counts = fit
    edges = [b / job.bands for b in range(job.bands + 1)]
    head = run.per_shoe[: job.oracle_shoes, i, :, EXPECTED].sum(axis=1)
    return SystemStudy(
        system=system,
        correlation=betting_correlation(system.tags, eor, rank_counts),
        balance=system.balance(rank_counts),
        search=search,
        index_used=used,
        whole=_band(run, i, 0, job.bands, (0.0, 1.0)),
        bands=tuple(_band(run, i, b, b + 1, (edges[b], edges[b + 1])) for b in range(job.bands)),
        expected_on_oracle_shoes=_mean(head) if job.oracle_shoes else None,
    )


def _entries(
    job: CountStudyJob, kinds: tuple[BetKind, ...], effects: Any
) -> list[tuple[BetKind, CountSystem, float | None]]:
    """Every (bet, count, linear index) to study."""
    rank_counts = effects.composition.rank_counts()
    entries: list[tuple[BetKind, CountSystem, float | None]] = []
    for kind in kinds:
        if kind not in effects.bets:
            raise InputError(f"{job.variant} does not offer {kind.value}", hint="see baccarat variants")
        bet = effects.bets[kind]
        for system in _systems(job, kind, bet.eor, rank_counts):
            entries.append((kind, system, _linear_index(system, float(bet.expected_value), bet.eor, rank_counts)))
    return entries


def count_study(job: CountStudyJob) -> CountStudy:
    """Fit, search, simulate and compare (see the module's text)."""
    from baccarat.analysis.eor import effects_of_removal

    kinds = job.bets or side_bets(job.variant)
    effects = effects_of_removal(job.config.full_composition(), variant=job.variant)
    rank_counts = effects.composition.rank_counts()
    entries = _entries(job, kinds, effects)
    searches = _searches(job, entries)
    # a published count is played at its published index, a fitted one at the index found
    used = [
        system.index if system.index is not None else search.index
        for (_, system, _), search in zip(entries, searches, strict=True)
    ]
    used_f = [None if u is None else float(u) for u in used]
    systems, bets = [s for _, s, _ in entries], [k for k, _, _ in entries]
    plan = count_plan(job.variant, kinds, systems, bets, used_f, config=job.config, bands=job.bands)
    run = deal_and_count(plan, seed=job.seed, shoes=job.shoes)
    oracle = _oracle(job, kinds)
    studies: list[BetStudy] = []
    for kind in kinds:
        fit = (effects.bets[kind].eor, rank_counts)
        mine = tuple(_system_study(job, run, i, searches[i], used_f[i], fit) for i, k in enumerate(bets) if k is kind)
        orc = oracle.get(kind.value)
        ev = float(effects.bets[kind].expected_value)
        studies.append(BetStudy(kind, ev, mine, orc[0] if orc else None, orc[1] if orc else None))
    return CountStudy(job, tuple(studies), float(run.coups.sum()) / job.shoes)
