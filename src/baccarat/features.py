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
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from baccarat.coup import CoupResult, Hand, Side, Winner

__all__ = [
    "FEATURE_KEYS",
    "FLAG_FIELDS",
    "KEY_BANKER_ACE",
    "KEY_BANKER_FACE",
    "KEY_BANKER_PAIR",
    "KEY_BANKER_PERFECT_PAIR",
    "KEY_BANKER_THIRD_CARD",
    "KEY_BANKER_TOTAL",
    "KEY_PLAYER_ACE",
    "KEY_PLAYER_FACE",
    "KEY_PLAYER_PAIR",
    "KEY_PLAYER_PERFECT_PAIR",
    "KEY_PLAYER_THIRD_CARD",
    "KEY_PLAYER_TOTAL",
    "CoupFeatures",
    "split_key",
]

# --- the feature key ---------------------------------------------------------------------------
# The one definition of the key's layout: a mixed-radix number, each field's place value below,
# least significant first. Plain ints, so that the compiled kernels (:mod:`baccarat.sim.kernel`,
# :mod:`baccarat.analysis._kernel`) read them as compile-time constants. Their on-disk cache keeps
# the values they were compiled with: after changing the layout, delete the cached machine code
# (``__pycache__/*.nbi`` and ``*.nbc`` of ``sim/`` and ``analysis/``).

#: Player's total, 0-9.
KEY_PLAYER_TOTAL = 1
#: Banker's total, 0-9.
KEY_BANKER_TOTAL = 10 * KEY_PLAYER_TOTAL
#: Player drew a third card (``player_cards - 2``, 0 or 1).
KEY_PLAYER_THIRD_CARD = 10 * KEY_BANKER_TOTAL
#: Banker drew a third card (``banker_cards - 2``, 0 or 1).
KEY_BANKER_THIRD_CARD = 2 * KEY_PLAYER_THIRD_CARD
#: Then one bit each, in the order of :data:`FLAG_FIELDS`.
KEY_PLAYER_PAIR = 2 * KEY_BANKER_THIRD_CARD
KEY_BANKER_PAIR = 2 * KEY_PLAYER_PAIR
KEY_PLAYER_PERFECT_PAIR = 2 * KEY_BANKER_PAIR
KEY_BANKER_PERFECT_PAIR = 2 * KEY_PLAYER_PERFECT_PAIR
KEY_PLAYER_ACE = 2 * KEY_BANKER_PERFECT_PAIR
KEY_PLAYER_FACE = 2 * KEY_PLAYER_ACE
KEY_BANKER_ACE = 2 * KEY_PLAYER_FACE
KEY_BANKER_FACE = 2 * KEY_BANKER_ACE
#: The number of feature keys: every key is ``0 <= key < FEATURE_KEYS``.
FEATURE_KEYS = 2 * KEY_BANKER_FACE
#: The one-bit fields of the key, least significant first (bit ``i`` is ``KEY_PLAYER_PAIR << i``).
FLAG_FIELDS = (
    "player_pair",
    "banker_pair",
    "player_perfect_pair",
    "banker_perfect_pair",
    "player_ace",
    "player_face",
    "banker_ace",
    "banker_face",
)

_Key = TypeVar("_Key", int, npt.NDArray[np.int64])


def split_key(key: _Key) -> tuple[_Key, _Key, _Key, _Key, _Key]:
    """The fields of a feature key, or of an array of keys at once: ``(player_total, banker_total,
    player_cards, banker_cards, flags)``, ``flags`` holding bit ``i`` for ``FLAG_FIELDS[i]``.

    >>> split_key(CoupFeatures(3, 7, 3, 2, banker_pair=True).encode())
    (3, 7, 3, 2, 2)
    >>> [a.tolist() for a in split_key(np.array([0, FEATURE_KEYS - 1]))]
    [[0, 9], [0, 9], [2, 3], [2, 3], [0, 255]]
    """
    return (
        key // KEY_PLAYER_TOTAL % 10,
        key // KEY_BANKER_TOTAL % 10,
        2 + key // KEY_PLAYER_THIRD_CARD % 2,
        2 + key // KEY_BANKER_THIRD_CARD % 2,
        key // KEY_PLAYER_PAIR,
    )


@dataclass(frozen=True, slots=True)
class CoupFeatures:
    """What a coup looks like to a bet: totals, hand sizes, pairs and the letter-bet cards.

    The integer encoding (:meth:`encode`) is a mixed-radix number, least significant first:
    player_total (10), banker_total (10), player_cards - 2 (2), banker_cards - 2 (2), then one bit each
    for player_pair, banker_pair, player_perfect_pair, banker_perfect_pair, player_ace, player_face,
    banker_ace, banker_face: the place values ``KEY_PLAYER_TOTAL`` … ``KEY_BANKER_FACE`` of this
    module, which the compiled kernels import.
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
        key = KEY_PLAYER_TOTAL * self.player_total + KEY_BANKER_TOTAL * self.banker_total
        key += KEY_PLAYER_THIRD_CARD * (self.player_cards - 2) + KEY_BANKER_THIRD_CARD * (self.banker_cards - 2)
        for i, name in enumerate(FLAG_FIELDS):
            key += KEY_PLAYER_PAIR * (int(getattr(self, name)) << i)
        return key

    @classmethod
    def decode(cls, key: int) -> CoupFeatures:
        """Inverse of :meth:`encode`."""
        if not 0 <= key < FEATURE_KEYS:
            raise ValueError(f"feature key {key} outside 0..{FEATURE_KEYS - 1}")
        player_total, banker_total, player_cards, banker_cards, bits = split_key(key)
        flags = {name: bool(bits >> i & 1) for i, name in enumerate(FLAG_FIELDS)}
        return cls(player_total, banker_total, player_cards, banker_cards, **flags)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _has_ace(hand: Hand) -> bool:
    return any(card.rank == 1 for card in hand.cards)


def _has_face(hand: Hand) -> bool:
    return any(card.rank.is_face for card in hand.cards)
