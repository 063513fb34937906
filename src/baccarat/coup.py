"""The drawing rules (R10–R17) as data, one coup dealt card by card, and its frozen result.

The tableau is data: :data:`PLAYER_DRAWS_ON`, :data:`BANKER_DRAWS_IF_PLAYER_STOOD` and
:data:`BANKER_DRAWS_ON_PLAYER_THIRD`. One class, :class:`CoupDealer`, applies them card by card;
everything that deals a coup (plain dealing, a shoe, the pre-dealt layout, the dealer-entry mode
of a physical shoe, the analysers' agreement tests) goes through it.

>>> result = deal_coup(parse_cards("AS 2H 3D KC 4S 8D"))
>>> result.player.cards_text, result.banker.cards_text, result.winner
(['AS', '3D', '4S'], ['2H', 'KC', '8D'], <Winner.PLAYER: 'player'>)
>>> result.reasons[-1]
'Banker 2 draws: Banker always draws on 0–2'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from baccarat.cards import Card, hand_total
from baccarat.errors import InputError, ProcedureError

__all__ = [
    "BANKER_DRAWS_IF_PLAYER_STOOD",
    "BANKER_DRAWS_ON_PLAYER_THIRD",
    "PLAYER_DRAWS_ON",
    "CoupDealer",
    "CoupResult",
    "Hand",
    "Position",
    "Reason",
    "Side",
    "Winner",
    "banker_draws",
    "deal_coup",
    "deal_coups",
    "player_draws",
]

_ALL = frozenset(range(10))

#: Player's two-card totals that draw (R13); 6 and 7 stand, 8 and 9 are naturals (R12).
PLAYER_DRAWS_ON: frozenset[int] = frozenset(range(6))
#: Banker's two-card totals that draw when Player stood (R14).
BANKER_DRAWS_IF_PLAYER_STOOD: frozenset[int] = frozenset(range(6))
#: Banker's two-card total -> the point values of Player's third card on which Banker draws (R15).
BANKER_DRAWS_ON_PLAYER_THIRD: dict[int, frozenset[int]] = {
    0: _ALL,
    1: _ALL,
    2: _ALL,
    3: _ALL - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}


class Side(StrEnum):
    """The two hands (R10)."""

    PLAYER = "player"
    BANKER = "banker"

    @property
    def label(self) -> str:
        """Capitalised English name."""
        return self.value.capitalize()

    @property
    def chinese(self) -> str:
        """閒 or 莊."""
        return "閒" if self is Side.PLAYER else "莊"


class Winner(StrEnum):
    """The result of a coup (R17)."""

    BANKER = "banker"
    PLAYER = "player"
    TIE = "tie"

    @property
    def letter(self) -> str:
        """``B``, ``P`` or ``T`` (the scoreboards' notation)."""
        return self.value[0].upper()


class Position(StrEnum):
    """Where a card goes, in deal order (R11, R16)."""

    PLAYER_1 = "player_1"
    BANKER_1 = "banker_1"
    PLAYER_2 = "player_2"
    BANKER_2 = "banker_2"
    PLAYER_3 = "player_3"
    BANKER_3 = "banker_3"

    @property
    def side(self) -> Side:
        return Side.PLAYER if self.value.startswith("player") else Side.BANKER

    @property
    def label(self) -> str:
        """E.g. ``Player's 3rd card``."""
        number = {"1": "1st", "2": "2nd", "3": "3rd"}[self.value[-1]]
        return f"{self.side.label}'s {number} card"


_INITIAL_ORDER = (Position.PLAYER_1, Position.BANKER_1, Position.PLAYER_2, Position.BANKER_2)


def player_draws(player_total: int, banker_total: int) -> bool:
    """Whether Player draws a third card on these two-card totals (R12, R13).

    >>> player_draws(5, 3), player_draws(6, 3), player_draws(2, 8)
    (True, False, False)
    """
    if player_total >= 8 or banker_total >= 8:
        return False
    return player_total in PLAYER_DRAWS_ON


def banker_draws(banker_total: int, player_third: int | None, *, player_total: int = 0) -> bool:
    """Whether Banker draws (R12, R14, R15), given Player's third card's point value or ``None``.

    ``player_total`` is Player's two-card total, needed only to detect a Player natural.

    >>> banker_draws(3, 8), banker_draws(3, 9), banker_draws(6, None), banker_draws(5, None)
    (False, True, False, True)
    """
    if banker_total >= 8 or (player_third is None and player_total >= 8):
        return False
    if player_third is None:
        return banker_total in BANKER_DRAWS_IF_PLAYER_STOOD
    return player_third in BANKER_DRAWS_ON_PLAYER_THIRD.get(banker_total, frozenset())


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a hand draws or stands (R12–R15): a stable ``code`` with its ``params`` (for a client to
    write in its language) and the English ``text``.

    >>> _banker_reason(3, 8, False)
    Reason(code='banker_on_third', params=(('total', 3), ('third', 8), ('draws', False)), text="Banker 3 stands: Player's third card is a 8")
    """

    code: str
    params: tuple[tuple[str, Any], ...]
    text: str

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "params", "text"}``."""
        return {"code": self.code, "params": dict(self.params), "text": self.text}


def _banker_reason(banker_total: int, player_third: int | None, draws: bool) -> Reason:
    verb = "draws" if draws else "stands"
    if player_third is None:
        text = f"Banker {banker_total} {verb}: Player stood, Banker draws on 0–5 and stands on 6–7"
        return Reason("banker_player_stood", (("total", banker_total), ("draws", draws)), text)
    if banker_total <= 2:
        return Reason(
            "banker_low", (("total", banker_total),), f"Banker {banker_total} draws: Banker always draws on 0–2"
        )
    if banker_total == 7:
        return Reason("banker_seven", (), "Banker 7 stands: Banker always stands on 7")
    text = f"Banker {banker_total} {verb}: Player's third card is a {player_third}"
    return Reason("banker_on_third", (("total", banker_total), ("third", player_third), ("draws", draws)), text)


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand's cards in deal order and its total.

    >>> hand = Hand(tuple(parse_cards("QS QH")))
    >>> hand.total, hand.is_pair, hand.is_natural
    (0, True, False)
    """

    cards: tuple[Card, ...]

    @property
    def total(self) -> int:
        return hand_total(self.cards)

    @property
    def two_card_total(self) -> int:
        return hand_total(self.cards[:2])

    @property
    def is_natural(self) -> bool:
        """Two cards totalling 8 or 9 (R12); a three-card hand is never a natural."""
        return len(self.cards) == 2 and self.total >= 8

    @property
    def is_pair(self) -> bool:
        """The first two cards have the same rank (suits irrelevant)."""
        return len(self.cards) >= 2 and self.cards[0].rank == self.cards[1].rank

    @property
    def is_perfect_pair(self) -> bool:
        """The first two cards have the same rank and suit."""
        return self.is_pair and self.cards[0].suit == self.cards[1].suit

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def cards_text(self) -> list[str]:
        return [str(card) for card in self.cards]

    def to_dict(self) -> dict[str, Any]:
        return {"cards": self.cards_text, "total": self.total}


@dataclass(frozen=True, slots=True)
class CoupResult:
    """A finished coup: both hands, the winner and the reason for each draw or stand.

    ``face_up`` lists the positions whose card came out face up (R9; recorded, nothing else changes).
    """

    player: Hand
    banker: Hand
    reasons: tuple[str, ...] = ()
    face_up: tuple[Position, ...] = ()
    #: the reasons with their codes and params (for a client to write in its language)
    explained: tuple[Reason, ...] = ()

    @property
    def winner(self) -> Winner:
        p, b = self.player.total, self.banker.total
        return Winner.PLAYER if p > b else Winner.BANKER if b > p else Winner.TIE

    @property
    def natural(self) -> bool:
        """Either hand is a natural (R12)."""
        return self.player.is_natural or self.banker.is_natural

    @property
    def player_pair(self) -> bool:
        return self.player.is_pair

    @property
    def banker_pair(self) -> bool:
        return self.banker.is_pair

    @property
    def cards_used(self) -> int:
        return self.player.size + self.banker.size

    @property
    def cards(self) -> tuple[Card, ...]:
        """All cards in deal order (P1, B1, P2, B2, then the third cards)."""
        p, b = self.player.cards, self.banker.cards
        return (p[0], b[0], p[1], b[1], *p[2:], *b[2:])

    def hand(self, side: Side) -> Hand:
        return self.player if side is Side.PLAYER else self.banker

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a coup in ``baccarat deal --json`` (a public interface: add fields, never rename)."""
        return {
            "player": self.player.to_dict(),
            "banker": self.banker.to_dict(),
            "winner": self.winner.value,
            "natural": self.natural,
            "cards_used": self.cards_used,
            "player_pair": self.player_pair,
            "banker_pair": self.banker_pair,
            "reasons": list(self.reasons),
            "explained": [reason.to_dict() for reason in self.explained],
        }


@dataclass(slots=True)
class CoupDealer:
    """Deals one coup card by card and says which card is due next (R11–R16, R18).

    This is the dealer-entry mode for a physical shoe or card reader, and the one place the drawing
    rules are applied.

    >>> dealer = CoupDealer()
    >>> for text in ["5S", "3H", "KD", "2C"]:
    ...     _ = dealer.enter(Card.parse(text))
    >>> dealer.due
    <Position.PLAYER_3: 'player_3'>
    >>> _ = dealer.enter(Card.parse("4S"), position=Position.PLAYER_3)
    >>> dealer.due, dealer.reasons[-1]
    (<Position.BANKER_3: 'banker_3'>, "Banker 5 draws: Player's third card is a 4")
    """

    cards: dict[Position, Card] = field(default_factory=dict)
    face_up: list[Position] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    #: the reasons with their codes and params, as :class:`Reason` (the texts are ``reasons``)
    explained: list[Reason] = field(default_factory=list)
    voided: bool = False

    @property
    def due(self) -> Position | None:
        """The position of the next card, or ``None`` when the coup is complete (or void)."""
        if self.voided:
            return None
        cards = self.cards
        if len(cards) < 4:
            return _INITIAL_ORDER[len(cards)]
        if Position.BANKER_3 in cards:
            return None
        p_total = (cards[Position.PLAYER_1].point + cards[Position.PLAYER_2].point) % 10
        b_total = (cards[Position.BANKER_1].point + cards[Position.BANKER_2].point) % 10
        third = cards.get(Position.PLAYER_3)
        if third is None and player_draws(p_total, b_total):
            return Position.PLAYER_3
        if banker_draws(b_total, None if third is None else third.point, player_total=p_total):
            return Position.BANKER_3
        return None

    @property
    def complete(self) -> bool:
        return not self.voided and len(self.cards) >= 4 and self.due is None

    def enter(self, card: Card, *, position: Position | None = None, face_up: bool = False) -> Position:
        """Record the next card. ``position``, if given, must be the one due; returns the position used."""
        if self.voided:
            raise ProcedureError("this coup was voided", hint="start a new coup", code="coup.voided")
        due = self.due
        if due is None and position is not None:
            raise ProcedureError(
                f"{position.label} is not due: the coup is complete",
                hint="settle this coup and start the next one, or void it if the cards cannot be corrected",
                code="card.not_due",
                params={"position": position},
            )
        if due is None:
            raise ProcedureError(
                f"no card is due: the coup is complete, {card} is not part of it",
                hint="settle this coup and start the next one",
                code="card.not_due",
            )
        if position is not None and position is not due:
            raise ProcedureError(
                f"{position.label} is not due: the next card is {due.label}",
                hint=f"enter {card} as {due.label}, or void the coup if the cards cannot be corrected",
                code="card.not_due",
                params={"position": position, "due": due},
            )
        self.cards[due] = card
        if face_up:
            self.face_up.append(due)
        self._explain(due)
        return due

    def _explain(self, position: Position) -> None:
        if position is Position.BANKER_2:
            p = hand_total(self.cards[x] for x in (Position.PLAYER_1, Position.PLAYER_2))
            b = hand_total(self.cards[x] for x in (Position.BANKER_1, Position.BANKER_2))
            if p >= 8 or b >= 8:
                who = "Player" if p >= b and p >= 8 else "Banker"
                text = f"Natural: {who} {max(p, b)} on two cards, neither hand draws"
                self._reason(Reason("natural", (("side", who.lower()), ("total", max(p, b))), text))
                return
            verb = "draws" if p in PLAYER_DRAWS_ON else "stands"
            text = f"Player {p} {verb}: Player draws on 0–5 and stands on 6–7"
            self._reason(Reason("player_two_cards", (("total", p), ("draws", verb == "draws")), text))
            if verb == "stands":
                self._reason(_banker_reason(b, None, b in BANKER_DRAWS_IF_PLAYER_STOOD))
        elif position is Position.PLAYER_3:
            b = hand_total(self.cards[x] for x in (Position.BANKER_1, Position.BANKER_2))
            third = self.cards[Position.PLAYER_3].point
            self._reason(_banker_reason(b, third, banker_draws(b, third)))

    def _reason(self, reason: Reason) -> None:
        self.reasons.append(reason.text)
        self.explained.append(reason)

    def replace_last(self, card: Card) -> tuple[Position, Card]:
        """Correct the last card entered (R18): its position takes ``card`` and the draw reasons are
        worked out again; returns the position and the card it replaced.

        >>> dealer = CoupDealer()
        >>> for text in ["5S", "3H", "KD"]:
        ...     _ = dealer.enter(Card.parse(text))
        >>> dealer.replace_last(Card.parse("4D"))
        (<Position.PLAYER_2: 'player_2'>, Card('KD'))
        >>> _ = dealer.enter(Card.parse("5C")); dealer.due, dealer.reasons[-1]
        (None, 'Natural: Player 9 on two cards, neither hand draws')
        """
        if self.voided or not self.cards:
            raise ProcedureError(
                "no card of this coup to correct", hint="enter the first card", code="card.none_to_correct", rule="R18"
            )
        entered = list(self.cards.items())
        position, replaced = entered[-1]
        self.cards.clear()
        self.reasons.clear()
        self.explained.clear()
        for at, dealt in [*entered[:-1], (position, card)]:
            self.cards[at] = dealt
            self._explain(at)
        return position, replaced

    def void(self) -> None:
        """Void the coup (R18): every bet on it is returned; no result is produced."""
        self.voided = True

    def result(self) -> CoupResult:
        """The finished coup; refuses while a card is still due."""
        if self.voided:
            raise ProcedureError("this coup was voided and has no result", code="coup.voided")
        due = self.due
        if due is not None:
            raise ProcedureError(
                f"the coup is not finished: {due.label} is due",
                hint="enter the next card",
                code="coup.not_finished",
                params={"due": due},
            )
        get = self.cards.get
        player = tuple(c for c in (get(Position.PLAYER_1), get(Position.PLAYER_2), get(Position.PLAYER_3)) if c)
        banker = tuple(c for c in (get(Position.BANKER_1), get(Position.BANKER_2), get(Position.BANKER_3)) if c)
        return CoupResult(Hand(player), Hand(banker), tuple(self.reasons), tuple(self.face_up), tuple(self.explained))


def deal_coup(cards: Iterable[Card] | Callable[[], Card]) -> CoupResult:
    """Deal one coup from cards in shoe order (an iterable, consumed only as far as needed, or a draw function).

    >>> deal_coup(parse_cards("9S 8H KD 5C")).winner
    <Winner.PLAYER: 'player'>
    >>> deal_coup(parse_cards("2S 3H"))
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: too few cards to finish the coup: Player's 2nd card is due (give at least 4 cards, up to 6 for a coup with two third cards)
    """
    draw: Callable[[], Card]
    if callable(cards):
        draw = cards
    else:
        iterator: Iterator[Card] = iter(cards)

        def draw() -> Card:
            return next(iterator)

    dealer = CoupDealer()
    while (due := dealer.due) is not None:
        try:
            card = draw()
        except (StopIteration, IndexError):
            raise InputError(
                f"too few cards to finish the coup: {due.label} is due",
                hint="give at least 4 cards, up to 6 for a coup with two third cards",
                code="coup.too_few_cards",
                params={"due": due},
            ) from None
        dealer.enter(card)
    return dealer.result()


def deal_coups(cards: Iterable[Card]) -> tuple[list[CoupResult], list[Card]]:
    """Deal consecutive coups from cards in order, as many as the cards complete; return the coups and the unused cards.

    >>> coups, unused = deal_coups(parse_cards("AS 2H 3D KC 4S 8D 9S 9H"))
    >>> len(coups), [str(c) for c in unused]
    (1, ['9S', '9H'])
    """
    pending = list(cards)
    coups: list[CoupResult] = []
    start = 0
    while True:
        dealer = CoupDealer()
        index = start
        while dealer.due is not None and index < len(pending):
            dealer.enter(pending[index])
            index += 1
        if not dealer.complete:
            return coups, pending[start:]
        coups.append(dealer.result())
        start = index
