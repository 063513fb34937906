"""The shoe and its procedures as settings (R3–R8): shuffle, cut, cut card, burns, events.

A :class:`ShoeConfig` holds every choice a casino makes; a :class:`Shoe` is one shuffled shoe
being dealt. :mod:`baccarat.dealing` runs coups from shoes with these procedures.

>>> from baccarat.rng import SeededSource
>>> shoe = Shoe.prepare(ShoeConfig(decks=8), source=SeededSource(7), shoe_number=1)
>>> shoe.size, shoe.cut_index == shoe.size - 14, len(shoe.burned) >= 2
(416, True, True)
>>> [event.kind.value for event in shoe.events]
['shuffled', 'cut', 'burned']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from baccarat.cards import Card, Rank
from baccarat.composition import Composition, check_decks
from baccarat.errors import InputError, ProcedureError
from baccarat.rng import RandomSource, SecureSource, shuffle

__all__ = [
    "AfterCutCard",
    "BurnMethod",
    "DealingMode",
    "Shoe",
    "ShoeConfig",
    "ShoeEvent",
    "ShoeEventKind",
    "burn_value",
]

#: The fewest cards a coup may start with: a coup can take six.
MIN_CARDS_FOR_COUP = 6


class BurnMethod(StrEnum):
    """The three Macau burn methods (R4)."""

    DECKS = "decks"  # (a) as many cards as there are decks
    FIRST_CARD = "first_card"  # (b) turn the first card, burn as many as its value (10 J Q K = 10)
    FIXED = "fixed"  # (c) a fixed number, 1–8


class AfterCutCard(StrEnum):
    """What happens when the cut card comes out (R6)."""

    FINISH = "finish"  # the current coup is the last
    ONE_MORE = "one_more"  # one more coup after the current one


class DealingMode(StrEnum):
    """How cards reach the table; independent of the variant."""

    SHOE = "shoe"  # a shuffled shoe with cut card and burns (R4)
    CONTINUOUS = "continuous"  # a continuous shuffler: every coup from a freshly shuffled full shoe (R8)
    PRE_DEALT = "pre_dealt"  # the six-card layout lies on the table before betting (R19)


def burn_value(card: Card) -> int:
    """How many cards method (b) burns after turning ``card``: A = 1, 2–9 face value, 10 J Q K = 10.

    >>> burn_value(Card.parse("KS")), burn_value(Card.parse("AS")), burn_value(Card.parse("7D"))
    (10, 1, 7)
    """
    return 10 if card.rank >= Rank.TEN else int(card.rank)


@dataclass(frozen=True, kw_only=True, slots=True)
class ShoeConfig:
    """Every shoe setting of the rule book, with its default.

    >>> ShoeConfig(decks=13)
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: 13 decks is outside 1–12 (choose 1 to 12 decks; casino tables use 6–12, 8 is usual)
    """

    decks: int = 8
    composition: Composition | None = None
    mode: DealingMode = DealingMode.SHOE
    cut_card_from_end: int = 14
    burn: BurnMethod = BurnMethod.FIRST_CARD
    burn_count: int = 3
    demo_coups: int = 0
    after_cut_card: AfterCutCard = AfterCutCard.ONE_MORE
    burn_each_coup: bool = False

    def __post_init__(self) -> None:
        check_decks(self.decks)
        size = self.size
        if size < MIN_CARDS_FOR_COUP:
            raise InputError(
                f"a shoe of {size} cards cannot deal a coup", hint="a coup needs up to 6 cards", code="shoe.invalid"
            )
        if not 0 <= self.cut_card_from_end < size:
            raise InputError(
                f"cut card {self.cut_card_from_end} cards from the end is outside the shoe of {size} cards",
                hint=f"choose a position from 0 to {size - 1} (casino tables use at least 12; 14 is the default)",
                code="shoe.invalid",
            )
        if not 1 <= self.burn_count <= 8:
            raise InputError(
                f"burn count {self.burn_count} is outside 1–8",
                hint="method (c) burns 1 to 8 cards",
                code="shoe.invalid",
            )
        if not 0 <= self.demo_coups <= 3:
            raise InputError(
                f"{self.demo_coups} demonstration coups is outside 0–3", hint="R5 allows up to 3", code="shoe.invalid"
            )
        if self.mode is DealingMode.PRE_DEALT and self.burn_each_coup:
            raise InputError(
                "burn_each_coup cannot be used with the pre-dealt layout",
                hint="the layout's cards are set before betting; turn burn_each_coup off",
                code="shoe.invalid",
            )

    @property
    def size(self) -> int:
        """Cards in a full shoe."""
        return self.composition.total if self.composition is not None else 52 * self.decks

    def full_composition(self) -> Composition:
        return self.composition if self.composition is not None else Composition.from_decks(self.decks)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ShoeConfig:
        """The settings from their JSON form (:meth:`to_dict`), as stored with a shoe.

        >>> ShoeConfig.from_dict(ShoeConfig(decks=6, burn=BurnMethod.DECKS).to_dict()) == ShoeConfig(decks=6, burn=BurnMethod.DECKS)
        True
        >>> ShoeConfig.from_dict({"decks": 8})
        Traceback (most recent call last):
        ...
        baccarat.errors.InputError: the shoe settings are incomplete or invalid: 'mode'
        """
        try:
            return cls(
                decks=int(data["decks"]),
                mode=DealingMode(data["mode"]),
                cut_card_from_end=int(data["cut_card_from_end"]),
                burn=BurnMethod(data["burn"]),
                burn_count=int(data["burn_count"]),
                demo_coups=int(data["demo_coups"]),
                after_cut_card=AfterCutCard(data["after_cut_card"]),
                burn_each_coup=bool(data["burn_each_coup"]),
            )
        except InputError:
            raise
        except (KeyError, TypeError, ValueError) as error:
            raise InputError(f"the shoe settings are incomplete or invalid: {error}", code="shoe.invalid") from None

    def to_dict(self) -> dict[str, Any]:
        return {
            "decks": self.decks,
            "mode": self.mode.value,
            "cut_card_from_end": self.cut_card_from_end,
            "burn": self.burn.value,
            "burn_count": self.burn_count,
            "demo_coups": self.demo_coups,
            "after_cut_card": self.after_cut_card.value,
            "burn_each_coup": self.burn_each_coup,
        }


class ShoeEventKind(StrEnum):
    SHUFFLED = "shuffled"
    CUT = "cut"
    BURNED = "burned"
    CUT_CARD_OUT = "cut_card_out"
    SHOE_ENDED = "shoe_ended"


@dataclass(frozen=True, slots=True)
class ShoeEvent:
    """Something that happened to a shoe. ``position`` is an index into the shoe where it matters."""

    kind: ShoeEventKind
    shoe_number: int
    cards: tuple[Card, ...] = ()
    position: int | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "shoe_number": self.shoe_number,
            "cards": [str(c) for c in self.cards],
            "position": self.position,
            "detail": self.detail,
        }


@dataclass(slots=True)
class Shoe:
    """One shoe being dealt: its cards in order, the next position, the cut card and what was burned."""

    cards: list[Card]
    shoe_number: int = 1
    cut_index: int | None = None
    position: int = 0
    burned: list[Card] = field(default_factory=list)
    events: list[ShoeEvent] = field(default_factory=list)
    cut_card_out: bool = False

    @classmethod
    def prepare(
        cls,
        config: ShoeConfig,
        *,
        source: RandomSource | None = None,
        shoe_number: int = 1,
    ) -> Shoe:
        """Shuffle, cut, place the cut card and burn, as R4 says (a continuous shuffler only shuffles, R8)."""
        stream = (source or SecureSource()).stream(shoe_number)
        cards = config.full_composition().cards()
        shuffle(cards, stream)
        shoe = cls(cards=cards, shoe_number=shoe_number)
        shoe._emit(ShoeEventKind.SHUFFLED, detail=f"{len(cards)} cards")
        if config.mode is DealingMode.CONTINUOUS:
            return shoe
        # The cut: a player divides the shoe somewhere in its middle half and the halves swap.
        quarter = len(cards) // 4
        cut_at = quarter + stream.randbelow(max(1, len(cards) - 2 * quarter))
        shoe.cards = cards[cut_at:] + cards[:cut_at]
        shoe.cut_index = len(cards) - config.cut_card_from_end
        shoe._emit(ShoeEventKind.CUT, position=cut_at, detail=f"cut card {config.cut_card_from_end} from the end")
        shoe.burn_start(config)
        return shoe

    def _emit(self, kind: ShoeEventKind, **details: Any) -> None:
        self.events.append(ShoeEvent(kind, self.shoe_number, **details))

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.position

    def remaining_composition(self) -> Composition:
        """What is left in the shoe (after cards dealt and burned)."""
        return Composition.from_cards(self.cards[self.position :])

    def peek(self, count: int) -> list[Card]:
        """The next ``count`` cards (fewer if the shoe holds fewer), without drawing them."""
        return self.cards[self.position : self.position + count]

    def lay(self, count: int) -> list[Card]:
        """The next ``count`` cards laid face down on the table, still in shoe order (R19).

        They leave the shoe although the coup draws them later, so a card of theirs behind the
        cut card brings the cut card out now (R6).

        >>> shoe = Shoe(cards=[Card.parse(c) for c in "AS 2S 3S 4S 5S 6S 7S 8S".split()], cut_index=5)
        >>> len(shoe.lay(6)), shoe.cut_card_out, shoe.position, shoe.events[-1].position
        (6, True, 0, 5)
        """
        cards = self.peek(count)
        self._note_cut_card(self.position + len(cards) - 1)
        return cards

    def _note_cut_card(self, last: int) -> None:
        """Mark the cut card out when the card at position ``last`` is behind it (R6)."""
        if self.cut_index is not None and last >= self.cut_index and not self.cut_card_out:
            self.cut_card_out = True
            self._emit(ShoeEventKind.CUT_CARD_OUT, position=max(self.position, self.cut_index))

    def draw(self) -> Card:
        """Take the next card; notes the cut card coming out."""
        if self.position >= len(self.cards):
            raise ProcedureError("the shoe is empty", hint="start a new shoe", code="shoe.empty")
        self._note_cut_card(self.position)
        card = self.cards[self.position]
        self.position += 1
        return card

    def burn(self, count: int, *, detail: str) -> list[Card]:
        """Burn ``count`` cards face down."""
        burned = [self.draw() for _ in range(min(count, self.remaining))]
        self.burned.extend(burned)
        self._emit(ShoeEventKind.BURNED, cards=tuple(burned), detail=detail)
        return burned

    def burn_start(self, config: ShoeConfig) -> None:
        """The burn at the start of a shoe by the configured method (R4)."""
        if config.burn is BurnMethod.DECKS:
            self.burn(config.decks, detail=f"method (a): {config.decks} cards, one per deck")
        elif config.burn is BurnMethod.FIXED:
            self.burn(config.burn_count, detail=f"method (c): a fixed {config.burn_count} cards")
        else:
            first = self.cards[self.position]
            extra = burn_value(first)
            self.burn(1 + extra, detail=f"method (b): turned {first}, burned {extra} more")

    def end(self, reason: str) -> None:
        self._emit(ShoeEventKind.SHOE_ENDED, position=self.position, detail=reason)
