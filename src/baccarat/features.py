"""The outcome features of a coup that bets are settled on.

Every bet of every paytable reads only these features, so the same settlement code prices a bet at
a table (from a :class:`~baccarat.coup.CoupResult`), in the exact analyser (from a distribution
of features over every deal) and in the simulator (from features recorded by a compiled kernel).

>>> from baccarat.cards import parse_cards
>>> from baccarat.coup import deal_coup
>>> f = CoupFeatures.of(deal_coup(parse_cards("AS 2H 3D KC 4S 8D")))
>>> f.player_total, f.banker_total, f.winner.value, f.cards, f.banker_face, f.player_ace
(8, 0, 'player', 6, True, True)
>>> CoupFeatures.decode(f.encode()) == f
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from baccarat.coup import CoupResult, Hand, Side, Winner

__all__ = ["FEATURE_KEYS", "CoupFeatures"]


@dataclass(frozen=True, slots=True)
class CoupFeatures:
    """What a coup looks like to a bet: totals, hand sizes, pairs and the letter-bet cards.

    The integer encoding (:meth:`encode`) is a mixed-radix number, least significant first:
    player_total (10), banker_total (10), player_cards - 2 (2), banker_cards - 2 (2), then one bit each
    for player_pair, banker_pair, player_perfect_pair, banker_perfect_pair, player_ace, player_face,
    banker_ace, banker_face. Compiled kernels use the same layout.
    """

    player_total: int
    banker_total: int
    player_cards: int = 2
    banker_cards: int = 2
    player_pair: bool = False
    banker_pair: bool = False
    player_perfect_pair: bool = False
    banker_perfect_pair: bool = False
    player_ace: bool = False
    player_face: bool = False
    banker_ace: bool = False
    banker_face: bool = False

    @classmethod
    def of(cls, result: CoupResult) -> CoupFeatures:
        """The features of a dealt coup."""
        p, b = result.player, result.banker
        return cls(
            player_total=p.total,
            banker_total=b.total,
            player_cards=p.size,
            banker_cards=b.size,
            player_pair=p.is_pair,
            banker_pair=b.is_pair,
            player_perfect_pair=p.is_perfect_pair,
            banker_perfect_pair=b.is_perfect_pair,
            player_ace=_has_ace(p),
            player_face=_has_face(p),
            banker_ace=_has_ace(b),
            banker_face=_has_face(b),
        )

    # --- derived ------------------------------------------------------------------------------

    @property
    def winner(self) -> Winner:
        if self.player_total > self.banker_total:
            return Winner.PLAYER
        return Winner.BANKER if self.banker_total > self.player_total else Winner.TIE

    @property
    def cards(self) -> int:
        """Cards dealt in the coup, 4 to 6."""
        return self.player_cards + self.banker_cards

    @property
    def player_natural(self) -> bool:
        return self.player_cards == 2 and self.player_total >= 8

    @property
    def banker_natural(self) -> bool:
        return self.banker_cards == 2 and self.banker_total >= 8

    @property
    def natural(self) -> bool:
        return self.player_natural or self.banker_natural

    def total(self, side: Side) -> int:
        return self.player_total if side is Side.PLAYER else self.banker_total

    def hand_cards(self, side: Side) -> int:
        return self.player_cards if side is Side.PLAYER else self.banker_cards

    def is_natural(self, side: Side) -> bool:
        return self.player_natural if side is Side.PLAYER else self.banker_natural

    # --- encoding -----------------------------------------------------------------------------

    def encode(self) -> int:
        """The feature key, ``0 <= key < FEATURE_KEYS``."""
        key = self.player_total + 10 * self.banker_total
        key += 100 * (self.player_cards - 2) + 200 * (self.banker_cards - 2)
        bits = (
            self.player_pair,
            self.banker_pair,
            self.player_perfect_pair,
            self.banker_perfect_pair,
            self.player_ace,
            self.player_face,
            self.banker_ace,
            self.banker_face,
        )
        for i, bit in enumerate(bits):
            key += 400 * (int(bit) << i)
        return key

    @classmethod
    def decode(cls, key: int) -> CoupFeatures:
        """Inverse of :meth:`encode`."""
        if not 0 <= key < FEATURE_KEYS:
            raise ValueError(f"feature key {key} outside 0..{FEATURE_KEYS - 1}")
        bits = key // 400
        rest = key % 400
        flags = [bool(bits >> i & 1) for i in range(8)]
        return cls(
            rest % 10,
            rest // 10 % 10,
            2 + rest // 100 % 2,
            2 + rest // 200,
            *flags,
        )

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


FEATURE_KEYS = 400 * 256


def _has_ace(hand: Hand) -> bool:
    return any(card.rank == 1 for card in hand.cards)


def _has_face(hand: Hand) -> bool:
    return any(card.rank.is_face for card in hand.cards)
