"""Par sheets: every bet of a paytable priced exactly through the tables' own settlement rules.

A bet's probability of each result is the sum of ways over the feature keys that
:func:`baccarat.settlement.outcome_table` maps to that result, so the analyser holds no second copy of
any bet rule. Pricing is a dot product of the (fixed, cached) outcome table with the feature counts.

>>> sheet = par_sheet(8)
>>> sheet.outcomes[Winner.BANKER].ways
2292252566437888
>>> banker = sheet.bets[BetKind.BANKER]
>>> round(float(banker.expected_value), 6), round(float(sheet.bets[BetKind.TIE].expected_value), 6)
(-0.010579, -0.143596)
>>> sheet.bets[BetKind.PLAYER_PAIR].expected_value
Fraction(-43, 415)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from baccarat.analysis._kernel import price_kernel
from baccarat.analysis.exact import FeatureDistribution, Natural, Shoe, feature_ways
from baccarat.bets import BetKind
from baccarat.cards import Card, Rank
from baccarat.composition import Composition
from baccarat.coup import Winner
from baccarat.errors import InputError
from baccarat.features import FEATURE_KEYS
from baccarat.paytables import Level, Paytable, format_pays, load_paytable
from baccarat.settlement import LOSE, PUSH, outcome_table
from baccarat.variants import Variant, get_variant

__all__ = [
    "BetFigures",
    "OutcomeFigures",
    "ParSheet",
    "ResultFigures",
    "ResultKind",
    "bet_figures",
    "figures_of_sums",
    "par_sheet",
    "resolve_pricing",
]


class ResultKind(StrEnum):
    """How a bet ends on a coup: a paying level, its stake returned, or lost."""

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


@dataclass(frozen=True, slots=True)
class ResultFigures:
    """One way a bet can end, with its net result per unit stake and its exact ways.

    ``name`` is the paying level's name (``win``, ``win by 9`` …), ``push`` or ``lose``.
    """

    result: ResultKind
    name: str
    pays: Fraction
    ways: int
    total_ways: int

    @property
    def probability(self) -> Fraction:
        """Exact probability of this result."""
        return Fraction(self.ways, self.total_ways)

    def to_dict(self) -> dict[str, Any]:
        """``{"result", "name", "pays", "ways", "probability"}`` (``pays`` net per unit: −1 for a loss)."""
        return {
            "result": self.result.value,
            "name": self.name,
            "pays": float(self.pays),
            "ways": self.ways,
            "probability": float(self.probability),
        }


@dataclass(frozen=True, slots=True)
class BetFigures:
    """The exact figures of one bet: each result's ways, the expected value, house edge and deviation.

    ``results`` lists the paying levels in paytable order, then ``push`` (when the bet can push),
    then ``lose``. Values are per unit stake, net (a Banker win at 5% commission is +0.95).
    Build it with :meth:`of`, which computes the moments exactly.
    """

    kind: BetKind
    levels: tuple[Level, ...]
    results: tuple[ResultFigures, ...]
    total_ways: int
    win_ways: int
    push_ways: int
    lose_ways: int
    expected_value: Fraction
    variance: Fraction

    @classmethod
    def of(cls, kind: BetKind, levels: tuple[Level, ...], results: tuple[ResultFigures, ...]) -> BetFigures:
        """The figures of a bet from its results (their ways must sum to the total)."""
        total = results[0].total_ways
        if sum(r.ways for r in results) != total:
            raise InputError(f"the results of {kind.value} do not cover every deal", hint="give every result")
        # exact moments with one common denominator: EV = A / (D·T), E[X²] = B / (D²·T)
        den = math.lcm(*(r.pays.denominator for r in results))
        scaled = [(r.pays.numerator * (den // r.pays.denominator), r.ways) for r in results]
        first = sum(p * w for p, w in scaled)
        second = sum(p * p * w for p, w in scaled)
        return cls(
            kind=kind,
            levels=levels,
            results=results,
            total_ways=total,
            win_ways=sum(r.ways for r in results if r.result is ResultKind.WIN),
            push_ways=sum(r.ways for r in results if r.result is ResultKind.PUSH),
            lose_ways=sum(r.ways for r in results if r.result is ResultKind.LOSE),
            expected_value=Fraction(first, den * total),
            variance=Fraction(second * total - first * first, den * den * total * total),
        )

    @property
    def probability_win(self) -> Fraction:
        """Probability that the bet wins (any paying level)."""
        return Fraction(self.win_ways, self.total_ways)

    @property
    def probability_push(self) -> Fraction:
        """Probability that the stake is returned."""
        return Fraction(self.push_ways, self.total_ways)

    @property
    def probability_lose(self) -> Fraction:
        """Probability that the stake is lost."""
        return Fraction(self.lose_ways, self.total_ways)

    @property
    def house_edge(self) -> Fraction:
        """The house edge per coup the bet is in action (pushes included): ``−expected_value``."""
        return -self.expected_value

    @property
    def house_edge_resolved(self) -> Fraction:
        """The house edge per resolved bet (pushes excluded); equal to :attr:`house_edge` for a bet that never pushes."""
        return Fraction(-self.expected_value * self.total_ways, self.total_ways - self.push_ways)

    @property
    def std_dev(self) -> float:
        """Standard deviation of the net result per unit stake."""
        return math.sqrt(self.variance)

    @property
    def pays(self) -> Fraction:
        """The headline payout: the level without conditions (the plain "to 1"), else the first level."""
        plain = [level for level in self.levels if not level.when.items()]
        return (plain or list(self.levels))[0].pays

    def to_dict(self) -> dict[str, Any]:
        """JSON figures (``baccarat odds --json``, a stable interface): ``pays``, ``probability_win``, ``expected_value``, ``house_edge``, ``std_dev`` and more."""
        return {
            "name": self.kind.english,
            "name_zh": self.kind.chinese,
            "pays": float(self.pays),
            "pays_text": format_pays(self.pays),
            "probability_win": self.win_ways / self.total_ways,
            "probability_push": self.push_ways / self.total_ways,
            "probability_lose": self.lose_ways / self.total_ways,
            "expected_value": float(self.expected_value),
            "expected_value_exact": str(self.expected_value),
            "house_edge": float(self.house_edge),
            "house_edge_resolved": float(self.house_edge_resolved),
            "variance": float(self.variance),
            "std_dev": self.std_dev,
            "results": [r.to_dict() for r in self.results],
        }


@dataclass(frozen=True, slots=True)
class OutcomeFigures:
    """Ways and probability of one coup result (Banker, Player, Tie)."""

    winner: Winner
    ways: int
    total_ways: int

    @property
    def probability(self) -> Fraction:
        """Exact probability."""
        return Fraction(self.ways, self.total_ways)

    def to_dict(self) -> dict[str, Any]:
        """``{"ways", "probability"}``."""
        return {"ways": self.ways, "probability": float(self.probability)}


@dataclass(frozen=True, slots=True)
class ParSheet:
    """A par sheet: the coup's outcomes, every bet's figures, naturals and cards dealt, for one shoe.

    ``naturals`` maps ``none`` / ``player`` / ``banker`` / ``both`` to ways; ``cards`` maps 4, 5, 6 to ways.
    """

    composition: Composition
    paytable: Paytable
    variant: str | None
    total_ways: int
    outcomes: dict[Winner, OutcomeFigures]
    bets: dict[BetKind, BetFigures]
    naturals: dict[Natural, int]
    cards: dict[int, int]

    @property
    def decks(self) -> int | None:
        """The deck count when the shoe is whole, unbroken decks; else ``None``."""
        counts = set(self.composition.counts)
        return counts.pop() if len(counts) == 1 else None

    @property
    def cards_in_shoe(self) -> int:
        """Cards in the analysed shoe."""
        return self.composition.total

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``baccarat odds --json`` (a stable interface): ``decks``, ``total_ways``, ``outcomes``, ``bets``, and more."""
        return {
            "decks": self.decks,
            "cards": self.cards_in_shoe,
            "variant": self.variant,
            "paytable": self.paytable.name,
            "paytable_source": self.paytable.source,
            "total_ways": self.total_ways,
            "outcomes": {winner.value: figures.to_dict() for winner, figures in self.outcomes.items()},
            "bets": {kind.value: figures.to_dict() for kind, figures in self.bets.items()},
            "naturals": {
                label.value: {"ways": ways, "probability": float(Fraction(ways, self.total_ways))}
                for label, ways in self.naturals.items()
            },
            "cards_dealt": {
                str(n): {"ways": ways, "probability": float(Fraction(ways, self.total_ways))}
                for n, ways in self.cards.items()
            },
        }


