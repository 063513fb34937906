"""Exact counts of every feature key over every ordered six-card deal from a shoe.

The convention of the published tables: every coup counts as an ordered deal of six cards from the
shoe, unused cards included, so the total for a shoe of N cards is N·(N−1)·…·(N−5).

>>> dist = feature_ways(8)
>>> dist.total_ways
4998398275503360
>>> dist.total_ways == 416 * 415 * 414 * 413 * 412 * 411 == sum(dist.outcome_ways().values())
True
>>> dist.outcome_ways()[Winner.TIE]
475627426473216
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from baccarat.analysis._kernel import feature_ways_kernel, price_kernel
from baccarat.cards import Card, Rank
from baccarat.composition import Composition, check_decks, parse_removal
from baccarat.coup import Winner, banker_draws, player_draws
from baccarat.errors import InputError
from baccarat.features import FEATURE_KEYS, CoupFeatures, split_key
from baccarat.shoe import MIN_CARDS_FOR_COUP

__all__ = [
    "INT64_MAX",
    "FeatureDistribution",
    "Natural",
    "Shoe",
    "drawing_tables",
    "falling_factorial",
    "feature_ways",
    "resolve_composition",
]

INT64_MAX = int(np.iinfo(np.int64).max)

#: What the analysers accept as a shoe: a deck count (1–12) or an explicit composition.
Shoe = int | Composition


class Natural(StrEnum):
    """Which hands hold a natural (R12): the labels of the natural distribution."""

    NONE = "none"
    PLAYER = "player"
    BANKER = "banker"
    BOTH = "both"


def falling_factorial(n: int, k: int) -> int:
    """``n·(n−1)·…·(n−k+1)``: ordered ways to deal ``k`` cards from ``n``.

    >>> falling_factorial(416, 6)
    4998398275503360
    """
    result = 1
    for i in range(k):
        result *= n - i
    return result


@cache
def drawing_tables() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The tableau as arrays for the compiled kernels, tabulated from :mod:`baccarat.coup` itself.

    Returns ``player[p, b]`` (Player draws on two-card totals p, b) and ``banker[p, b, t]`` (Banker
    draws given Player's third-card point t, or t = 10 when Player stood). Read-only.

    >>> player, banker = drawing_tables()
    >>> int(player[5, 3]), int(player[6, 3]), int(banker[0, 3, 8]), int(banker[0, 3, 9]), int(banker[7, 5, 10])
    (1, 0, 0, 1, 1)
    """
    player = np.zeros((10, 10), dtype=np.uint8)
    banker = np.zeros((10, 10, 11), dtype=np.uint8)
    for p in range(10):
        for b in range(10):
            player[p, b] = player_draws(p, b)
            for third in range(11):
                banker[p, b, third] = banker_draws(b, None if third == 10 else third, player_total=p)
    player.setflags(write=False)
    banker.setflags(write=False)
    return player, banker


def resolve_composition(shoe: Shoe, *, remove: str | Iterable[Card | Rank] | None = None) -> Composition:
    """The composition to analyse: decks (1–12) or a composition, less the cards in ``remove``.

    Refuses a shoe that cannot deal a coup (fewer than six cards) and one too large for exact
    64-bit counts.

    >>> resolve_composition(8, remove="5S 5H K").total
    413
    >>> resolve_composition(1, remove="AS AS")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: cannot remove AS: the shoe holds no more of it (remove only cards the shoe still holds)
    """
    if isinstance(shoe, Composition):
        composition = shoe
    elif isinstance(shoe, int) and not isinstance(shoe, bool):
        composition = Composition.from_decks(check_decks(shoe))
    else:
        raise InputError(f"cannot analyse {shoe!r}", hint="give a number of decks (1–12) or a Composition")
    if remove is not None:
        items = parse_removal(remove) if isinstance(remove, str) else list(remove)
        composition = composition.remove(items)
    total = composition.total
    if total < MIN_CARDS_FOR_COUP:
        raise InputError(
            f"a shoe of {total} cards is too small to deal a coup",
            hint=f"leave at least {MIN_CARDS_FOR_COUP} cards in the shoe (a coup can take six)",
        )
    if falling_factorial(total, 6) > INT64_MAX:
        raise InputError(
            f"a shoe of {total} cards is too large for exact counts",
            hint="exact 64-bit counts allow at most about 1,400 cards (12 decks are 624)",
        )
    return composition


