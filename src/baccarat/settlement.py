"""Settlement of bets on a coup, exactly (R24–R32), and the same rules as a table over feature keys.

Each bet family's rule is written once, on numpy arrays of decoded :class:`~baccarat.features.CoupFeatures`
(:func:`_RULES`): :func:`outcome_table` evaluates it on every feature key at once (for the exact
analyser and the simulator); :func:`settle_bets` evaluates it on the one coup at hand and turns the
level it hits into money: integer minor units, exact fractions, a fraction of a minor unit rounded
down (R32).

>>> from baccarat.coup import deal_coup
>>> from baccarat.paytables import builtin_paytable
>>> coup = deal_coup(parse_cards("4S 9H 5D KC"))          # Player 9, Banker 9: a tie of naturals
>>> table = builtin_paytable("standard")
>>> bets = [Bet(BetKind.BANKER, 100), Bet(BetKind.TIE, 10), Bet(BetKind.PLAYER_DRAGON_BONUS, 50)]
>>> [(s.result.value, s.paid, s.returned) for s in settle_bets(coup, bets, table)]
[('push', 0, 100), ('win', 80, 90), ('push', 0, 50)]
>>> win = settle_bets(deal_coup(parse_cards("2S 9H 3D KC")), [Bet(BetKind.BANKER, 100)], table)[0]
>>> win.result.value, win.paid, win.commission, win.returned, win.level
('win', 95, 5, 195, 'win')
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from baccarat.bets import Bet, BetFamily, BetKind, BetSpec
from baccarat.coup import CoupResult, Side, Winner
from baccarat.errors import InputError
from baccarat.features import FEATURE_KEYS, FLAG_FIELDS, CoupFeatures, split_key
from baccarat.paytables import BetTerms, Condition, Level, Paytable

__all__ = [
    "LOSE",
    "PUSH",
    "BetResult",
    "CommissionMode",
    "FeatureArrays",
    "Level",
    "OutcomeTable",
    "Settlement",
    "TiePolicy",
    "bet_levels",
    "outcome_table",
    "settle_bets",
]

#: Level index of a lost bet in :attr:`OutcomeTable.index`.
LOSE = -1
#: Level index of a pushed bet (stake returned) in :attr:`OutcomeTable.index`.
PUSH = -2

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


class BetResult(StrEnum):
    """How one bet ends on a coup."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    STAY = "stay"


class CommissionMode(StrEnum):
    """How commission is taken (R27): withheld from the payout, or paid 1:1 and owed in the commission box."""

    DEDUCTED = "deducted"
    OWED = "owed"


class TiePolicy(StrEnum):
    """What a tie does to the Banker and Player bets (R24): returned, or left in action for the next coup."""

    PUSH = "push"
    STAY = "stay"


