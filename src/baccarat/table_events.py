"""The table's events: every change to a table, frozen, in one log (docs/architecture.md, "The layers").

A :class:`~baccarat.table.Table` changes only by appending one of these events to its log and
applying it. The log is the replay format (:meth:`~baccarat.table.Table.replay`), the stored history
and what a websocket sends. Every event turns into plain JSON with :meth:`TableEvent.to_dict` and
back with :func:`event_from_dict`; :meth:`TableEvent.public_dict` is the same without the cards that
still lie face down (what every client may see while a squeeze is in progress).

>>> from baccarat.cards import Card
>>> from baccarat.coup import Position
>>> event = CardDealt(at=12.5, round=3, position=Position.PLAYER_1, card=Card.parse("9H"), face_down=True)
>>> event.to_dict()
{'type': 'CardDealt', 'at': 12.5, 'round': 3, 'position': 'player_1', 'card': '9H', 'face_down': True, 'exposed': False}
>>> event.public_dict()["card"] is None
True
>>> event_from_dict(event.to_dict()) == event
True
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from functools import cache
from typing import Any, Union

from baccarat.bets import BetKind
from baccarat.cards import Card
from baccarat.coup import Position, Side, Winner
from baccarat.errors import InputError
from baccarat.settlement import BetResult

__all__ = [
    "EVENT_TYPES",
    "BetCancelled",
    "BetPlaced",
    "BetSettlement",
    "BetSwitched",
    "BettingClosed",
    "BettingOpened",
    "BettorJoined",
    "BettorLeft",
    "BettorSat",
    "CardCorrected",
    "CardDealt",
    "CardRevealed",
    "CashedOut",
    "CoupSettled",
    "CutCardOut",
    "FundsAdded",
    "Refund",
    "RoundVoided",
    "ShoeBurned",
    "ShoeChanged",
    "SqueezeHandedOver",
    "TableEvent",
    "VariantSwitched",
    "event_from_dict",
]


# --- values carried by events -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BetSettlement:
    """One bet of one bettor settled on a coup (see :class:`baccarat.settlement.Settlement`).

    ``returned`` goes back to the bettor now; ``owed`` is commission written in the commission box
    (R27, collected when the bettor leaves or cashes out); a ``stay`` bet stays on the table (R24).
    """

    bettor: str
    kind: BetKind
    stake: int
    result: BetResult
    paid: int
    commission: int
    owed: int
    returned: int
    level: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Refund:
    """A stake returned in full because its coup was voided (R18)."""

    bettor: str
    kind: BetKind
    stake: int


# --- the events ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class TableEvent:
    """Base of every table event. ``at`` is the table time of the change (seconds; time is passed in)."""

    at: float

    @property
    def type(self) -> str:
        """The event's name in JSON: the class name, e.g. ``BetPlaced``."""
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON data: ``{"type": <class name>, <field>: <value>, …}``."""
        return {"type": self.type} | {f.name: _encode(getattr(self, f.name)) for f in fields(self)}

    def public_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` without what must stay hidden for now (cards dealt face down, R23)."""
        return self.to_dict()


@dataclass(frozen=True, slots=True, kw_only=True)
class BettorJoined(TableEvent):
    """A bettor came to the table with ``balance`` minor units, seated at ``seat`` or standing (``None``)."""

    bettor: str
    balance: int
    seat: int | None
    variant: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FundsAdded(TableEvent):
    """A bettor brought more money to the table."""

    bettor: str
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BettorSat(TableEvent):
    """A bettor took a seat (from standing, or moving from another seat)."""

    bettor: str
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CashedOut(TableEvent):
    """A bettor took ``amount`` from the table after paying the commission box ``commission`` (R27)."""

    bettor: str
    amount: int
    commission: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BettorLeft(TableEvent):
    """A bettor left: paid the commission box ``commission`` and took the rest, ``amount``."""

    bettor: str
    amount: int
    commission: int


