"""Card-counting systems for a bet: multi-level tags fitted to its exact effects of removal, their betting
correlation, and the true count at which the bet turns positive.

A count adds a card's *tag* to the running count (RC) when the card is seen; the true count (TC) is the
running count per deck of cards not yet seen, ``TC = 52 · RC / unseen``. A card whose removal raises the
bet's expected value gets a positive tag. The *betting correlation* of a set of tags is their correlation
with the bet's effects of removal over the cards of the shoe (each rank weighted by its frequency): 1 for
a count that tracks the bet perfectly to first order.

Under the linear model of the effects of removal (EoR), with ``d_r`` cards of rank r seen from a shoe of
``N`` and ``R`` unseen, the bet's expected value is about ``EV₀ + (N − 1)/R · Σ_r (EoR_r − m)·d_r``
(``m`` the frequency-weighted mean EoR). Regressing the EoRs on balanced tags gives the expected value's
slope in the true count, ``b = (N − 1)/52 · cov(EoR, t)/var(t)``, and the *linear index* ``−EV₀ / b``.
The exact index (:func:`exact_index`) comes instead from exact expected values of compositions met in
dealt shoes, grouped by their true count (:mod:`baccarat.sim.counting_sim`).

>>> from baccarat.analysis.eor import effects_of_removal
>>> from baccarat.bets import BetKind
>>> effects = effects_of_removal(8, variant="ez").bets[BetKind.DRAGON7]
>>> fitted = fit_tags(effects.eor, [32] * 13, levels=2)
>>> fitted.tags[7] > 0 and fitted.tags[6] < 0   # eights seen help the Dragon 7, sevens hurt it
True
>>> round(betting_correlation(PUBLISHED[BetKind.DRAGON7].tags, effects.eor, [32] * 13), 2)
0.96
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from baccarat.bets import BetKind
from baccarat.cards import Rank
from baccarat.errors import InputError

__all__ = [
    "PUBLISHED",
    "CountSystem",
    "IndexBin",
    "IndexSearch",
    "betting_correlation",
    "exact_index",
    "fit_tags",
    "linear_slope",
]

#: The most levels a fitted count may use (tags from −L to +L).
MAX_LEVELS = 6


@dataclass(frozen=True, slots=True)
class CountSystem:
    """A count: thirteen integer tags, A…K, and where it comes from.

    ``index``: the published true count at or above which to bet (``None``: none published or found).
    """

    name: str
    tags: tuple[int, ...]
    index: float | None = None
    source: str = ""

    def __post_init__(self) -> None:
        if len(self.tags) != 13 or not all(isinstance(t, int) for t in self.tags):
            raise InputError(f"a count needs 13 whole-number tags, A to K, not {self.tags!r}")

    def balance(self, rank_counts: Sequence[int]) -> int:
        """The running count after the whole shoe: 0 for a balanced count."""
        return sum(t * n for t, n in zip(self.tags, rank_counts, strict=True))

    def tag_text(self) -> str:
        """``A 0 2 0 … K 0``: the tags by rank, grouping 10 J Q K when they agree."""
        symbols = [rank.symbol for rank in Rank]
        if len(set(self.tags[9:])) == 1:
            parts = [f"{s} {t:+d}" if t else f"{s} 0" for s, t in zip(symbols[:9], self.tags[:9], strict=True)]
            return " ".join([*parts, f"T-K {self.tags[9]:+d}" if self.tags[9] else "T-K 0"])
        return " ".join(f"{s} {t:+d}" if t else f"{s} 0" for s, t in zip(symbols, self.tags, strict=True))

    def to_dict(self) -> dict[str, Any]:
        """JSON: name, tags by rank symbol, published index, source."""
        return {
            "name": self.name,
            "tags": {rank.symbol: t for rank, t in zip(Rank, self.tags, strict=True)},
            "published_index": self.index,
            "source": self.source,
        }


#: Published counts of the EZ Baccarat side bets (tags A…K; 10 J Q K share the ten's tag).
PUBLISHED: dict[BetKind, CountSystem] = {
    BetKind.DRAGON7: CountSystem(
        "Jacobson Dragon 7",
        (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0),
        4.0,
        "E. Jacobson, 'Card Counting the Dragon Side Bet in EZ Baccarat' (Wizard of Odds, 2011); "
        "index 4 as cited for it (the exact search here also finds 4)",
    ),
    BetKind.PANDA8: CountSystem(
        "Jacobson Panda 8",
        (1, 1, -2, -2, -2, -1, -1, -2, 4, 1, 1, 1, 1),
        None,
        "tags of E. Jacobson's Panda simulation in 'Co-Card Counting the Dragon and Panda Side Bets in EZ "
        "Baccarat'; no index found published with them (played at the exact index found here)",
    ),
}


def _floats(eor: Iterable[Fraction | float | None]) -> list[float]:
    return [0.0 if e is None else float(e) for e in eor]


def _weighted(tags: Sequence[float], eor: Sequence[float], counts: Sequence[int]) -> tuple[float, float, float]:
    """Frequency-weighted covariance of tags and EoRs, variance of the tags, variance of the EoRs."""
    total = sum(counts)
    if total <= 0:
        raise InputError("the shoe holds no cards", hint="give a shoe with cards")
    w = [n / total for n in counts]
    mt = sum(wi * t for wi, t in zip(w, tags, strict=True))
    me = sum(wi * e for wi, e in zip(w, eor, strict=True))
    cov = sum(wi * (t - mt) * (e - me) for wi, t, e in zip(w, tags, eor, strict=True))
    vt = sum(wi * (t - mt) ** 2 for wi, t in zip(w, tags, strict=True))
    ve = sum(wi * (e - me) ** 2 for wi, e in zip(w, eor, strict=True))
    return cov, vt, ve


def betting_correlation(
    tags: Sequence[int], eor: Iterable[Fraction | float | None], rank_counts: Sequence[int]
) -> float:
    """The correlation of ``tags`` with the effects of removal, each rank weighted by its cards in the shoe.

    >>> betting_correlation([1, -1] + [0] * 11, [0.5, -0.5] + [0.0] * 11, [4] * 13)
    1.0
    """
    cov, vt, ve = _weighted([float(t) for t in tags], _floats(eor), rank_counts)
    if vt <= 0 or ve <= 0:
        return 0.0
    return round(cov / math.sqrt(vt * ve), 12)


def linear_slope(tags: Sequence[int], eor: Iterable[Fraction | float | None], rank_counts: Sequence[int]) -> float:
    """The linear model's change in expected value per unit of true count (see the module's text)."""
    cov, vt, _ = _weighted([float(t) for t in tags], _floats(eor), rank_counts)
    return 0.0 if vt <= 0 else (sum(rank_counts) - 1) / 52 * cov / vt


def _classes(eor: Sequence[float]) -> list[list[int]]:
    """Ranks grouped by equal effect of removal (10 J Q K usually form one class): they share a tag."""
    groups: dict[float, list[int]] = {}
    for rank, e in enumerate(eor):
        groups.setdefault(e, []).append(rank)
    return list(groups.values())


def _expand(classes: list[list[int]], levels: Sequence[int]) -> tuple[int, ...]:
    tags = [0] * 13
    for ranks, level in zip(classes, levels, strict=True):
        for rank in ranks:
            tags[rank] = level
    return tuple(tags)


def _score(tags: Sequence[int], eor: Sequence[float], counts: Sequence[int], balanced: bool) -> float:
    """The correlation, or −2 for a count out of balance when balance is asked for."""
    if balanced and sum(t * n for t, n in zip(tags, counts, strict=True)) != 0:
        return -2.0
    return betting_correlation(tags, eor, counts)


def _improve(
    classes: list[list[int]], start: list[int], eor: Sequence[float], counts: Sequence[int], levels: int
) -> list[int]:
    """Pairwise moves on the class levels that keep the count balanced and raise its correlation."""
    current = list(start)
    best = _score(_expand(classes, current), eor, counts, True)
    choices = range(-levels, levels + 1)
    improved = True
    while improved:
        improved = False
        for i in range(len(classes)):
            for j in range(i, len(classes)):
                for a in choices:
                    for b in choices if j != i else (a,):
                        trial = list(current)
                        trial[i], trial[j] = a, b
                        score = _score(_expand(classes, trial), eor, counts, True)
                        if score > best + 1e-12:
                            best, current, improved = score, trial, True
    return current


def fit_tags(
    eor: Iterable[Fraction | float | None],
    rank_counts: Sequence[int],
    *,
    levels: int = 3,
    name: str | None = None,
) -> CountSystem:
    """The balanced count with tags in ``−levels … +levels`` that best correlates with ``eor``.

    The tags start as the EoRs (less their weighted mean) scaled and rounded, at the scale that
    correlates best; pairwise changes then restore balance and raise the correlation. Ranks of equal
    effect share a tag. A bet whose EoRs are all equal gets no count (all tags 0).
    """
    if isinstance(levels, bool) or not isinstance(levels, int) or not 1 <= levels <= MAX_LEVELS:
        raise InputError(f"{levels!r} levels", hint=f"give 1 to {MAX_LEVELS} (tags from −L to +L)")
    effects = _floats(eor)
    total = sum(rank_counts)
    mean = sum(n * e for n, e in zip(rank_counts, effects, strict=True)) / total
    centred = [e - mean for e in effects]
    largest = max(abs(e) for e in centred)
    label = name or f"fitted level-{levels}"
    if largest == 0:
        return CountSystem(label, (0,) * 13, None, "no effect of removal: nothing to count")
    classes = _classes(effects)
    values = [centred[ranks[0]] for ranks in classes]
    starts = [_scaled_start(classes, values, effects, rank_counts, levels)]
    if levels > 1:  # a count of fewer levels is a count of these levels too: start from it as well
        lower = fit_tags(effects, rank_counts, levels=levels - 1)
        starts.append([lower.tags[ranks[0]] for ranks in classes])
    fitted = [_expand(classes, _improve(classes, start, effects, rank_counts, levels)) for start in starts]
    tags = max(fitted, key=lambda t: _score(t, effects, rank_counts, True))
    return CountSystem(label, tags, None, "fitted to the exact effects of removal")


def _scaled_start(
    classes: list[list[int]], values: list[float], effects: list[float], counts: Sequence[int], levels: int
) -> list[int]:
    """The class levels of the scaled, rounded EoRs, at the scale (of 400 tried) that correlates best."""
    largest = max(abs(v) for v in values)
    start: list[int] = [0] * len(classes)
    best = -3.0
    for step in range(1, 401):
        scale = levels / largest * step / 200
        trial = [max(-levels, min(levels, round(v * scale))) for v in values]
        score = betting_correlation(_expand(classes, trial), effects, counts)
        if score > best:
            best, start = score, trial
    return start


@dataclass(frozen=True, slots=True)
class IndexBin:
    """Exact expected values of sampled compositions whose true count lies in ``[low, low + 1)``."""

    low: int
    samples: int
    mean_ev: float
    std_error: float

    def to_dict(self) -> dict[str, Any]:
        return {"true_count": self.low, "samples": self.samples, "mean_ev": self.mean_ev, "std_error": self.std_error}


@dataclass(frozen=True, slots=True)
class IndexSearch:
    """Where a count's bet turns positive. ``crossing``: the true count where a straight line fitted to the
    exact EVs of the samples near it crosses zero; ``index``: the whole true count to bet at (the crossing
    rounded up; ``None``: no crossing within the sampled counts); ``bins``: the samples' mean EV by true count."""

    index: int | None
    crossing: float | None
    linear_index: float | None
    bins: tuple[IndexBin, ...]

    def bin(self, low: int) -> IndexBin | None:
        """The bin starting at true count ``low``, if sampled."""
        return next((b for b in self.bins if b.low == low), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "crossing": self.crossing,
            "linear_index": self.linear_index,
            "bins": [b.to_dict() for b in self.bins],
        }


