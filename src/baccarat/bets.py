"""Bet kinds (docs/rules.md R24–R31), their names in English and 繁體中文, and a bet on the table.

Every bet has a canonical id (the value of :class:`BetKind`), used in the API, the CLI and the JSON
output; its Chinese names are accepted as aliases. What a bet *is* (which hand, which outcome)
lives in :data:`BET_SPECS`; what it *pays* lives in a paytable (:mod:`baccarat.paytables`).

>>> parse_bet_kind("莊對"), parse_bet_kind("Super 6"), parse_bet_kind("閒龍寶")
(<BetKind.BANKER_PAIR: 'banker_pair'>, <BetKind.SUPER6: 'super6'>, <BetKind.PLAYER_DRAGON_BONUS: 'player_dragon_bonus'>)
>>> BetKind.DRAGON7.english, BetKind.BANKER.chinese
('Dragon 7', '莊')
>>> parse_bet("莊=100")
Bet(kind=<BetKind.BANKER: 'banker'>, stake=100)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from baccarat.coup import Side
from baccarat.errors import InputError

__all__ = [
    "BET_SPECS",
    "CONDITION_FIELDS",
    "Bet",
    "BetFamily",
    "BetKind",
    "BetSpec",
    "bet_menu",
    "parse_bet",
    "parse_bet_kind",
]


class BetKind(StrEnum):
    """Every bet the engine knows; the value is the canonical id of docs/rules.md."""

    BANKER = "banker"
    PLAYER = "player"
    TIE = "tie"
    BANKER_PAIR = "banker_pair"
    PLAYER_PAIR = "player_pair"
    BIG = "big"
    SMALL = "small"
    BANKER_ODD = "banker_odd"
    BANKER_EVEN = "banker_even"
    PLAYER_ODD = "player_odd"
    PLAYER_EVEN = "player_even"
    PLAYER_DRAGON_BONUS = "player_dragon_bonus"
    BANKER_DRAGON_BONUS = "banker_dragon_bonus"
    SUPER6 = "super6"
    LUCKY6 = "lucky6"
    PLAYER_ACE = "player_ace"
    BANKER_ACE = "banker_ace"
    PLAYER_FACE = "player_face"
    BANKER_FACE = "banker_face"
    PLAYER_ACE_FACE = "player_ace_face"
    BANKER_ACE_FACE = "banker_ace_face"
    BOTH_ACE = "both_ace"
    BOTH_FACE = "both_face"
    BOTH_ACE_FACE = "both_ace_face"
    EITHER_PAIR = "either_pair"
    PERFECT_PAIR = "perfect_pair"
    DRAGON7 = "dragon7"
    PANDA8 = "panda8"

    @property
    def spec(self) -> BetSpec:
        """What the bet is: its rule family and parameters, and its names."""
        return BET_SPECS[self]

    @property
    def english(self) -> str:
        """English display name, e.g. ``Banker Pair``."""
        return BET_SPECS[self].english

    @property
    def chinese(self) -> str:
        """Chinese (繁體) display name, e.g. ``莊對``."""
        return BET_SPECS[self].chinese

    @property
    def label(self) -> str:
        """``English 中文``, e.g. ``Banker Pair 莊對``."""
        return f"{self.english} {self.chinese}"


class BetFamily(StrEnum):
    """How a bet is decided; each family is one rule in :mod:`baccarat.settlement`.

    ``main``: the chosen side wins, a tie pushes (R24). ``tie``: the totals are equal. ``pair``: the
    chosen side's first two cards pair. ``either_pair`` / ``perfect_pair``: a pair / a suited pair in
    either hand (R31). ``card_count``: the coup uses so many cards (big/small). ``total``: the chosen
    side's final total is one of a set (odd/even). ``dragon_bonus``: R26. ``wins_with``: the chosen
    side wins with a given total on given cards (Super 6, Lucky 6, Dragon 7, Panda 8). ``letter``:
    the hands hold the named cards (R30).
    """

    MAIN = "main"
    TIE = "tie"
    PAIR = "pair"
    EITHER_PAIR = "either_pair"
    PERFECT_PAIR = "perfect_pair"
    CARD_COUNT = "card_count"
    TOTAL = "total"
    DRAGON_BONUS = "dragon_bonus"
    WINS_WITH = "wins_with"
    LETTER = "letter"


#: The conditions a paytable level may set, per rule family (see :mod:`baccarat.paytables`):
#: ``total`` the chosen side's final total (for ``tie``, the tied total); ``cards`` the chosen side's
#: number of cards (for ``card_count``, the coup's); ``margin`` how many points the chosen side wins
#: by; ``natural`` whether the chosen side's hand is a natural; ``perfect`` whether a pair is suited
#: (for ``either_pair``, whether either pair is); ``both`` whether both hands qualify.
CONDITION_FIELDS: dict[BetFamily, tuple[str, ...]] = {
    BetFamily.MAIN: ("total", "cards", "margin", "natural"),
    BetFamily.TIE: ("total", "natural"),
    BetFamily.PAIR: ("perfect",),
    BetFamily.EITHER_PAIR: ("perfect", "both"),
    BetFamily.PERFECT_PAIR: ("both",),
    BetFamily.CARD_COUNT: ("cards",),
    BetFamily.TOTAL: ("total",),
    BetFamily.DRAGON_BONUS: ("total", "cards", "margin", "natural"),
    BetFamily.WINS_WITH: ("cards",),
    BetFamily.LETTER: (),
}


@dataclass(frozen=True, slots=True)
class BetSpec:
    """What a bet is, independently of what it pays.

    ``side`` is the hand the bet is on (``None`` for bets on both hands). ``totals`` and ``cards``
    restrict the ``total``/``wins_with`` rules (the winning totals, the hand sizes; for
    ``card_count`` the coup's number of cards). ``holds`` names the letter-bet cards (R30):
    ``player_ace``, ``player_face``, ``banker_ace``, ``banker_face``, all required.
    """

    family: BetFamily
    english: str
    chinese: str
    side: Side | None = None
    totals: frozenset[int] = frozenset(range(10))
    cards: frozenset[int] = frozenset({2, 3})
    holds: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


_ODD = frozenset({1, 3, 5, 7, 9})
_EVEN = frozenset({0, 2, 4, 6, 8})
_P, _B = Side.PLAYER, Side.BANKER

BET_SPECS: dict[BetKind, BetSpec] = {
    BetKind.BANKER: BetSpec(BetFamily.MAIN, "Banker", "莊", _B, aliases=("莊贏", "庄", "庄赢", "EZ Banker")),
    BetKind.PLAYER: BetSpec(BetFamily.MAIN, "Player", "閒", _P, aliases=("閒贏", "闲", "闲赢")),
    BetKind.TIE: BetSpec(BetFamily.TIE, "Tie", "和", aliases=("和局",)),
    BetKind.BANKER_PAIR: BetSpec(BetFamily.PAIR, "Banker Pair", "莊對", _B, aliases=("庄对", "莊家對")),
    BetKind.PLAYER_PAIR: BetSpec(BetFamily.PAIR, "Player Pair", "閒對", _P, aliases=("闲对", "閒家對")),
    BetKind.BIG: BetSpec(BetFamily.CARD_COUNT, "Big", "大", cards=frozenset({5, 6})),
    BetKind.SMALL: BetSpec(BetFamily.CARD_COUNT, "Small", "小", cards=frozenset({4})),
    BetKind.BANKER_ODD: BetSpec(BetFamily.TOTAL, "Banker Odd", "莊單", _B, totals=_ODD, aliases=("庄单",)),
    BetKind.BANKER_EVEN: BetSpec(BetFamily.TOTAL, "Banker Even", "莊雙", _B, totals=_EVEN, aliases=("庄双",)),
    BetKind.PLAYER_ODD: BetSpec(BetFamily.TOTAL, "Player Odd", "閒單", _P, totals=_ODD, aliases=("闲单",)),
    BetKind.PLAYER_EVEN: BetSpec(BetFamily.TOTAL, "Player Even", "閒雙", _P, totals=_EVEN, aliases=("闲双",)),
    BetKind.PLAYER_DRAGON_BONUS: BetSpec(
        BetFamily.DRAGON_BONUS, "Player Dragon Bonus", "閒龍寶", _P, aliases=("闲龙宝",)
    ),
    BetKind.BANKER_DRAGON_BONUS: BetSpec(
        BetFamily.DRAGON_BONUS, "Banker Dragon Bonus", "莊龍寶", _B, aliases=("庄龙宝",)
    ),
    BetKind.SUPER6: BetSpec(
        BetFamily.WINS_WITH, "Super 6", "超級六", _B, totals=frozenset({6}), aliases=("超級6", "超级六", "超6")
    ),
    BetKind.LUCKY6: BetSpec(
        BetFamily.WINS_WITH, "Lucky 6", "幸運六", _B, totals=frozenset({6}), aliases=("幸運6", "幸运六")
    ),
    BetKind.PLAYER_ACE: BetSpec(BetFamily.LETTER, "Player Ace", "閒A", _P, holds=("player_ace",), aliases=("閒家A",)),
    BetKind.BANKER_ACE: BetSpec(BetFamily.LETTER, "Banker Ace", "莊A", _B, holds=("banker_ace",), aliases=("莊家A",)),
    BetKind.PLAYER_FACE: BetSpec(
        BetFamily.LETTER, "Player Face", "閒J/Q/K", _P, holds=("player_face",), aliases=("閒JQK", "閒家J/Q/K")
    ),
    BetKind.BANKER_FACE: BetSpec(
        BetFamily.LETTER, "Banker Face", "莊J/Q/K", _B, holds=("banker_face",), aliases=("莊JQK", "莊家J/Q/K")
    ),
    BetKind.PLAYER_ACE_FACE: BetSpec(
        BetFamily.LETTER,
        "Player Ace & Face",
        "閒A+J/Q/K",
        _P,
        holds=("player_ace", "player_face"),
        aliases=("閒A+JQK", "閒家A+J/Q/K"),
    ),
    BetKind.BANKER_ACE_FACE: BetSpec(
        BetFamily.LETTER,
        "Banker Ace & Face",
        "莊A+J/Q/K",
        _B,
        holds=("banker_ace", "banker_face"),
        aliases=("莊A+JQK", "莊家A+J/Q/K"),
    ),
    BetKind.BOTH_ACE: BetSpec(
        BetFamily.LETTER, "Both Ace", "閒莊A", holds=("player_ace", "banker_ace"), aliases=("閒家+莊家A",)
    ),
    BetKind.BOTH_FACE: BetSpec(
        BetFamily.LETTER,
        "Both Face",
        "閒莊J/Q/K",
        holds=("player_face", "banker_face"),
        aliases=("閒莊JQK", "閒家+莊家J/Q/K"),
    ),
    BetKind.BOTH_ACE_FACE: BetSpec(
        BetFamily.LETTER,
        "Both Ace & Face",
        "閒莊A+J/Q/K",
        holds=("player_ace", "player_face", "banker_ace", "banker_face"),
        aliases=("閒莊A+JQK", "閒家+莊家A+J/Q/K"),
    ),
    BetKind.EITHER_PAIR: BetSpec(BetFamily.EITHER_PAIR, "Either Pair", "任意對", aliases=("任一對", "任意对")),
    BetKind.PERFECT_PAIR: BetSpec(BetFamily.PERFECT_PAIR, "Perfect Pair", "完美對", aliases=("完美对",)),
    BetKind.DRAGON7: BetSpec(
        BetFamily.WINS_WITH,
        "Dragon 7",
        "龍7",
        _B,
        totals=frozenset({7}),
        cards=frozenset({3}),
        aliases=("龍七", "龙7", "龙七"),
    ),
    BetKind.PANDA8: BetSpec(
        BetFamily.WINS_WITH,
        "Panda 8",
        "熊貓8",
        _P,
        totals=frozenset({8}),
        cards=frozenset({3}),
        aliases=("熊貓八", "熊猫8", "熊猫八"),
    ),
}

_NORMALISE = re.compile(r"[\s\-_]+")


def _key(text: str) -> str:
    return _NORMALISE.sub("", text.strip().casefold())


_BY_NAME: dict[str, BetKind] = {}
for _kind, _spec in BET_SPECS.items():
    for _name in (_kind.value, _spec.english, _spec.chinese, *_spec.aliases):
        _BY_NAME.setdefault(_key(_name), _kind)


def bet_menu(kinds: Iterable[BetKind] | None = None) -> str:
    """The bets as ``id (中文)``, comma separated: the menu shown in error messages.

    >>> bet_menu([BetKind.BANKER, BetKind.TIE])
    'banker (莊), tie (和)'
    """
    return ", ".join(f"{kind.value} ({kind.chinese})" for kind in (BetKind if kinds is None else kinds))


def parse_bet_kind(text: str, *, menu: Iterable[BetKind] | None = None) -> BetKind:
    """A bet kind from its canonical id, English name or Chinese name (case, spaces, ``-`` and ``_`` ignored).

    ``menu`` is the list of bets shown in the error (default: every bet).

    >>> parse_bet_kind("banker-pair"), parse_bet_kind("幸運六")
    (<BetKind.BANKER_PAIR: 'banker_pair'>, <BetKind.LUCKY6: 'lucky6'>)
    >>> parse_bet_kind("dragon")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: unknown bet 'dragon' (choose one of: banker (莊), player (閒), ...)
    """
    kind = _BY_NAME.get(_key(text))
    if kind is None:
        raise InputError(
            f"unknown bet {text!r}", hint=f"choose one of: {bet_menu(menu)}", code="bet.unknown", params={"bet": text}
        )
    return kind


@dataclass(frozen=True, slots=True)
class Bet:
    """A stake on one bet kind; ``stake`` is a positive whole number of minor units (R32).

    >>> Bet(BetKind.TIE, 500).stake
    500
    >>> Bet(BetKind.TIE, 0)
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: tie stake 0 is not positive (a stake is a whole number of minor units (cents), at least 1)
    """

    kind: BetKind
    stake: int

    def __post_init__(self) -> None:
        if not isinstance(self.kind, BetKind):
            object.__setattr__(self, "kind", parse_bet_kind(str(self.kind)))
        hint = "a stake is a whole number of minor units (cents), at least 1"
        if isinstance(self.stake, bool) or not isinstance(self.stake, int):
            raise InputError(
                f"{self.kind.value} stake {self.stake!r} is not a whole number",
                hint=hint,
                code="stake.invalid",
                params={"bet": self.kind, "stake": self.stake},
            )
        if self.stake <= 0:
            raise InputError(
                f"{self.kind.value} stake {self.stake} is not positive",
                hint=hint,
                code="stake.invalid",
                params={"bet": self.kind, "stake": self.stake},
            )

    def to_dict(self) -> dict[str, Any]:
        """``{"bet": id, "stake": minor units}``."""
        return {"bet": self.kind.value, "stake": self.stake}


_STAKE = re.compile(r"^\d+$")


def parse_bet(text: str, *, menu: Iterable[BetKind] | None = None) -> Bet:
    """Parse ``KIND=STAKE`` (the CLI's ``--bet``): a bet name or alias, ``=``, a whole number of minor units.

    ``menu`` is the list of bets shown when the name is unknown (default: every bet).

    >>> parse_bet("banker_pair=20")
    Bet(kind=<BetKind.BANKER_PAIR: 'banker_pair'>, stake=20)
    >>> parse_bet("banker=1.5")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: bet 'banker=1.5': stake '1.5' is not a positive whole number (write KIND=STAKE with the stake in minor units (cents), e.g. banker=100)
    """
    name, sep, stake_text = text.partition("=")
    hint = "write KIND=STAKE with the stake in minor units (cents), e.g. banker=100"
    if not sep or not name.strip():
        raise InputError(f"bet {text!r} has no stake", hint=hint, code="bet.invalid", params={"bet": text})
    kind = parse_bet_kind(name, menu=menu)
    stake_text = stake_text.strip()
    if not _STAKE.match(stake_text) or int(stake_text) <= 0:
        raise InputError(
            f"bet {text!r}: stake {stake_text!r} is not a positive whole number",
            hint=hint,
            code="bet.invalid",
            params={"bet": text},
        )
    return Bet(kind, int(stake_text))