@dataclass(frozen=True, slots=True, kw_only=True)
class VariantSwitched(TableEvent):
    """A bettor switched between standard and no-commission play (R28)."""

    bettor: str
    variant: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeChanged(TableEvent):
    """A new shoe is in play (R4, R6): shuffled, cut and burned."""

    shoe_number: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CutCardOut(TableEvent):
    """The cut card came out (R6); the shoe ends after this coup or the next one."""

    shoe_number: int
    coup_number: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingOpened(TableEvent):
    """Betting is open for round ``round`` (coup ``coup_number`` of shoe ``shoe_number``).

    A demonstration coup (R5) takes no bets. In pre-dealt mode (R19) ``commitment`` is the SHA-256
    commitment of the six-card layout already lying on the table.
    """

    round: int
    shoe_number: int
    coup_number: int
    demo: bool = False
    commitment: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPlaced(TableEvent):
    """``amount`` went from the bettor to their bet on ``kind``, which now holds ``stake``.

    ``bet_id`` is the client's id for this placement (placing the same id again places nothing);
    ``spot`` is the seat whose box holds the bet, ``None`` for the standing bettors' area.
    """

    round: int
    bettor: str
    kind: BetKind
    amount: int
    stake: int
    spot: int | None
    bet_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BetCancelled(TableEvent):
    """``amount`` went back from the bettor's bet on ``kind`` to the bettor; ``stake`` is left (0: gone)."""

    round: int
    bettor: str
    kind: BetKind
    amount: int
    stake: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BetSwitched(TableEvent):
    """A bettor moved their bet from one side to the other (after a tie under ``stay``, R24)."""

    round: int
    bettor: str
    kind: BetKind
    to: BetKind
    stake: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingClosed(TableEvent):
    """No more bets. With squeeze on (R23), who turns each side's cards (``None``: the dealer)."""

    round: int
    player_squeezer: str | None = None
    banker_squeezer: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDealt(TableEvent):
    """A card went to ``position``; ``face_down`` while it waits for its squeezer (R23).

    ``exposed`` records a card that came out of the shoe face up (R9): it stays valid.
    """

    round: int
    position: Position
    card: Card
    face_down: bool = False
    exposed: bool = False

    def public_dict(self) -> dict[str, Any]:
        data = self.to_dict()
        if self.face_down:
            data["card"] = None
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeBurned(TableEvent):
    """The dealer burned the new shoe's first cards by the table's method (R4): ``count`` cards in
    all; with method (b) ``card`` is the one turned face up (the rest stay unseen)."""

    shoe_number: int
    count: int
    card: Card | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardCorrected(TableEvent):
    """The dealer corrected the last card entered (R18): ``position`` holds ``card`` instead of
    ``replaced``, before the next card was drawn; ``face_down`` as the card it replaces."""

    round: int
    position: Position
    card: Card
    replaced: Card
    face_down: bool = False

    def public_dict(self) -> dict[str, Any]:
        data = self.to_dict()
        if self.face_down:
            data["card"] = data["replaced"] = None
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class SqueezeHandedOver(TableEvent):
    """The squeezer of ``side`` handed the right to turn its cards to ``to`` (``None``: the dealer)."""

    round: int
    side: Side
    bettor: str
    to: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardRevealed(TableEvent):
    """A face-down card was turned by ``by`` (a bettor; ``None``: the dealer)."""

    round: int
    position: Position
    card: Card
    by: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CoupSettled(TableEvent):
    """The coup is over: its cards, winner, and every bet's settlement.

    ``last`` marks the shoe's last coup (R6); ``demo`` a demonstration coup (R5, no bets). In pre-dealt
    mode ``layout`` and ``nonce`` reveal the six cards committed to when betting opened (R19, R37).
    """

    round: int
    shoe_number: int
    coup_number: int
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    winner: Winner
    settlements: tuple[BetSettlement, ...] = ()
    demo: bool = False
    last: bool = False
    layout: tuple[Card, ...] = ()
    nonce: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundVoided(TableEvent):
    """The round was voided (R18): every bet on it was returned in full. ``last``: the cards it spent
    ended the shoe (R6)."""

    round: int
    reason: str
    refunds: tuple[Refund, ...] = ()
    last: bool = False
    layout: tuple[Card, ...] = ()
    nonce: str | None = None


#: Every event type by its JSON name.
EVENT_TYPES: dict[str, type[TableEvent]] = {
    cls.__name__: cls
    for cls in (
        BettorJoined,
        FundsAdded,
        BettorSat,
        CashedOut,
        BettorLeft,
        VariantSwitched,
        ShoeChanged,
        ShoeBurned,
        CutCardOut,
        BettingOpened,
        BetPlaced,
        BetCancelled,
        BetSwitched,
        BettingClosed,
        CardDealt,
        CardCorrected,
        SqueezeHandedOver,
        CardRevealed,
        CoupSettled,
        RoundVoided,
    )
}


def event_from_dict(data: dict[str, Any]) -> TableEvent:
    """Rebuild an event from :meth:`TableEvent.to_dict` (fields it does not know are ignored).

    >>> event_from_dict({"type": "FundsAdded", "at": 1.0, "bettor": "ann", "amount": 500})
    FundsAdded(at=1.0, bettor='ann', amount=500)
    >>> event_from_dict({"type": "Nothing"})
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: unknown table event type 'Nothing' (known: BettorJoined, FundsAdded, ...)
    """
    name = data.get("type")
    cls = EVENT_TYPES.get(str(name))
    if cls is None:
        raise InputError(f"unknown table event type {name!r}", hint=f"known: {', '.join(EVENT_TYPES)}")
    try:
        value = _decode(cls, data)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, InputError):
            raise
        raise InputError(f"malformed {name} event: {error!r}", hint="give the fields of to_dict()") from None
    assert isinstance(value, TableEvent)
    return value


# --- the JSON codec -----------------------------------------------------------------------------


def _encode(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value)}
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(tp: Any, raw: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        if raw is None:
            return None
        (inner,) = [arg for arg in typing.get_args(tp) if arg is not type(None)]
        return _decode(inner, raw)
    if origin is tuple:
        (item, _) = typing.get_args(tp)
        return tuple(_decode(item, element) for element in raw)
    if tp is Card:
        return Card.parse(raw)
    if isinstance(tp, type) and is_dataclass(tp):
        hints = _hints(tp)
        names = [f.name for f in fields(tp) if f.init]
        return tp(**{name: _decode(hints[name], raw[name]) for name in names if name in raw})
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(raw)
    if tp is float:
        return float(raw)
    if tp in (int, str, bool) and not isinstance(raw, tp):
        raise ValueError(f"expected {tp.__name__}, got {raw!r}")
    return raw
