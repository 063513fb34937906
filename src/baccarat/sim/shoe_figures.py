"""Shoe-level figures: each bet's edge over whole shoes dealt to the cut card (the cut-card effect), and how
many coups a shoe deals.

A par sheet prices the first coup of a fresh shoe. Over a whole shoe dealt to the cut card, the coups
actually dealt are not a fair sample of fresh shoes: a shoe rich in small cards deals more coups before the
cut card comes out, so the compositions its later coups meet weigh more. The *cut-card effect* of a bet is
the difference between its mean expected value per coup over the coups dealt and its fresh-shoe expected
value. Here every bet is priced exactly at every scored coup from the cards not yet seen (the oracle's
pricing, :mod:`baccarat.sim.counting_sim`), so the mean carries only the shoe-to-shoe spread of the
compositions, not the far larger noise of the coups' results (the realised mean is given too).

>>> figures = shoe_figures(ShoeFiguresJob(variant="macau", shoes=4, seed=1))
>>> figures.coups.shoes, sorted(figures.bets)[:2]
(4, ['banker', 'banker_pair'])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from baccarat.errors import InputError
from baccarat.shoe import ShoeConfig
from baccarat.sim.results import Estimate

__all__ = ["BetShoeFigures", "CoupsPerShoe", "ShoeFigures", "ShoeFiguresJob", "shoe_figures"]

#: Shoes dealt when no number is given (about 17 ms a shoe of eight decks).
DEFAULT_SHOES = 1000


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeFiguresJob:
    """The variant, the shoe (its cut card above all), the shoes to deal and the seed."""

    variant: str = "macau"
    config: ShoeConfig = field(default_factory=ShoeConfig)
    shoes: int = DEFAULT_SHOES
    seed: int = 1
    burn_seen: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.shoes, bool) or not 2 <= self.shoes <= 10**7:
            raise InputError(f"{self.shoes!r} shoes is outside 2–10,000,000", hint="give 2 to 10,000,000 shoes")


def _ratio(top: npt.NDArray[np.float64], bottom: npt.NDArray[np.float64]) -> Estimate:
    """``Σ top / Σ bottom`` over shoes with its standard error (the shoes as clusters, delta method)."""
    n, total = top.size, float(bottom.sum())
    ratio = float(top.sum()) / total
    spread = float(np.sum((top - ratio * bottom) ** 2)) / (n * (n - 1))
    return Estimate(ratio, math.sqrt(spread) / (total / n))


def _est(e: Estimate) -> dict[str, Any]:
    return {"value": e.value, "std_error": e.std_error, "ci95": list(e.interval)}


@dataclass(frozen=True, slots=True)
class BetShoeFigures:
    """One bet over whole shoes: its mean exact EV per coup dealt, the realised mean, the fresh-shoe EV."""

    fresh: float
    mean_ev: Estimate
    realised: Estimate

    @property
    def cut_card_effect(self) -> Estimate:
        """The mean EV per coup dealt less the fresh-shoe EV (a positive effect favours the player)."""
        return Estimate(self.mean_ev.value - self.fresh, self.mean_ev.std_error)

    def to_dict(self) -> dict[str, Any]:
        return {
            "fresh_expected_value": self.fresh,
            "fresh_house_edge": -self.fresh,
            "mean_expected_value_per_coup": _est(self.mean_ev),
            "house_edge_over_shoes": -self.mean_ev.value,
            "cut_card_effect": _est(self.cut_card_effect),
            "realised_per_coup": _est(self.realised),
        }


@dataclass(frozen=True, slots=True)
class CoupsPerShoe:
    """The scored coups of each shoe: their mean, standard deviation, least, most and histogram."""

    shoes: int
    mean: float
    sd: float
    least: int
    most: int
    histogram: dict[int, int]

    @classmethod
    def of(cls, coups: npt.NDArray[np.int64]) -> CoupsPerShoe:
        values, counts = np.unique(coups, return_counts=True)
        return cls(
            shoes=int(coups.size),
            mean=float(coups.mean()),
            sd=float(coups.std(ddof=1)) if coups.size > 1 else 0.0,
            least=int(coups.min()),
            most=int(coups.max()),
            histogram={int(v): int(c) for v, c in zip(values, counts, strict=True)},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "shoes": self.shoes,
            "mean": self.mean,
            "sd": self.sd,
            "min": self.least,
            "max": self.most,
            "histogram": {str(k): v for k, v in self.histogram.items()},
        }


@dataclass(frozen=True, slots=True)
class ShoeFigures:
    """The run's figures by bet id, the coups per shoe, and the bets left out (not priceable coup by coup)."""

    job: ShoeFiguresJob
    bets: dict[str, BetShoeFigures]
    coups: CoupsPerShoe
    left_out: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        j = self.job
        return {
            "variant": j.variant,
            "decks": j.config.decks,
            "cut_card": j.config.cut_card_from_end,
            "seed": j.seed,
            "shoes": j.shoes,
            "burn_seen": j.burn_seen,
            "coups_per_shoe": self.coups.to_dict(),
            "bets": {name: bet.to_dict() for name, bet in self.bets.items()},
            "left_out": list(self.left_out),
        }


def shoe_figures(job: ShoeFiguresJob) -> ShoeFigures:
    """Deal the job's shoes, price every bet at every scored coup, and sum up (one thread)."""
    from baccarat.analysis.next_coup import next_coup_pricing
    from baccarat.analysis.par_sheet import par_sheet
    from baccarat.sim.counting_sim import count_plan, deal_and_count

    menu = next_coup_pricing(job.variant)
    kinds = tuple(kind for kind in menu.kinds if kind not in menu.mixed)
    plan = count_plan(job.variant, kinds, [], [], [], config=job.config, bands=1, burn_seen=job.burn_seen)
    run = deal_and_count(plan, seed=job.seed, shoes=job.shoes, price_all=True)
    sheet = par_sheet(job.config.full_composition(), variant=job.variant)
    coups = run.coups.sum(axis=1)
    per_coup = coups.astype(np.float64)
    bets = {
        kind.value: BetShoeFigures(
            fresh=float(sheet.bets[kind].expected_value),
            mean_ev=_ratio(run.priced[:, row, 0], per_coup),
            realised=_ratio(run.priced[:, row, 1], per_coup),
        )
        for row, kind in enumerate(plan.pricing.kinds)
    }
    return ShoeFigures(job, bets, CoupsPerShoe.of(coups), tuple(kind.value for kind in menu.mixed))