# --- pricing ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class _Pricing:
    kinds: tuple[BetKind, ...]
    levels: tuple[tuple[Level, ...], ...]
    index: npt.NDArray[np.int8]  # (FEATURE_KEYS, bets): key-major for the pricing kernel
    columns: int


@cache
def _pricing(paytable: Paytable, kinds: tuple[BetKind, ...]) -> _Pricing:
    table = outcome_table(paytable)
    index = np.empty((FEATURE_KEYS, len(kinds)), dtype=np.int8)
    for row, kind in enumerate(kinds):
        index[:, row] = table.index[kind]
    levels = tuple(table.levels[kind] for kind in kinds)
    columns = 2 + max((len(lv) for lv in levels), default=0)
    index.setflags(write=False)
    return _Pricing(kinds, levels, index, columns)


def _price(dist: FeatureDistribution, pricing: _Pricing) -> npt.NDArray[np.int64]:
    out = np.empty((len(pricing.kinds), pricing.columns), dtype=np.int64)
    price_kernel(pricing.index, dist.keys, dist.ways, out)
    return out


def bet_figures(
    dist: FeatureDistribution, paytable: Paytable, kinds: Iterable[BetKind] | None = None
) -> dict[BetKind, BetFigures]:
    """Price bets of a paytable on a feature distribution (all the paytable's bets unless ``kinds`` is given).

    >>> from baccarat.paytables import builtin_paytable
    >>> figures = bet_figures(feature_ways(8), builtin_paytable("ez"))
    >>> figures[BetKind.DRAGON7].probability_win > 0, figures[BetKind.BANKER].probability_push > 0
    (True, True)
    """
    chosen = paytable.kinds if kinds is None else tuple(kinds)
    for kind in chosen:
        paytable.terms(kind)  # refuses a bet the paytable does not pay
    pricing = _pricing(paytable, chosen)
    return figures_of_sums(pricing.kinds, pricing.levels, _price(dist, pricing), dist.total_ways)