@dataclass(frozen=True, slots=True, eq=False)
class FeatureDistribution:
    """The exact number of ordered six-card deals giving each feature key (see :mod:`baccarat.features`).

    ``ways`` is a read-only int64 array of length ``FEATURE_KEYS``; it sums to ``total_ways``.
    ``keys`` lists the feature keys that occur (non-zero ways), in increasing order.
    """

    composition: Composition
    ways: npt.NDArray[np.int64] = field(repr=False)
    total_ways: int
    keys: npt.NDArray[np.int64] = field(init=False, repr=False)
    _summary: npt.NDArray[np.int64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.ways.shape != (FEATURE_KEYS,) or self.ways.dtype != np.int64:
            raise InputError("feature ways need an int64 array of FEATURE_KEYS counts")
        keys = np.flatnonzero(self.ways).astype(np.int64)
        keys.setflags(write=False)
        summary = np.empty((3, _SUMMARY_COLUMNS), dtype=np.int64)
        price_kernel(_summary_index(), keys, self.ways, summary)
        summary.setflags(write=False)
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "_summary", summary)

    def __getitem__(self, features: CoupFeatures) -> int:
        """Ways to deal a coup with exactly these features."""
        return int(self.ways[features.encode()])

    @property
    def decks(self) -> int | None:
        """The deck count when the shoe is whole decks, else ``None``."""
        counts = set(self.composition.counts)
        return counts.pop() if len(counts) == 1 else None

    def items(self) -> list[tuple[CoupFeatures, int]]:
        """Every feature combination that can occur, with its ways."""
        return [(CoupFeatures.decode(int(key)), int(self.ways[key])) for key in self.keys]

    def ways_where(self, mask: npt.NDArray[np.bool_]) -> int:
        """Exact sum of ways over the keys where ``mask`` (length FEATURE_KEYS) holds."""
        return int(self.ways[mask].sum(dtype=np.int64))

    def probability_where(self, mask: npt.NDArray[np.bool_]) -> Fraction:
        """Exact probability of the keys where ``mask`` holds."""
        return Fraction(self.ways_where(mask), self.total_ways)

    def outcome_ways(self) -> dict[Winner, int]:
        """Ways for Banker, Player and Tie (R17)."""
        return {winner: int(self._summary[0, 2 + i]) for i, winner in enumerate(_WINNERS)}

    def natural_ways(self) -> dict[Natural, int]:
        """Ways by which hands hold a natural: ``none``, ``player``, ``banker``, ``both`` (R12)."""
        return {label: int(self._summary[1, 2 + i]) for i, label in enumerate(Natural)}

    def cards_ways(self) -> dict[int, int]:
        """Ways by the number of cards dealt in the coup (4, 5 or 6)."""
        return {cards: int(self._summary[2, 2 + i]) for i, cards in enumerate((4, 5, 6))}


_WINNERS = (Winner.BANKER, Winner.PLAYER, Winner.TIE)
_SUMMARY_COLUMNS = 2 + 4


@cache
def _summary_index() -> npt.NDArray[np.int8]:
    """Rows: the winner (Banker, Player, Tie), who holds a natural (none, Player, Banker, both), cards dealt − 4."""
    player_total, banker_total, player_cards, banker_cards, _ = split_key(np.arange(FEATURE_KEYS, dtype=np.int64))
    winner = np.where(banker_total > player_total, 0, np.where(player_total > banker_total, 1, 2))
    player_natural = (player_cards == 2) & (player_total >= 8)
    banker_natural = (banker_cards == 2) & (banker_total >= 8)
    natural = player_natural.astype(np.int64) + 2 * banker_natural.astype(np.int64)
    index = np.ascontiguousarray(np.stack([winner, natural, player_cards + banker_cards - 4], axis=1), dtype=np.int8)
    index.setflags(write=False)
    return index


def _rank_tables(composition: Composition) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The kernel's per-rank counts, exact (suits enter only here, through the same-suit pairs).

    ``ranks[0, r]``: cards of rank r; ``ranks[1, r]``: ordered ways to deal four of them as two same-suit
    pairs (Player's pair of suit s, then Banker's pair of s again or of another suit).
    ``tables[0, r, j]``: ordered ways to deal j cards of rank r; ``tables[1, r, j]``: the same with the
    first two a same-suit pair.
    """
    ranks = np.zeros((2, 13), dtype=np.int64)
    tables = np.zeros((2, 13, 7), dtype=np.int64)
    for r in range(13):
        suits = composition.counts[4 * r : 4 * r + 4]
        n = sum(suits)
        same = sum(c * (c - 1) for c in suits)
        ranks[0, r] = n
        ranks[1, r] = sum(c * (c - 1) * (same - c * (c - 1) + (c - 2) * (c - 3)) for c in suits)
        for j in range(7):
            tables[0, r, j] = falling_factorial(n, j)
            tables[1, r, j] = same * falling_factorial(n - 2, j - 2) if j >= 2 else 0
    return ranks, tables


def feature_ways(shoe: Shoe, *, remove: str | Iterable[Card | Rank] | None = None) -> FeatureDistribution:
    """Count every ordered six-card deal of the shoe by feature key, exactly (compiled kernel).

    ``shoe`` is a deck count (1–12) or a :class:`~baccarat.composition.Composition`; ``remove``
    takes cards out first (``"5S 5H K"``: a bare rank removes one of the suit with most left).

    >>> one = feature_ways(1)
    >>> one.total_ways == 52 * 51 * 50 * 49 * 48 * 47
    True
    >>> feature_ways(8, remove="AS").total_ways == 415 * 414 * 413 * 412 * 411 * 410
    True
    """
    composition = resolve_composition(shoe, remove=remove)
    ranks, tables = _rank_tables(composition)
    player, banker = drawing_tables()
    ways = np.empty(FEATURE_KEYS, dtype=np.int64)
    feature_ways_kernel(ranks, tables, player, banker, np.empty((3, 13), dtype=np.int64), ways)
    ways.setflags(write=False)
    total = falling_factorial(composition.total, 6)
    return FeatureDistribution(composition=composition, ways=ways, total_ways=total)
