"""Effects of removal: how each bet's expected value moves when one card of each rank leaves the shoe.

The effect of removal (EoR) of a rank is ``EV(shoe less one card of that rank) − EV(shoe)``, exact;
the card removed is of the suit with the most cards left (which matters only for suited bets). The
countability summary asks whether a card count can turn the bet positive in practice: how widely a
perfect linear count (the EoRs themselves) spreads the bet's expected value as the shoe is dealt,
and how much of that a simple level-1 count keeps (its betting correlation).

>>> effects = effects_of_removal(8, variant="macau")
>>> banker = effects.bets[BetKind.BANKER]
>>> len(banker.eor), banker.countability.countable
(13, False)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from baccarat.analysis.exact import Shoe, feature_ways
from baccarat.analysis.par_sheet import bet_figures, resolve_pricing
from baccarat.bets import BetKind
from baccarat.cards import Card, Rank
from baccarat.composition import Composition
from baccarat.errors import InputError
from baccarat.paytables import Paytable
from baccarat.shoe import MIN_CARDS_FOR_COUP, ShoeConfig
from baccarat.variants import Variant

__all__ = ["BetEffects", "Countability", "EffectsOfRemoval", "countability", "effects_of_removal"]

#: Cards left behind the cut card by default (R4, the shoe's default): the deepest a count can see.
DEFAULT_CUT_CARDS = ShoeConfig().cut_card_from_end
#: Cards a coup uses on average (about 4.94): the spacing of coups through the shoe.
_CARDS_PER_COUP = 4.94
#: A bet counts as countable in practice when a count finds it positive on at least this share of coups.
COUNTABLE_SHARE = 0.01


@dataclass(frozen=True, slots=True)
class Countability:
    """Whether counting cards can turn a bet positive, from its effects of removal (normal approximation).

    ``sum_squared``: Σ EoR² over the thirteen ranks. ``eor_sd``: the EoRs' standard deviation over
    the cards of the shoe (σ). With ``c`` of ``N`` cards dealt, the bet's expected value on the
    remaining R = N − c cards spreads around its full-shoe value with standard deviation
    σ·N·√(c / (R·(N−1))) (a card's effect grows as N/R); ``sd_at_cut`` is that with the cut card's
    cards left. ``tags`` is the simplest count (+1 for a rank whose removal helps the
    bet by over half the largest effect, −1 the reverse) and ``betting_correlation`` the share of the
    perfect count's signal it keeps. ``positive_share`` is the share of the shoe's coups on which
    that simple count sees a positive expected value; ``countable`` means at least 1%.
    """

    sum_squared: float
    eor_sd: float
    tags: tuple[int, ...]
    betting_correlation: float
    sd_at_cut: float
    positive_share: float
    countable: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON figures."""
        return {
            "sum_squared": self.sum_squared,
            "eor_sd": self.eor_sd,
            "tags": {rank.symbol: tag for rank, tag in zip(Rank, self.tags, strict=True)},
            "betting_correlation": self.betting_correlation,
            "sd_at_cut": self.sd_at_cut,
            "positive_share": self.positive_share,
            "countable": self.countable,
        }


@dataclass(frozen=True, slots=True)
class BetEffects:
    """One bet's exact effects of removal, A…K (``None`` for a rank the shoe no longer holds)."""

    kind: BetKind
    expected_value: Fraction
    eor: tuple[Fraction | None, ...]
    countability: Countability

    def effect(self, rank: Rank) -> Fraction | None:
        """The change in expected value when one card of ``rank`` is removed."""
        return self.eor[rank - 1]

    def to_dict(self) -> dict[str, Any]:
        """JSON figures: ``expected_value``, ``eor`` by rank symbol, ``countability``."""
        return {
            "expected_value": float(self.expected_value),
            "eor": {rank.symbol: None if e is None else float(e) for rank, e in zip(Rank, self.eor, strict=True)},
            "countability": self.countability.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class EffectsOfRemoval:
    """Effects of removal of every bet of a variant or paytable, for one shoe."""

    composition: Composition
    variant: str | None
    paytable: Paytable
    cut_cards: int
    bets: dict[BetKind, BetEffects]

    @property
    def decks(self) -> int | None:
        """The deck count when the shoe is whole, unbroken decks; else ``None``."""
        counts = set(self.composition.counts)
        return counts.pop() if len(counts) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        """``{"decks", "cards", "variant", "paytable", "cut_cards", "bets": {id: {...}}}``."""
        return {
            "decks": self.decks,
            "cards": self.composition.total,
            "variant": self.variant,
            "paytable": self.paytable.name,
            "cut_cards": self.cut_cards,
            "bets": {kind.value: effects.to_dict() for kind, effects in self.bets.items()},
        }


def _normal_tail(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def countability(
    expected_value: Fraction, eor: Iterable[Fraction | None], rank_counts: Iterable[int], *, cut_cards: int
) -> Countability:
    """The countability summary of a bet from its expected value and effects of removal (see :class:`Countability`).

    >>> flat = countability(Fraction(-1, 100), [Fraction(0)] * 13, [32] * 13, cut_cards=14)
    >>> flat.eor_sd, flat.countable
    (0.0, False)
    """
    counts = list(rank_counts)
    effects = [0.0 if e is None else float(e) for e in eor]
    total = sum(counts)
    weights = [n / total for n in counts]
    mean = sum(w * e for w, e in zip(weights, effects, strict=True))
    eor_sd = math.sqrt(sum(w * (e - mean) ** 2 for w, e in zip(weights, effects, strict=True)))
    largest = max((abs(e) for e in effects), default=0.0)
    tags = tuple(0 if largest == 0 else (1 if e > largest / 2 else -1 if e < -largest / 2 else 0) for e in effects)
    tag_mean = sum(w * t for w, t in zip(weights, tags, strict=True))
    cov = sum(w * (e - mean) * (t - tag_mean) for w, e, t in zip(weights, effects, tags, strict=True))
    tag_sd = math.sqrt(sum(w * (t - tag_mean) ** 2 for w, t in zip(weights, tags, strict=True)))
    correlation = cov / (eor_sd * tag_sd) if eor_sd > 0 and tag_sd > 0 else 0.0
    ev = float(expected_value)

    def spread(dealt: float) -> float:
        # With c of N cards dealt, the remaining R = N − c cards' composition drifts by the hypergeometric
        # deviation d of the dealt cards, and a card's effect scales by N/R: sd = σ·N·√(c / (R·(N−1))).
        left = total - dealt
        return eor_sd * total * math.sqrt(dealt / (left * (total - 1))) if left > 0 and total > 1 else 0.0

    last = max(total - cut_cards, 0)
    sd_at_cut = spread(last)
    depths = [i * _CARDS_PER_COUP for i in range(int(last / _CARDS_PER_COUP) + 1)]
    shares = []
    for dealt in depths:
        seen = correlation * spread(dealt)
        shares.append((1.0 if ev > 0 else 0.0) if seen <= 0 else _normal_tail(-ev / seen))
    share = sum(shares) / len(shares)
    return Countability(
        sum_squared=sum(e * e for e in effects),
        eor_sd=eor_sd,
        tags=tags,
        betting_correlation=correlation,
        sd_at_cut=sd_at_cut,
        positive_share=share,
        countable=share >= COUNTABLE_SHARE,
    )


def effects_of_removal(
    shoe: Shoe = 8,
    *,
    variant: str | Variant | None = None,
    paytable: Paytable | str | Path | None = None,
    remove: str | Iterable[Card | Rank] | None = None,
    cut_cards: int = DEFAULT_CUT_CARDS,
) -> EffectsOfRemoval:
    """Exact effects of removal of one card of each rank on every bet of a variant (default ``macau``) or paytable.

    >>> dragon7 = effects_of_removal(8, variant="ez").bets[BetKind.DRAGON7]
    >>> dragon7.effect(Rank.EIGHT) > 0 > dragon7.effect(Rank.SEVEN)   # eights left in the shoe hurt it
    True
    """
    if isinstance(cut_cards, bool) or not isinstance(cut_cards, int) or cut_cards < 0:
        raise InputError(
            f"cut card at {cut_cards!r} cards from the end", hint="give a whole number of cards, 0 or more"
        )
    name, table, kinds = resolve_pricing(variant, paytable)
    base_dist = feature_ways(shoe, remove=remove)
    composition = base_dist.composition
    if composition.total - 1 < MIN_CARDS_FOR_COUP:
        raise InputError(
            f"a shoe of {composition.total} cards is too small to remove a card and deal a coup",
            hint=f"leave at least {MIN_CARDS_FOR_COUP + 1} cards in the shoe",
        )
    base = bet_figures(base_dist, table, kinds)
    rank_counts = composition.rank_counts()
    removed: list[dict[BetKind, Fraction] | None] = []
    for rank in Rank:
        if rank_counts[rank - 1] == 0:
            removed.append(None)
            continue
        figures = bet_figures(feature_ways(composition.remove([rank])), table, kinds)
        removed.append({kind: figures[kind].expected_value for kind in kinds})
    bets: dict[BetKind, BetEffects] = {}
    for kind in kinds:
        ev = base[kind].expected_value
        eor = tuple(None if after is None else after[kind] - ev for after in removed)
        bets[kind] = BetEffects(kind, ev, eor, countability(ev, eor, rank_counts, cut_cards=cut_cards))
    return EffectsOfRemoval(composition=composition, variant=name, paytable=table, cut_cards=cut_cards, bets=bets)