#: Fewest samples for a bin's mean to count in the index search.
MIN_BIN_SAMPLES = 30


def _bins(true_counts: Sequence[float], evs: Sequence[float]) -> list[IndexBin]:
    groups: dict[int, list[float]] = {}
    for tc, ev in zip(true_counts, evs, strict=True):
        groups.setdefault(math.floor(tc), []).append(ev)
    bins = []
    for low in sorted(groups):
        values = groups[low]
        if len(values) < MIN_BIN_SAMPLES:
            continue
        mean = sum(values) / len(values)
        var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        bins.append(IndexBin(low, len(values), mean, math.sqrt(var / len(values))))
    return bins


#: True counts either side of the first positive bin that the line of :func:`exact_index` is fitted to.
FIT_SPAN = 3


def exact_index(
    true_counts: Sequence[float], evs: Sequence[float], *, linear_index: float | None = None
) -> IndexSearch:
    """The index from exact EVs of sampled compositions and their true counts.

    The first positive bin is the lowest whole true count T whose bin ``[T, T + 1)`` has a positive mean
    EV, every sampled bin above it too (bins of fewer than :data:`MIN_BIN_SAMPLES` are left out). A
    least-squares line through the samples within :data:`FIT_SPAN` of it gives the crossing, and the
    index is the crossing rounded up: bet at a true count at or above it.

    >>> tcs = [t / 10 for t in range(0, 60)] * 10
    >>> search = exact_index(tcs, [0.01 * (t - 2.5) for t in tcs])
    >>> search.index, round(search.crossing, 6), [b.low for b in search.bins]
    (3, 2.5, [0, 1, 2, 3, 4, 5])
    """
    bins = _bins(true_counts, evs)
    first = None
    for b in reversed(bins):
        if b.mean_ev <= 0:
            break
        first = b.low
    if first is None:
        return IndexSearch(None, None, linear_index, tuple(bins))
    near = [(t, e) for t, e in zip(true_counts, evs, strict=True) if abs(t - first) <= FIT_SPAN]
    n = len(near)
    mt = sum(t for t, _ in near) / n
    me = sum(e for _, e in near) / n
    stt = sum((t - mt) ** 2 for t, _ in near)
    slope = sum((t - mt) * (e - me) for t, e in near) / stt if stt > 0 else 0.0
    if slope <= 0:
        return IndexSearch(first, None, linear_index, tuple(bins))
    crossing = mt - me / slope
    return IndexSearch(math.ceil(crossing), crossing, linear_index, tuple(bins))
