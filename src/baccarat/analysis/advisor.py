"""Follow a shoe as it is dealt and price every bet of the variant for the next coup, exactly.

The figures are those of ``baccarat odds --remove`` for the same cards (a par sheet of the cards that
remain), from the next-coup kernel (:mod:`baccarat.analysis.next_coup`), fast enough for every coup.

>>> advisor = Advisor(8, variant="macau")
>>> advisor.see("AS 2H 3D KC 4S 8D")
6
>>> update = advisor.advice()
>>> update.cards_left, update.figures[BetKind.PLAYER_PAIR].expected_value < 0
(410, True)
>>> advisor.see("ZZ")
Traceback (most recent call last):
...
baccarat.errors.InputError: ...
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from baccarat.analysis.exact import resolve_composition
from baccarat.analysis.next_coup import NextCoupPricing, next_coup_figures, next_coup_pricing
from baccarat.analysis.par_sheet import BetFigures
from baccarat.bets import BetKind
from baccarat.cards import Card, Rank
from baccarat.composition import Composition, check_decks, parse_removal
from baccarat.errors import InputError

__all__ = ["Advice", "Advisor"]


@dataclass(frozen=True, slots=True)
class Advice:
    """The next coup's figures for every bet, after ``cards_seen`` cards of the shoe."""

    update: int
    cards_seen: int
    cards_left: int
    figures: dict[BetKind, BetFigures]

    @property
    def positive(self) -> tuple[BetKind, ...]:
        """The bets whose expected value is positive."""
        return tuple(kind for kind, bet in self.figures.items() if bet.expected_value > 0)

    def to_dict(self) -> dict[str, Any]:
        """One update as JSON: ``bets.<id>`` is the bet's figures as ``baccarat odds --json`` gives them,
        with ``positive`` (its expected value is above zero)."""
        return {
            "update": self.update,
            "cards_seen": self.cards_seen,
            "cards_left": self.cards_left,
            "positive": [kind.value for kind in self.positive],
            "bets": {
                kind.value: bet.to_dict() | {"positive": bet.expected_value > 0} for kind, bet in self.figures.items()
            },
        }


class Advisor:
    """A shoe of ``decks`` decks (or a composition) followed card by card; :meth:`advice` prices the next coup."""

    def __init__(self, shoe: int | Composition = 8, *, variant: str = "macau") -> None:
        self.full = shoe if isinstance(shoe, Composition) else Composition.from_decks(check_decks(shoe))
        self.pricing: NextCoupPricing = next_coup_pricing(variant)
        self.left = self.full
        self.seen = 0
        self.updates = 0

    def verify_see(self, cards: str | Iterable[Card | Rank]) -> list[Card | Rank]:
        """The cards as items to remove, refusing a code that is not a card and a card the shoe no longer
        holds (nothing is changed)."""
        items = parse_removal(cards) if isinstance(cards, str) else list(cards)
        left = self.left.remove(items)
        resolve_composition(left)  # refuses a shoe that cannot deal another coup
        return items

    def see(self, cards: str | Iterable[Card | Rank]) -> int:
        """Take the cards out of the shoe; returns how many."""
        items = self.verify_see(cards)
        self.left = self.left.remove(items)
        self.seen += len(items)
        return len(items)

    def new_shoe(self, shoe: int | Composition | None = None) -> None:
        """Start again from a full shoe (the same one, or ``shoe``)."""
        if shoe is not None:
            self.full = shoe if isinstance(shoe, Composition) else Composition.from_decks(check_decks(shoe))
        self.left, self.seen = self.full, 0

    def advice(self) -> Advice:
        """The exact figures of every bet for the next coup."""
        if self.left.total < 6:  # pragma: no cover - see() refuses it
            raise InputError("the shoe cannot deal another coup", hint="start a new shoe")
        figures = next_coup_figures(self.left, self.pricing)
        self.updates += 1
        return Advice(self.updates, self.seen, self.left.total, figures)