@dataclass(frozen=True, slots=True)
class Settlement:
    """One bet settled on one coup, in minor units.

    ``paid``: the house's payment on a win (net of a deducted commission; the gross payout when the
    commission is owed). ``commission``: this bet's commission (already withheld from ``paid`` when
    deducted; owed by the bettor otherwise). ``returned``: what goes back to the bettor now (stake and
    ``paid`` on a win, the stake on a push, nothing on a loss or while the bet stays in action).
    ``level``: the paying level that was hit (``""`` unless the bet won).
    """

    bet: Bet
    result: BetResult
    paid: int
    commission: int
    returned: int
    level: str
    mode: CommissionMode = CommissionMode.DEDUCTED

    @property
    def owed(self) -> int:
        """Commission the bettor owes to the commission box for this bet (0 when it was deducted)."""
        return self.commission if self.mode is CommissionMode.OWED else 0

    @property
    def net(self) -> int:
        """The bettor's gain (positive) or loss (negative), commission owed included; 0 while the bet stays."""
        if self.result is BetResult.LOSE:
            return -self.bet.stake
        return self.paid - self.owed

    @property
    def kept(self) -> int:
        """What the house keeps of the stake now (the whole stake on a loss, else 0)."""
        return self.bet.stake if self.result is BetResult.LOSE else 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape: ``{"bet", "stake", "result", "paid", "commission", "returned", "level"}``."""
        return {
            "bet": self.bet.kind.value,
            "stake": self.bet.stake,
            "result": self.result.value,
            "paid": self.paid,
            "commission": self.commission,
            "returned": self.returned,
            "level": self.level,
        }


# --- the rules, on arrays -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class FeatureArrays:
    """Decoded features of many coups at once, one numpy array per field of :class:`CoupFeatures`."""

    player_total: IntArray
    banker_total: IntArray
    player_cards: IntArray
    banker_cards: IntArray
    player_pair: BoolArray
    banker_pair: BoolArray
    player_perfect_pair: BoolArray
    banker_perfect_pair: BoolArray
    player_ace: BoolArray
    player_face: BoolArray
    banker_ace: BoolArray
    banker_face: BoolArray

    @classmethod
    def of(cls, features: Sequence[CoupFeatures]) -> FeatureArrays:
        """Arrays holding the given coups' features, in order.

        >>> FeatureArrays.of([CoupFeatures(8, 3)]).player_total
        array([8])
        """

        def ints(name: str) -> IntArray:
            return np.array([getattr(f, name) for f in features], dtype=np.int64)

        def flags(name: str) -> BoolArray:
            return np.array([getattr(f, name) for f in features], dtype=np.bool_)

        return cls(
            ints("player_total"),
            ints("banker_total"),
            ints("player_cards"),
            ints("banker_cards"),
            *(flags(name) for name in FLAG_FIELDS),
        )

    @classmethod
    def of_keys(cls, keys: IntArray) -> FeatureArrays:
        """Decode feature keys (the mixed-radix layout of :meth:`CoupFeatures.encode`) all at once.

        >>> key = CoupFeatures(3, 7, 3, 2, player_face=True).encode()
        >>> arrays = FeatureArrays.of_keys(np.array([key]))
        >>> int(arrays.player_total[0]), int(arrays.banker_total[0]), int(arrays.player_cards[0]), bool(arrays.player_face[0])
        (3, 7, 3, True)
        """
        player_total, banker_total, player_cards, banker_cards, bits = split_key(np.asarray(keys, dtype=np.int64))
        return cls(
            player_total,
            banker_total,
            player_cards,
            banker_cards,
            *((bits >> i & 1).astype(np.bool_) for i in range(len(FLAG_FIELDS))),
        )

    def total(self, side: Side) -> IntArray:
        return self.player_total if side is Side.PLAYER else self.banker_total

    def cards(self, side: Side) -> IntArray:
        return self.player_cards if side is Side.PLAYER else self.banker_cards

    def natural(self, side: Side) -> BoolArray:
        """Two cards totalling 8 or 9 (R12)."""
        result: BoolArray = (self.cards(side) == 2) & (self.total(side) >= 8)
        return result

    def pair(self, side: Side) -> BoolArray:
        return self.player_pair if side is Side.PLAYER else self.banker_pair

    def perfect(self, side: Side) -> BoolArray:
        return self.player_perfect_pair if side is Side.PLAYER else self.banker_perfect_pair


@dataclass(frozen=True, slots=True, eq=False)
class _Outcome:
    """What a rule says about each coup: the bet wins, the rule itself pushes it, and the quantities
    that paytable levels may condition on (:data:`baccarat.bets.CONDITION_FIELDS`)."""

    win: BoolArray
    push: BoolArray | None
    quantities: dict[str, npt.NDArray[Any]]


def _other(side: Side) -> Side:
    return Side.BANKER if side is Side.PLAYER else Side.PLAYER


def _side(spec: BetSpec) -> Side:
    assert spec.side is not None, "this bet family needs a side"
    return spec.side


def _main(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # R17, R24: the chosen side wins with the higher total; a tie returns the bet (or it stays).
    side = _side(spec)
    mine, theirs = f.total(side), f.total(_other(side))
    return _Outcome(
        mine > theirs,
        mine == theirs,
        {"total": mine, "cards": f.cards(side), "margin": mine - theirs, "natural": f.natural(side)},
    )


def _tie(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # R17: equal totals; `natural` is a tie of two naturals.
    both_natural = f.natural(Side.PLAYER) & f.natural(Side.BANKER)
    return _Outcome(f.player_total == f.banker_total, None, {"total": f.player_total, "natural": both_natural})


def _pair(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # Bet table: the chosen side's first two cards have the same rank.
    side = _side(spec)
    return _Outcome(f.pair(side), None, {"perfect": f.perfect(side)})


def _either_pair(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # R31: either hand's first two cards pair.
    perfect = f.player_perfect_pair | f.banker_perfect_pair
    return _Outcome(f.player_pair | f.banker_pair, None, {"perfect": perfect, "both": f.player_pair & f.banker_pair})


def _perfect_pair(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # R31: either hand's first two cards are the same rank and suit.
    both = f.player_perfect_pair & f.banker_perfect_pair
    return _Outcome(f.player_perfect_pair | f.banker_perfect_pair, None, {"both": both})


def _card_count(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # Bet table: Big is 5 or 6 cards dealt, Small is 4.
    cards = f.player_cards + f.banker_cards
    return _Outcome(np.isin(cards, list(spec.cards)), None, {"cards": cards})


def _total(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # Bet table: the chosen side's final total is odd / even, whoever wins.
    total = f.total(_side(spec))
    return _Outcome(np.isin(total, list(spec.totals)), None, {"total": total})


def _dragon_bonus(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # R26: the chosen side wins (levels: natural, margins); a tie of two naturals pushes.
    side = _side(spec)
    other = _other(side)
    mine, theirs = f.total(side), f.total(other)
    natural = f.natural(side)
    return _Outcome(
        mine > theirs,
        (mine == theirs) & natural & f.natural(other),
        {"total": mine, "cards": f.cards(side), "margin": mine - theirs, "natural": natural},
    )


def _wins_with(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # R28, R29, R31: the chosen side wins with the given total on the given number of cards.
    side = _side(spec)
    mine, cards = f.total(side), f.cards(side)
    win = (mine > f.total(_other(side))) & np.isin(mine, list(spec.totals)) & np.isin(cards, list(spec.cards))
    return _Outcome(win, None, {"cards": cards})


def _letter(f: FeatureArrays, spec: BetSpec) -> _Outcome:
    # R30: the named hand(s) hold the named cards, whoever wins.
    win = np.ones_like(f.player_ace)
    for name in spec.holds:
        win = win & getattr(f, name)
    return _Outcome(win, None, {})


_RULES: dict[BetFamily, Callable[[FeatureArrays, BetSpec], _Outcome]] = {
    BetFamily.MAIN: _main,
    BetFamily.TIE: _tie,
    BetFamily.PAIR: _pair,
    BetFamily.EITHER_PAIR: _either_pair,
    BetFamily.PERFECT_PAIR: _perfect_pair,
    BetFamily.CARD_COUNT: _card_count,
    BetFamily.TOTAL: _total,
    BetFamily.DRAGON_BONUS: _dragon_bonus,
    BetFamily.WINS_WITH: _wins_with,
    BetFamily.LETTER: _letter,
}


def _holds(when: Condition, outcome: _Outcome) -> BoolArray:
    mask = outcome.win.copy()
    for name, value in when.items():
        mask &= outcome.quantities[name] == value
    return mask


def bet_levels(terms: BetTerms, features: FeatureArrays) -> npt.NDArray[np.int8]:
    """The level each coup hits for one bet: an index into ``terms.levels``, :data:`LOSE` or :data:`PUSH`.

    This is the only place a bet is decided; both :func:`outcome_table` and :func:`settle_bets` call it.

    >>> from baccarat.paytables import builtin_paytable
    >>> terms = builtin_paytable("standard").terms(BetKind.BANKER_DRAGON_BONUS)
    >>> bet_levels(terms, FeatureArrays.of([CoupFeatures(0, 9, 3, 3), CoupFeatures(5, 7), CoupFeatures(9, 9)]))
    array([ 1, -1, -2], dtype=int8)
    """
    outcome = _RULES[terms.kind.spec.family](features, terms.kind.spec)
    index = np.full(outcome.win.shape, LOSE, dtype=np.int8)
    for i in reversed(range(len(terms.levels))):
        index[_holds(terms.levels[i].when, outcome)] = i
    for push in terms.pushes:
        index[_holds(push.when, outcome)] = PUSH
    if outcome.push is not None:
        index[outcome.push] = PUSH
    return index


# --- the vector form ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class OutcomeTable:
    """For every feature key and every bet of a paytable, the paying level it hits.

    ``index[kind][key]`` is an index into ``levels[kind]``, or :data:`LOSE` / :data:`PUSH`. Arrays are
    read-only (the table is cached and shared). Keys that no real deal produces may hold any level.
    """

    paytable: Paytable
    kinds: tuple[BetKind, ...]
    levels: dict[BetKind, tuple[Level, ...]]
    index: dict[BetKind, npt.NDArray[np.int8]]


@functools.cache
def _all_keys() -> FeatureArrays:
    return FeatureArrays.of_keys(np.arange(FEATURE_KEYS, dtype=np.int64))


@functools.cache
def outcome_table(paytable: Paytable) -> OutcomeTable:
    """The outcome table of a paytable (cached per paytable).

    >>> from baccarat.paytables import builtin_paytable
    >>> table = outcome_table(builtin_paytable("macau"))
    >>> key = CoupFeatures(2, 7).encode()                  # Banker 7 beats Player 2
    >>> [(kind.value, int(table.index[kind][key])) for kind in table.kinds]
    [('banker', 0), ('player', -1), ('tie', -1), ('banker_pair', -1), ('player_pair', -1)]
    >>> table.levels[BetKind.BANKER][0].pays
    Fraction(19, 20)
    """
    features = _all_keys()
    index: dict[BetKind, npt.NDArray[np.int8]] = {}
    for terms in paytable.bets:
        levels = bet_levels(terms, features)
        levels.setflags(write=False)
        index[terms.kind] = levels
    return OutcomeTable(
        paytable=paytable,
        kinds=paytable.kinds,
        levels={terms.kind: terms.levels for terms in paytable.bets},
        index=index,
    )


# --- the scalar form ----------------------------------------------------------------------------


def _features_of(coup: CoupResult | CoupFeatures | int) -> CoupFeatures:
    if isinstance(coup, CoupFeatures):
        return coup
    if isinstance(coup, CoupResult):
        return CoupFeatures.of(coup)
    if isinstance(coup, int) and not isinstance(coup, bool):
        try:
            return CoupFeatures.decode(coup)
        except ValueError as error:
            raise InputError(str(error), hint="give a CoupResult, CoupFeatures or a feature key") from None
    raise InputError(f"cannot settle on {type(coup).__name__}", hint="give a CoupResult, CoupFeatures or a feature key")


def _floor(stake: int, rate: Fraction) -> int:
    """``stake * rate`` rounded down to a whole minor unit (R32)."""
    return stake * rate.numerator // rate.denominator


def _money(bet: Bet, level: Level, mode: CommissionMode) -> tuple[int, int]:
    """(paid, commission) on a win. The bettor nets ``floor(stake × pays)`` in both modes (R27, R32)."""
    gross = _floor(bet.stake, level.gross)
    net = _floor(bet.stake, level.pays)
    commission = gross - net
    return (net if mode is CommissionMode.DEDUCTED else gross), commission


def settle_bets(
    features_or_result: CoupResult | CoupFeatures | int,
    bets: Iterable[Bet],
    paytable: Paytable,
    *,
    commission: CommissionMode = CommissionMode.DEDUCTED,
    on_tie: TiePolicy = TiePolicy.PUSH,
) -> list[Settlement]:
    """Settle bets on a coup (a :class:`CoupResult`, its :class:`CoupFeatures` or a feature key).

    A bet the paytable does not offer is refused (:class:`~baccarat.errors.InputError`) and nothing
    is settled. With ``on_tie=TiePolicy.STAY`` the Banker and Player bets on a tie are neither won nor
    lost (result ``stay``, nothing returned): they stay in action for the next coup (R24). Every other
    bet settles on its own terms whatever the tie policy.

    >>> from baccarat.paytables import builtin_paytable
    >>> tie = CoupFeatures(6, 6)
    >>> [s.result.value for s in settle_bets(tie, [Bet(BetKind.BANKER, 20), Bet(BetKind.TIE, 5)],
    ...                                       builtin_paytable("macau"), on_tie=TiePolicy.STAY)]
    ['stay', 'win']
    >>> owed = settle_bets(CoupFeatures(0, 7), [Bet(BetKind.BANKER, 100)], builtin_paytable("macau"),
    ...                    commission=CommissionMode.OWED)[0]
    >>> owed.paid, owed.commission, owed.returned, owed.net
    (100, 5, 200, 95)
    """
    features = _features_of(features_or_result)
    bets = list(bets)
    terms_of = {bet.kind: paytable.terms(bet.kind) for bet in bets}
    arrays = FeatureArrays.of([features])
    codes = {kind: int(bet_levels(terms, arrays)[0]) for kind, terms in terms_of.items()}
    tie = features.winner is Winner.TIE
    settlements = []
    for bet in bets:
        code, terms = codes[bet.kind], terms_of[bet.kind]
        if code == LOSE:
            settlements.append(Settlement(bet, BetResult.LOSE, 0, 0, 0, "", commission))
        elif code == PUSH:
            stays = on_tie is TiePolicy.STAY and tie and bet.kind.spec.family is BetFamily.MAIN
            if stays:
                settlements.append(Settlement(bet, BetResult.STAY, 0, 0, 0, "", commission))
            else:
                settlements.append(Settlement(bet, BetResult.PUSH, 0, 0, bet.stake, "", commission))
        else:
            level = terms.levels[code]
            paid, fee = _money(bet, level, commission)
            settlements.append(Settlement(bet, BetResult.WIN, paid, fee, bet.stake + paid, level.name, commission))
    return settlements
