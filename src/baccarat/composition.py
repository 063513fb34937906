"""What a shoe holds: a count for each of the 52 cards (R3).

>>> eight = Composition.from_decks(8)
>>> eight.total, eight.count(Card.parse("AS")), eight.rank_counts()[0]
(416, 8, 32)
>>> after = eight.remove(parse_cards("5S 5H KD"))
>>> after.total, after.rank_counts()[4]
(413, 30)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from baccarat.cards import ALL_CARDS, Card, Rank, parse_cards, parse_rank
from baccarat.errors import InputError

__all__ = ["MAX_DECKS", "MIN_DECKS", "Composition", "check_decks", "parse_removal"]

MIN_DECKS = 1
MAX_DECKS = 12


def check_decks(decks: int) -> int:
    """Validate a deck count (1–12).

    >>> check_decks(13)
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: 13 decks is outside 1–12 (choose 1 to 12 decks; casino tables use 6–12, 8 is usual)
    """
    if isinstance(decks, bool) or not isinstance(decks, int) or not MIN_DECKS <= decks <= MAX_DECKS:
        raise InputError(
            f"{decks} decks is outside {MIN_DECKS}–{MAX_DECKS}",
            hint="choose 1 to 12 decks; casino tables use 6–12, 8 is usual",
            code="shoe.invalid",
        )
    return decks


@dataclass(frozen=True, slots=True)
class Composition:
    """Counts of each card, indexed by :attr:`Card.index` (rank-major, suits S H D C)."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != 52 or any(c < 0 for c in self.counts):
            raise InputError("a composition needs 52 non-negative counts, one per card")

    @classmethod
    def from_decks(cls, decks: int) -> Composition:
        check_decks(decks)
        return cls((decks,) * 52)

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Composition:
        counts = [0] * 52
        for card in cards:
            counts[card.index] += 1
        return cls(tuple(counts))

    @classmethod
    def from_rank_counts(cls, rank_counts: Iterable[int]) -> Composition:
        """Spread counts by rank (A…K) over the suits as evenly as possible, spades first.

        >>> Composition.from_rank_counts([5] + [0] * 12).counts[:4]
        (2, 1, 1, 1)
        """
        ranks = list(rank_counts)
        if len(ranks) != 13:
            raise InputError("rank counts need 13 numbers, A to K")
        counts: list[int] = []
        for n in ranks:
            counts.extend(n // 4 + (1 if s < n % 4 else 0) for s in range(4))
        return cls(tuple(counts))

    @property
    def total(self) -> int:
        return sum(self.counts)

    def count(self, card: Card) -> int:
        return self.counts[card.index]

    def rank_counts(self) -> list[int]:
        """Counts by rank, A (index 0) to K (index 12)."""
        return [sum(self.counts[r * 4 : r * 4 + 4]) for r in range(13)]

    def point_counts(self) -> list[int]:
        """Counts by point value 0–9 (10 J Q K count as 0).

        >>> Composition.from_decks(1).point_counts()
        [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]
        """
        ranks = self.rank_counts()
        return [sum(ranks[9:13]), *ranks[0:9]]

    def cards(self) -> list[Card]:
        """Every card the composition holds, in fresh-deck order (A♠ A♥ A♦ A♣ 2♠ …)."""
        return [card for card, n in zip(ALL_CARDS, self.counts, strict=True) for _ in range(n)]

    def remove(self, cards: Iterable[Card | Rank]) -> Composition:
        """Remove cards; a bare :class:`Rank` removes one card of that rank from the suit with most left.

        >>> Composition.from_decks(1).remove(parse_cards("AS AS"))
        Traceback (most recent call last):
        ...
        baccarat.errors.InputError: cannot remove AS: the shoe holds no more of it (remove only cards the shoe still holds)
        """
        counts = list(self.counts)
        for item in cards:
            if isinstance(item, Card):
                if counts[item.index] <= 0:
                    raise InputError(
                        f"cannot remove {item}: the shoe holds no more of it",
                        hint="remove only cards the shoe still holds",
                    )
                counts[item.index] -= 1
            else:
                base = (item - 1) * 4
                best = max(range(4), key=lambda s: counts[base + s])
                if counts[base + best] <= 0:
                    raise InputError(
                        f"cannot remove a {item.symbol}: the shoe holds no more of that rank",
                        hint="remove only cards the shoe still holds",
                    )
                counts[base + best] -= 1
        return Composition(tuple(counts))


def parse_removal(text: str) -> list[Card | Rank]:
    """Parse a list of cards to remove: full cards (``5S``) or bare ranks (``K``, ``10``).

    >>> parse_removal("5S 5h K")
    [Card('5S'), Card('5H'), <Rank.KING: 13>]
    """
    items: list[Card | Rank] = []
    for token in text.replace(",", " ").split():
        if len(token) == 1 or token.upper() == "10":
            items.append(parse_rank(token))
        else:
            items.extend(parse_cards(token))
    return items
