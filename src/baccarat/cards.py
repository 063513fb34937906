"""Cards, their notation and their point values (R1, R2).

>>> card = Card.parse("10h")
>>> card, str(card), card.point
(Card('TH'), 'TH', 0)
>>> [str(c) for c in parse_cards("AS K♣ td 9d")]
['AS', 'KC', 'TD', '9D']
>>> hand_total(parse_cards("9S 6H"))
5
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from baccarat.errors import InputError

__all__ = [
    "ALL_CARDS",
    "Card",
    "Rank",
    "Suit",
    "format_cards",
    "hand_total",
    "parse_cards",
    "parse_rank",
]

CARD_HINT = "write a card as rank + suit: rank A 2-9 T (or 10) J Q K, suit S H D C or ♠ ♥ ♦ ♣, e.g. AS, 10h, K♣"


class Rank(IntEnum):
    """The thirteen ranks; the value is 1 (ace) to 13 (king)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def point(self) -> int:
        """Point value (R2): A = 1, 2–9 face value, 10 J Q K = 0.

        >>> Rank.ACE.point, Rank.SEVEN.point, Rank.KING.point
        (1, 7, 0)
        """
        return _POINTS[self]

    @property
    def symbol(self) -> str:
        """One-character notation: ``A 2-9 T J Q K``.

        >>> Rank.TEN.symbol
        'T'
        """
        return _RANK_SYMBOLS[self - 1]

    @property
    def is_face(self) -> bool:
        """True for J, Q and K (the Western "face" bets of R30)."""
        return self >= Rank.JACK


class Suit(StrEnum):
    """The four suits; the value is the one-letter notation."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def glyph(self) -> str:
        """The suit symbol: ♠ ♥ ♦ ♣.

        >>> Suit.HEARTS.glyph
        '♥'
        """
        return _SUIT_GLYPHS[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_RANK_SYMBOLS = "A23456789TJQK"
_POINTS = {rank: (int(rank) if rank < 10 else 0) for rank in Rank}
_SUIT_GLYPHS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_RANK_BY_TEXT = {symbol: Rank(i + 1) for i, symbol in enumerate(_RANK_SYMBOLS)} | {"10": Rank.TEN}
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_rank(text: str) -> Rank:
    """Parse a rank alone (``A``, ``10``, ``t``, ``K``).

    >>> parse_rank("10"), parse_rank("q")
    (<Rank.TEN: 10>, <Rank.QUEEN: 12>)
    """
    rank = _RANK_BY_TEXT.get(text.strip().upper())
    if rank is None:
        raise InputError(
            f"unknown rank {text!r}",
            hint="a rank is one of A 2 3 4 5 6 7 8 9 T (or 10) J Q K",
            code="card.invalid",
            params={"card": text},
        )
    return rank


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. Ordered by rank, then suit.

    >>> Card(Rank.QUEEN, Suit.SPADES).point
    0
    """

    rank: Rank
    suit: Suit
    point: int = field(init=False, compare=False, repr=False)
    """The card's point value (R2), fixed at creation: A = 1, 2–9 face value, 10 J Q K = 0."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "point", _POINTS[self.rank])

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the notation of R1: rank ``A 2-9 T 10 J Q K`` then suit ``S H D C ♠ ♥ ♦ ♣``, any case.

        >>> Card.parse("K♣")
        Card('KC')
        >>> Card.parse("XX")
        Traceback (most recent call last):
        ...
        baccarat.errors.InputError: unknown card 'XX' (write a card as rank + suit: rank A 2-9 T (or 10) J Q K, suit S H D C or ♠ ♥ ♦ ♣, e.g. AS, 10h, K♣)
        """
        cleaned = text.strip().upper()
        if len(cleaned) >= 2:
            rank = _RANK_BY_TEXT.get(cleaned[:-1])
            suit = _SUIT_BY_TEXT.get(cleaned[-1])
            if rank is not None and suit is not None:
                return cls(rank, suit)
        raise InputError(f"unknown card {text!r}", hint=CARD_HINT, code="card.invalid", params={"card": text})

    @property
    def index(self) -> int:
        """Position 0–51 in a fresh deck: ``(rank - 1) * 4 + suit``, suits in S H D C order.

        >>> Card.parse("AS").index, Card.parse("KC").index
        (0, 51)
        """
        return (self.rank - 1) * 4 + _SUIT_ORDER[self.suit]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Inverse of :attr:`index`.

        >>> Card.from_index(51)
        Card('KC')
        """
        return ALL_CARDS[index]

    @property
    def pretty(self) -> str:
        """Rank and suit glyph, e.g. ``10♥`` (``10`` for ten, as printed on cards)."""
        rank = "10" if self.rank is Rank.TEN else self.rank.symbol
        return f"{rank}{self.suit.glyph}"

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card('{self}')"


_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards separated by spaces or commas (or an iterable of card texts).

    >>> [str(c) for c in parse_cards("AS, 2h 10d")]
    ['AS', '2H', 'TD']
    >>> parse_cards("AS 2Q")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: unknown card '2Q' at position 2 (write a card as rank + suit: rank A 2-9 T (or 10) J Q K, suit S H D C or ♠ ♥ ♦ ♣, e.g. AS, 10h, K♣)
    """
    tokens = list(_SEPARATORS.split(text.strip())) if isinstance(text, str) else list(text)
    cards: list[Card] = []
    for position, token in enumerate((t for t in tokens if t), start=1):
        try:
            cards.append(Card.parse(token))
        except InputError as error:
            raise InputError(
                f"unknown card {token!r} at position {position}",
                hint=CARD_HINT,
                code="card.invalid",
                params={"card": token, "position": position},
            ) from error
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by spaces.

    >>> format_cards(parse_cards("as 10h"))
    'AS TH'
    """
    return " ".join(str(card) for card in cards)


def hand_total(cards: Iterable[Card]) -> int:
    """A hand's total: the sum of point values modulo 10 (R2).

    >>> hand_total(parse_cards("KS 7D"))
    7
    """
    return sum(card.point for card in cards) % 10