def figures_of_sums(
    kinds: tuple[BetKind, ...], levels_of: tuple[tuple[Level, ...], ...], sums: npt.NDArray[np.int64], total: int
) -> dict[BetKind, BetFigures]:
    """Bets' figures from their ways by result (``sums[row]``: push, lose, then each level, as ``price_kernel``)."""
    figures: dict[BetKind, BetFigures] = {}
    for row, (kind, levels) in enumerate(zip(kinds, levels_of, strict=True)):
        results = [
            ResultFigures(ResultKind.WIN, level.name, level.pays, int(sums[row, 2 + i]), total)
            for i, level in enumerate(levels)
        ]
        push = int(sums[row, PUSH + 2])
        if push:
            results.append(ResultFigures(ResultKind.PUSH, "push", Fraction(0), push, total))
        results.append(ResultFigures(ResultKind.LOSE, "lose", Fraction(-1), int(sums[row, LOSE + 2]), total))
        figures[kind] = BetFigures.of(kind, levels, tuple(results))
    return figures


def resolve_pricing(
    variant: str | Variant | None = None, paytable: Paytable | str | Path | None = None
) -> tuple[str | None, Paytable, tuple[BetKind, ...]]:
    """The variant name, paytable and bets to price.

    A paytable (a :class:`Paytable` or the path of a TOML file) prices all of its bets; otherwise the
    variant's (default ``macau``) paytable prices the variant's menu.

    >>> name, table, kinds = resolve_pricing("standard")
    >>> name, table.name, len(kinds)
    ('standard', 'standard', 13)
    """
    if paytable is not None:
        table = paytable if isinstance(paytable, Paytable) else load_paytable(paytable)
        name = variant.name if isinstance(variant, Variant) else variant
        return name, table, table.kinds
    chosen = variant if isinstance(variant, Variant) else get_variant(variant or "macau")
    return chosen.name, chosen.paytable, chosen.bets


def par_sheet(
    shoe: Shoe | FeatureDistribution = 8,
    *,
    variant: str | Variant | None = None,
    paytable: Paytable | str | Path | None = None,
    remove: str | Iterable[Card | Rank] | None = None,
) -> ParSheet:
    """The exact par sheet of a variant (default ``macau``) or paytable, for a shoe.

    ``shoe`` is a deck count (1–12), a :class:`~baccarat.composition.Composition` (a partly dealt shoe)
    or an already computed :class:`FeatureDistribution`; ``remove`` takes cards out first.

    >>> sheet = par_sheet(8, variant="no_commission")
    >>> super6 = sheet.bets[BetKind.SUPER6]
    >>> 0 < super6.probability_win < sheet.outcomes[Winner.BANKER].probability, super6.levels[0].pays
    (True, Fraction(12, 1))
    >>> par_sheet(8, variant="nope")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: unknown variant 'nope' (variants: macau, standard, no_commission, western, ez)
    """
    name, table, kinds = resolve_pricing(variant, paytable)
    if isinstance(shoe, FeatureDistribution):
        if remove is not None:
            raise InputError("cannot remove cards from a computed distribution", hint="pass the shoe instead")
        dist = shoe
    else:
        dist = feature_ways(shoe, remove=remove)
    total = dist.total_ways
    outcomes = {winner: OutcomeFigures(winner, ways, total) for winner, ways in dist.outcome_ways().items()}
    naturals = dist.natural_ways()
    return ParSheet(
        composition=dist.composition,
        paytable=table,
        variant=name,
        total_ways=total,
        outcomes=outcomes,
        bets=bet_figures(dist, table, kinds),
        naturals={label: naturals[label] for label in Natural},
        cards=dist.cards_ways(),
    )
