"""The casino table as one state machine: seats, money, limits, rounds, squeeze, ties, commission.

A :class:`Table` is pure: no I/O and no clock (every action takes ``now``, the table time in
seconds). Each action comes in two forms: ``verify_x(…)`` raises a precise
:class:`TableError` naming the rule or limit, and ``x(…)`` does it and returns the events it
appended; the checks a caller makes before acting (placing a bet, opening or closing betting,
dealing a card) also come as ``can_x(…)``, the boolean form. A refused action changes nothing.
A refusal carries a stable ``code``, the ``rule`` it enforces and the values it names
(``params``): see :mod:`baccarat.error_codes`. Every change is a frozen event
(:mod:`baccarat.table_events`) in one log, and :meth:`Table.replay` rebuilds an equal state from
that log.

A round: :meth:`~Table.open_betting` → bets → :meth:`~Table.close_betting` → cards
(:meth:`~Table.deal` from the table's own shoe, or :meth:`~Table.deal_card` entered by a dealer)
→ with squeeze, :meth:`~Table.reveal` by the squeezers → settlement (automatic once the last card
is face up) → the next round.

>>> from baccarat.rng import SeededSource
>>> table = Table(TableConfig(variant="macau", min_bet=100, max_bet=10_000), source=SeededSource(7))
>>> _ = table.join("ann", balance=5_000, seat=1, now=0)
>>> _ = table.open_betting(now=1)
>>> _ = table.place_bet("ann", "banker", 1_000, now=2)
>>> table.balance("ann"), table.phase.value
(4000, 'betting')
>>> table.place_bet("ann", "player", 20_000, now=3)
Traceback (most recent call last):
...
baccarat.table.LimitError: player bet 20000 is above the maximum 10000 (R21: each bet spot has a table minimum and maximum)
>>> _ = table.close_betting(now=4)
>>> events = table.deal(now=5)
>>> events[-1].type, table.phase.value, table.balance("ann") in (0 + 4000, 4000 + 1000, 4000 + 1950)
('CoupSettled', 'idle', True)
>>> Table.replay(table.config, table.events).state == table.state
True

Between rounds, :meth:`Table.snapshot` gives the whole state as JSON data, and
:meth:`Table.from_snapshot` rebuilds it (then replays only the events that came after):

>>> import json
>>> copy = Table.from_snapshot(table.config, json.loads(json.dumps(table.snapshot())))
>>> copy.state == table.state
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from baccarat.bets import Bet, BetKind, parse_bet_kind
from baccarat.cards import Card
from baccarat.coup import CoupDealer, Position, Side, Winner
from baccarat.dealing import DealtCoup, ShoeDealer
from baccarat.errors import BaccaratError, InputError, ProcedureError
from baccarat.rng import RandomSource
from baccarat.settlement import BetResult, TiePolicy, settle_bets
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, burn_value
from baccarat.table_config import DealSource, TableConfig, TiePermission
from baccarat.table_events import (
    BetCancelled,
    BetPlaced,
    BetSettlement,
    BetSwitched,
    BettingClosed,
    BettingOpened,
    BettorJoined,
    BettorLeft,
    BettorSat,
    CardCorrected,
    CardDealt,
    CardRevealed,
    CashedOut,
    CoupSettled,
    CutCardOut,
    FundsAdded,
    Refund,
    RoundVoided,
    ShoeBurned,
    ShoeChanged,
    SqueezeHandedOver,
    TableEvent,
    VariantSwitched,
    event_from_dict,
)

__all__ = [
    "SNAPSHOT_FORMAT",
    "BetNotOffered",
    "BettingClosedError",
    "BettorError",
    "CardError",
    "CardNotDue",
    "ClockError",
    "FundsError",
    "LimitError",
    "OpenBetsError",
    "Phase",
    "PhaseError",
    "SeatError",
    "SnapshotError",
    "SpotError",
    "SqueezeError",
    "Table",
    "TableBet",
    "TableBettor",
    "TableError",
    "TableInputError",
    "TableProcedureError",
    "TableState",
    "TiePermissionError",
    "VariantSwitchError",
]


# --- errors -------------------------------------------------------------------------------------


class TableError(BaccaratError):
    """A refused table action. ``rule`` is the docs/rules.md id it enforces, when there is one."""


class TableInputError(TableError, InputError):
    """The request itself cannot be accepted (an unknown bettor, a stake over a limit, …)."""


class TableProcedureError(TableError, ProcedureError):
    """The request is not allowed now (betting closed, a card not due, …)."""


class BettorError(TableInputError):
    """An unknown bettor, or one already at the table."""

    code: ClassVar[str] = "bettor.not_at_table"


class SeatError(TableInputError):
    """A seat outside the table, taken, or not allowed (R20)."""

    code: ClassVar[str] = "seat.invalid"


class SpotError(TableInputError):
    """A bet spot the bettor may not use: standing bettors never bet on a seated player's spot (R20)."""

    code: ClassVar[str] = "spot.not_allowed"


class BetNotOffered(TableInputError):
    """A bet the bettor's variant does not offer, or no such bet on the table."""

    code: ClassVar[str] = "bet.not_on_menu"


class LimitError(TableInputError):
    """A stake below the minimum, above the maximum, over the Banker/Player limit (R21) or not a multiple (R22)."""

    code: ClassVar[str] = "limit.refused"


class FundsError(TableInputError):
    """More than the bettor has at the table (commission owed is not available, R27)."""

    code: ClassVar[str] = "balance.insufficient"


class CardError(TableInputError):
    """A card that is not a card, or one the shoe cannot hold any more of (R1, R18)."""

    code: ClassVar[str] = "card.invalid"


class SnapshotError(TableInputError):
    """A snapshot that cannot be read: another format version, or data that is not a table's snapshot."""

    code: ClassVar[str] = "snapshot.invalid"


class ClockError(TableInputError):
    """A time earlier than the table's last event: table time never goes back."""

    code: ClassVar[str] = "clock.backwards"


class PhaseError(TableProcedureError):
    """An action that the round's phase does not allow."""

    code: ClassVar[str] = "round.wrong_phase"


class BettingClosedError(PhaseError):
    """A bet, or a change to one, while betting is not open."""

    code: ClassVar[str] = "betting.closed"


class OpenBetsError(TableProcedureError):
    """An action that needs the bettor to have no bet on the table (leaving, moving, switching variant, R28)."""

    code: ClassVar[str] = "bets.open"


class TiePermissionError(TableProcedureError):
    """A change to a bet kept in action after a tie that the house does not permit (R24)."""

    code: ClassVar[str] = "tie.not_permitted"


class VariantSwitchError(TableProcedureError):
    """A switch of variant the table does not offer (R28)."""

    code: ClassVar[str] = "variant.not_offered"


class CardNotDue(TableProcedureError):
    """A card that is not due, or a deal while cards wait to be turned (R11, R18, R23)."""

    code: ClassVar[str] = "card.not_due"


class SqueezeError(TableProcedureError):
    """A reveal or hand-over by someone who does not hold the squeeze (R23)."""

    code: ClassVar[str] = "squeeze.not_yours"


# --- state --------------------------------------------------------------------------------------


class Phase(StrEnum):
    """Where the table is in a round."""

    IDLE = "idle"  # between rounds: open betting next
    BETTING = "betting"  # bets are taken
    DEALING = "dealing"  # betting closed: cards are dealt (and turned, with squeeze)


@dataclass(slots=True)
class TableBettor:
    """A bettor at the table: money at the table (minor units), seat (``None``: standing), variant played,
    and commission owed to the commission box (R27)."""

    id: str
    balance: int
    seat: int | None
    variant: str
    owed: int = 0

    @property
    def available(self) -> int:
        """What the bettor may stake: the balance less the commission owed."""
        return self.balance - self.owed


@dataclass(slots=True)
class TableBet:
    """One bettor's bet on one bet kind. ``carried`` is the part kept in action after a tie (R24)."""

    bettor: str
    kind: BetKind
    stake: int
    spot: int | None
    carried: int = 0


@dataclass(slots=True)
class TableState:
    """Everything the event log determines; two tables with equal logs have equal states.

    Money: each bettor's balance, the stakes on the table, and the house's result always add up to
    what came in less what went out (``bought_in - paid_out``).
    """

    bettors: dict[str, TableBettor] = field(default_factory=dict)
    bets: dict[tuple[str, BetKind], TableBet] = field(default_factory=dict)
    phase: Phase = Phase.IDLE
    round: int = 0
    demo: bool = False
    commitment: str | None = None
    shoe_number: int = 0
    coup_number: int = 0  # coups dealt in this shoe (demonstration and voided coups with cards included)
    shoe_over: bool = True
    cut_card_at: int | None = None  # the coup during which the cut card came out
    burned: int = 0  # cards burned from this shoe by a dealer-entry table (R4), seen or not
    shoe_cards: Counter[Card] = field(default_factory=Counter)  # cards entered from this shoe
    coup: CoupDealer = field(default_factory=CoupDealer)
    face_down: set[Position] = field(default_factory=set)
    squeezers: dict[Side, str | None] = field(default_factory=dict)
    reveal_since: float = 0.0
    clock: float = 0.0
    house: int = 0
    bought_in: int = 0
    paid_out: int = 0
    bet_ids: dict[str, tuple[str, BetKind, int, int | None]] = field(default_factory=dict)
    results: list[Winner] = field(default_factory=list)  # the scoreboard: every coup with bets allowed
    net: int = 0  # all Banker bets less all Player bets, kept up to date as bets change (R21)

    @property
    def on_table(self) -> int:
        """All stakes on the table."""
        return sum(bet.stake for bet in self.bets.values())

    @property
    def in_play(self) -> int:
        """Balances, stakes on the table and the house's result: always ``bought_in - paid_out``."""
        return sum(b.balance for b in self.bettors.values()) + self.on_table + self.house

    def exposure(self) -> int:
        """All Banker bets less all Player bets (R21), in constant time."""
        return self.net

    def _moved(self, kind: BetKind, delta: int) -> None:
        """Keep :attr:`net` up to date: the stake on ``kind`` changed by ``delta``."""
        if kind is BetKind.BANKER:
            self.net += delta
        elif kind is BetKind.PLAYER:
            self.net -= delta

    @property
    def reveal_due(self) -> Side | None:
        """The side whose face-down cards are to be turned now (Player's first, R11), if any."""
        if len(self.coup.cards) < 4 or not self.face_down:
            return None
        return Side.PLAYER if any(p.side is Side.PLAYER for p in self.face_down) else Side.BANKER


_ALL_POSITIONS = tuple(Position)


# --- the table ----------------------------------------------------------------------------------


class Table:
    """One baccarat table (see the module docstring). Read its state; change it only through actions.

    ``source`` is the random source of the table's shoes (automatic deal source); ``dealer`` may be
    given instead (a :class:`~baccarat.dealing.ShoeDealer` with the table's shoe settings).

    ``bet_id`` of :meth:`place_bet` makes a repeated placement a no-op. The table remembers those ids
    for its whole life by default; with ``round_bet_ids`` it forgets them when a round ends (settled
    or voided), so memory stays bounded and an id is a no-op only within its round (a server that
    stores the ids catches a reuse in a later round itself).
    """

    def __init__(
        self,
        config: TableConfig | None = None,
        *,
        source: RandomSource | None = None,
        dealer: ShoeDealer | None = None,
        keep_log: bool = True,
        round_bet_ids: bool = False,
    ) -> None:
        self.config = config or TableConfig()
        self.state = TableState()
        self._log: list[TableEvent] = []
        #: whether :attr:`events` keeps every event (a server that stores them elsewhere keeps none)
        self.keep_log = keep_log
        #: whether bet ids are forgotten when a round ends (see above)
        self.round_bet_ids = round_bet_ids
        self._dealer: ShoeDealer | None = None
        if self.config.deal_source is DealSource.AUTOMATIC:
            self._dealer = dealer or ShoeDealer(self.config.shoe, source=source)
            if self._dealer.config != self.config.shoe:
                raise InputError(
                    "the dealer's shoe settings differ from the table's",
                    hint="pass config.shoe",
                    code="config.invalid",
                    params={"setting": "shoe"},
                )
        self._dealt: DealtCoup | None = None

    def reconfigure(self, config: TableConfig) -> None:
        """Take new settings between rounds (the house changed the limits or the timing): the shoe,
        how cards reach the table and the seats stay as they are. The settings are not events: a
        table rebuilt from its log is given the settings in force."""
        if self.state.phase is not Phase.IDLE:
            raise PhaseError(
                f"round {self.state.round} is in progress",
                hint="change the settings between rounds",
                code="round.in_progress",
                params={"round": self.state.round, "phase": self.state.phase},
            )
        kept = ("shoe", "deal_source", "seats")
        if any(getattr(config, name) != getattr(self.config, name) for name in kept):
            raise InputError(
                "the new settings change the shoe, the deal or the seats",
                hint="change only limits and timing while the table runs",
                code="config.invalid",
                params={"setting": "shoe"},
            )
        self.config = config

    # --- reading --------------------------------------------------------------------------------

    @property
    def events(self) -> tuple[TableEvent, ...]:
        """The event log, oldest first (empty for a table made with ``keep_log=False``)."""
        return tuple(self._log)

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def round(self) -> int:
        """The current (or last) round's number; 0 before the first."""
        return self.state.round

    @property
    def last_coup(self) -> bool:
        """Whether the coup in progress (between coups: the next one) is the shoe's last (R6)."""
        return self._is_last(self._dealt if self.state.phase is not Phase.IDLE else None)

    @property
    def due(self) -> Position | None:
        """The position of the next card to deal, or ``None`` (no coup in progress, or cards wait to be turned)."""
        if self.state.phase is not Phase.DEALING or self.state.reveal_due is not None:
            return None
        return self.state.coup.due

    @property
    def reveal_due(self) -> Side | None:
        """The side whose cards wait to be turned (R23)."""
        return self.state.reveal_due if self.state.phase is Phase.DEALING else None

    def squeezer(self, side: Side) -> str | None:
        """Who turns ``side``'s cards in this round (``None``: the dealer)."""
        return self.state.squeezers.get(side)

    def squeeze_cards(self, bettor: str) -> dict[str, str]:
        """The face-down cards this bettor squeezes (R23), by position: theirs to peel, and no one
        else's to see until they are turned.

        >>> table = Table(TableConfig(deal_source=DealSource.DEALER_ENTRY, min_bet=100))
        >>> table.squeeze_cards("ann")
        {}
        """
        state = self.state
        return {
            p.value: str(state.coup.cards[p])
            for p in _ALL_POSITIONS
            if p in state.face_down and state.squeezers.get(p.side) == bettor
        }

    def bettor(self, bettor: str) -> TableBettor:
        """A bettor at the table (refuses an unknown one)."""
        found = self.state.bettors.get(bettor)
        if found is None:
            raise BettorError(f"{bettor!r} is not at the table", hint="join the table first", params={"bettor": bettor})
        return found

    def balance(self, bettor: str) -> int:
        """The bettor's money at the table, not counting stakes on the table."""
        return self.bettor(bettor).balance

    def owed(self, bettor: str) -> int:
        """Commission the bettor owes to the commission box (R27)."""
        return self.bettor(bettor).owed

    def bets_of(self, bettor: str) -> list[TableBet]:
        """The bettor's bets on the table."""
        return [bet for bet in self.state.bets.values() if bet.bettor == bettor]

    def seat_of(self, seat: int) -> str | None:
        """Who sits at ``seat``."""
        return next((b.id for b in self.state.bettors.values() if b.seat == seat), None)

    def public_state(self) -> dict[str, Any]:
        """What every client may see now, as JSON data (cards lying face down are ``None``).

        >>> table = Table(TableConfig(deal_source=DealSource.DEALER_ENTRY, min_bet=100))
        >>> _ = table.join("ann", balance=1_000, seat=3)
        >>> state = table.public_state()
        >>> state["phase"], state["bettors"]
        ('idle', [{'id': 'ann', 'seat': 3, 'balance': 1000, 'owed': 0, 'variant': 'macau'}])
        """
        state = self.state
        return {
            "phase": state.phase.value,
            "round": state.round,
            "demo": state.demo,
            "commitment": state.commitment,
            "shoe_number": state.shoe_number,
            "coup_number": state.coup_number,
            "shoe_over": state.shoe_over,
            "bettors": [
                {"id": b.id, "seat": b.seat, "balance": b.balance, "owed": b.owed, "variant": b.variant}
                for b in state.bettors.values()
            ],
            "bets": [
                {"bettor": b.bettor, "bet": b.kind.value, "stake": b.stake, "spot": b.spot, "carried": b.carried}
                for b in state.bets.values()
            ],
            "exposure": state.exposure(),
            "cards": {
                p.value: (None if p in state.face_down else str(state.coup.cards[p]))
                for p in _ALL_POSITIONS
                if p in state.coup.cards
            },
            "due": None if self.due is None else self.due.value,
            "reveal_due": None if self.reveal_due is None else self.reveal_due.value,
            "squeezers": {side.value: who for side, who in state.squeezers.items()},
            "results": [w.value for w in state.results],
        }

    # --- replay ---------------------------------------------------------------------------------

    @classmethod
    def replay(
        cls,
        config: TableConfig,
        events: Iterable[TableEvent | Mapping[str, Any]],
        *,
        source: RandomSource | None = None,
        dealer: ShoeDealer | None = None,
        keep_log: bool = True,
        round_bet_ids: bool = False,
    ) -> Table:
        """A table rebuilt from an event log (events or their :meth:`~TableEvent.to_dict` data).

        The state equals the live table's when ``round_bet_ids`` is the live table's too
        (``keep_log``, ``round_bet_ids``: see :class:`Table`). The shoe is not in the log (it would
        show the cards to come): a replayed automatic table deals from a new shoe, so a round left
        unfinished by the log is voided (R18) before play goes on.
        """
        table = cls(config, source=source, dealer=dealer, keep_log=keep_log, round_bet_ids=round_bet_ids)
        table._replay(events)
        return table

    def _replay(self, events: Iterable[TableEvent | Mapping[str, Any]]) -> None:
        for event in events:
            self._emit(event if isinstance(event, TableEvent) else event_from_dict(dict(event)))

    def snapshot(self) -> dict[str, Any]:
        """The table's whole state as JSON data, between rounds only (``format``: :data:`SNAPSHOT_FORMAT`).

        :meth:`from_snapshot` rebuilds an equal state from it, so a table with a long life is rebuilt
        from its last snapshot and the events after it instead of its whole log. Bettors, bets and
        bet ids keep their order. Like the log, a snapshot holds no shoe.

        >>> table = Table(TableConfig(deal_source=DealSource.DEALER_ENTRY, min_bet=100))
        >>> _ = table.join("ann", balance=1_000, seat=3, now=5)
        >>> data = table.snapshot()
        >>> data["format"], data["bettors"], data["clock"]
        (1, [{'id': 'ann', 'balance': 1000, 'seat': 3, 'variant': 'macau', 'owed': 0}], 5.0)
        >>> _ = table.open_betting(now=6)
        >>> table.snapshot()
        Traceback (most recent call last):
        ...
        baccarat.table.PhaseError: round 1 is in progress (betting): a snapshot is taken between rounds (take it once the round is settled or voided)
        """
        state = self.state
        if state.phase is not Phase.IDLE:
            raise PhaseError(
                f"round {state.round} is in progress ({state.phase.value}): a snapshot is taken between rounds",
                hint="take it once the round is settled or voided",
                code="round.in_progress",
                params={"round": state.round, "phase": state.phase},
            )
        return {
            "format": SNAPSHOT_FORMAT,
            "round": state.round,
            "clock": state.clock,
            "reveal_since": state.reveal_since,
            "shoe": {
                "number": state.shoe_number,
                "coups": state.coup_number,
                "over": state.shoe_over,
                "cut_card_at": state.cut_card_at,
                "cards": {str(card): count for card, count in state.shoe_cards.items()},
                "burned": state.burned,
            },
            "house": state.house,
            "bought_in": state.bought_in,
            "paid_out": state.paid_out,
            "bettors": [
                {"id": b.id, "balance": b.balance, "seat": b.seat, "variant": b.variant, "owed": b.owed}
                for b in state.bettors.values()
            ],
            "bets": [
                {"bettor": b.bettor, "kind": b.kind.value, "stake": b.stake, "spot": b.spot, "carried": b.carried}
                for b in state.bets.values()
            ],
            "bet_ids": {
                bet_id: [bettor, kind.value, amount, spot]
                for bet_id, (bettor, kind, amount, spot) in state.bet_ids.items()
            },
            "results": "".join(winner.letter for winner in state.results),
        }

    @classmethod
    def from_snapshot(
        cls,
        config: TableConfig,
        data: Mapping[str, Any],
        *,
        events: Iterable[TableEvent | Mapping[str, Any]] = (),
        source: RandomSource | None = None,
        dealer: ShoeDealer | None = None,
        keep_log: bool = True,
        round_bet_ids: bool = False,
    ) -> Table:
        """A table rebuilt from a :meth:`snapshot`, then the ``events`` that came after it replayed.

        The state equals the live table's, as with :meth:`replay` (and, as there, an automatic
        table deals from a new shoe). With ``keep_log``, :attr:`events` holds only the events
        replayed here. A snapshot of another format version, or data that is not a snapshot, is
        refused with :class:`SnapshotError` (rebuild from the whole log instead).
        """
        found = data.get("format") if isinstance(data, Mapping) else None
        if found != SNAPSHOT_FORMAT:
            raise SnapshotError(
                f"snapshot format {found!r} is not {SNAPSHOT_FORMAT}, the format this version reads",
                hint="rebuild the table with Table.replay from its whole event log",
                code="snapshot.format",
                params={"format": found, "expected": SNAPSHOT_FORMAT},
            )
        table = cls(config, source=source, dealer=dealer, keep_log=keep_log, round_bet_ids=round_bet_ids)
        try:
            table.state = _state_from_snapshot(data)
        except (KeyError, TypeError, ValueError, AttributeError, InputError) as error:
            detail = error.message if isinstance(error, InputError) else f"{type(error).__name__}: {error}"
            raise SnapshotError(
                f"the snapshot cannot be read ({detail})",
                hint="rebuild the table with Table.replay from its whole event log",
                params={"problem": detail},
            ) from None
        table._replay(events)
        return table

    # --- bettors --------------------------------------------------------------------------------

    def verify_join(
        self,
        bettor: str,
        *,
        balance: int,
        seat: int | None = None,
        variant: str | None = None,
        now: float | None = None,
    ) -> None:
        """Check that ``bettor`` may join with ``balance`` (seated at ``seat``, or standing)."""
        self._check_time(now)
        if not isinstance(bettor, str) or not bettor.strip():
            raise BettorError(
                f"bettor id {bettor!r} is empty",
                hint="give each bettor a non-empty id",
                code="bettor.invalid",
                params={"bettor": bettor},
            )
        if bettor in self.state.bettors:
            raise BettorError(
                f"{bettor!r} is already at the table",
                hint="use another id, or add_funds",
                code="bettor.already_at_table",
                params={"bettor": bettor},
            )
        _check_amount(balance, "buy-in", least=0)
        if seat is None:
            if not self.config.standing_bettors:
                raise SeatError(
                    "this table takes no standing bettors",
                    hint="choose a free seat",
                    code="seat.no_standing",
                    rule="R20",
                )
        else:
            self._check_free_seat(seat)
        if variant is not None and variant not in self.config.variants:
            raise VariantSwitchError(
                f"variant {variant!r} is not played at this table",
                hint=f"this table plays {', '.join(self.config.variants)}",
                rule="R28",
                params={"bettor": bettor, "variant": variant, "variants": ", ".join(self.config.variants)},
            )

    def join(
        self,
        bettor: str,
        *,
        balance: int,
        seat: int | None = None,
        variant: str | None = None,
        now: float | None = None,
    ) -> list[TableEvent]:
        """A bettor comes to the table with ``balance`` minor units (bought in), seated or standing."""
        self.verify_join(bettor, balance=balance, seat=seat, variant=variant, now=now)
        return self._emit_all(
            BettorJoined(
                at=self._at(now), bettor=bettor, balance=balance, seat=seat, variant=variant or self.config.variant
            )
        )

    def verify_add_funds(self, bettor: str, amount: int, *, now: float | None = None) -> None:
        """Check that ``bettor`` may bring ``amount`` more to the table."""
        self._check_time(now)
        self.bettor(bettor)
        _check_amount(amount, "amount", least=1)

    def add_funds(self, bettor: str, amount: int, *, now: float | None = None) -> list[TableEvent]:
        """The bettor brings ``amount`` more to the table."""
        self.verify_add_funds(bettor, amount, now=now)
        return self._emit_all(FundsAdded(at=self._at(now), bettor=bettor, amount=amount))

    def verify_sit(self, bettor: str, seat: int, *, now: float | None = None) -> None:
        """Check that ``bettor`` may take ``seat`` (a free seat; no bet of theirs on the table, R20)."""
        self._check_time(now)
        found = self.bettor(bettor)
        if found.seat == seat:
            raise SeatError(
                f"{bettor!r} already sits at seat {seat}",
                hint="choose another seat",
                code="seat.already_yours",
                rule="R20",
                params={"bettor": bettor, "seat": seat},
            )
        self._check_free_seat(seat)
        if self.bets_of(bettor):
            raise OpenBetsError(
                f"{bettor!r} has bets on the table and cannot move to seat {seat}",
                hint="a bet stays on its spot: move after the coup is settled",
                code="seat.bets_open",
                rule="R20",
                params={"bettor": bettor, "seat": seat},
            )

    def sit(self, bettor: str, seat: int, *, now: float | None = None) -> list[TableEvent]:
        """The bettor takes a free seat (from standing, or moving from another seat)."""
        self.verify_sit(bettor, seat, now=now)
        return self._emit_all(BettorSat(at=self._at(now), bettor=bettor, seat=seat))

    def verify_cash_out(self, bettor: str, amount: int | None = None, *, now: float | None = None) -> None:
        """Check that ``bettor`` may take ``amount`` (all that is available by default) from the table."""
        self._check_time(now)
        found = self.bettor(bettor)
        if amount is None:
            if found.available == 0 and found.owed == 0:
                raise FundsError(
                    f"{bettor!r} has nothing to cash out",
                    hint="the bettor's balance is 0",
                    code="cash_out.nothing",
                    params={"bettor": bettor},
                )
            return
        _check_amount(amount, "cash-out", least=1)
        if amount > found.available:
            raise FundsError(
                f"{bettor!r} cannot cash out {amount}: only {found.available} is available",
                hint=f"balance {found.balance} less commission owed {found.owed} (R27)",
                code="cash_out.insufficient",
                rule="R27",
                params={
                    "bettor": bettor,
                    "amount": amount,
                    "available": found.available,
                    "balance": found.balance,
                    "owed": found.owed,
                },
            )

    def cash_out(self, bettor: str, amount: int | None = None, *, now: float | None = None) -> list[TableEvent]:
        """The bettor pays the commission box what they owe (R27) and takes ``amount`` (default: all the rest)."""
        self.verify_cash_out(bettor, amount, now=now)
        found = self.bettor(bettor)
        take = found.available if amount is None else amount
        return self._emit_all(CashedOut(at=self._at(now), bettor=bettor, amount=take, commission=found.owed))

    def verify_leave(self, bettor: str, *, now: float | None = None) -> None:
        """Check that ``bettor`` may leave: no bet of theirs on the table."""
        self._check_time(now)
        self.bettor(bettor)
        bets = self.bets_of(bettor)
        if bets:
            kinds = ", ".join(bet.kind.value for bet in bets)
            raise OpenBetsError(
                f"{bettor!r} cannot leave with bets on the table ({kinds})",
                hint="cancel them while betting is open, or wait until the coup is settled",
                params={"bettor": bettor, "bets": kinds},
            )

    def leave(self, bettor: str, *, now: float | None = None) -> list[TableEvent]:
        """The bettor pays the commission box (R27), takes the rest and leaves the table."""
        self.verify_leave(bettor, now=now)
        found = self.bettor(bettor)
        return self._emit_all(
            BettorLeft(at=self._at(now), bettor=bettor, amount=found.available, commission=found.owed)
        )

    def verify_switch_variant(self, bettor: str, variant: str, *, now: float | None = None) -> None:
        """Check that ``bettor`` may switch to ``variant``: offered here, and no bet of theirs open (R28)."""
        self._check_time(now)
        found = self.bettor(bettor)
        if variant not in self.config.variants:
            raise VariantSwitchError(
                f"{bettor!r} cannot switch to {variant!r}: not played at this table",
                hint=f"this table plays {', '.join(self.config.variants)}",
                rule="R28",
                params={"bettor": bettor, "variant": variant, "variants": ", ".join(self.config.variants)},
            )
        if variant == found.variant:
            raise VariantSwitchError(
                f"{bettor!r} already plays {variant}",
                hint="nothing to switch",
                code="variant.same",
                rule="R28",
                params={"bettor": bettor, "variant": variant},
            )
        if self.bets_of(bettor):
            raise OpenBetsError(
                f"{bettor!r} has a bet open and cannot switch to {variant}",
                hint="R28: cancel the bets, or switch after they are settled",
                code="variant.bets_open",
                rule="R28",
                params={"bettor": bettor, "variant": variant},
            )

    def switch_variant(self, bettor: str, variant: str, *, now: float | None = None) -> list[TableEvent]:
        """The bettor switches between standard and no-commission play (R28)."""
        self.verify_switch_variant(bettor, variant, now=now)
        return self._emit_all(VariantSwitched(at=self._at(now), bettor=bettor, variant=variant))

    # --- the shoe -------------------------------------------------------------------------------

    def verify_change_shoe(self, *, now: float | None = None) -> None:
        """Check that the shoe may be changed: between coups (R6)."""
        self._check_time(now)
        if self.state.phase is not Phase.IDLE:
            raise PhaseError(
                f"round {self.state.round} is in progress",
                hint="change the shoe between coups: finish the round, or void it (R18)",
                code="round.in_progress",
                rule="R6",
                params={"round": self.state.round, "phase": self.state.phase},
            )

    def change_shoe(self, *, reason: str = "shoe changed by the house", now: float | None = None) -> list[TableEvent]:
        """Put a new shoe in play (R6: the house may change the shoe after any coup)."""
        self.verify_change_shoe(now=now)
        return self._emit_all(self._new_shoe(self._at(now), reason))

    def verify_burn(self, card: Card | str | None = None, *, now: float | None = None) -> tuple[int, Card | None]:
        """Check the burn of a dealer-entry table's new shoe by its method (R4): before the shoe's
        first coup and only once; method (b) needs the turned card. Returns how many cards are burned
        and the card turned (``None`` for methods (a) and (c))."""
        self._check_time(now)
        state, shoe = self.state, self.config.shoe
        if self.config.deal_source is not DealSource.DEALER_ENTRY or self.config.mode is DealingMode.CONTINUOUS:
            raise PhaseError(
                "this table burns its own shoe (or shuffles continuously, R8)",
                hint="only a dealer-entry shoe is burned by the dealer",
                code="burn.not_dealer_shoe",
                rule="R4",
            )
        if state.phase is not Phase.IDLE or state.shoe_over or state.coup_number > 0 or state.burned:
            raise PhaseError(
                "the burn comes once, after a new shoe is put in play and before its first coup",
                hint="put a new shoe in play first" if state.shoe_over else "this shoe is already under way",
                code="burn.not_now",
                rule="R4",
                params={"coup": state.coup_number, "burned": state.burned},
            )
        if shoe.burn is not BurnMethod.FIRST_CARD:
            if card is not None:
                raise CardError(
                    f"this table burns by method {shoe.burn.value}: no card is turned",
                    hint="burn without a card",
                    code="burn.no_card",
                    rule="R4",
                    params={"method": shoe.burn.value},
                )
            return (shoe.decks if shoe.burn is BurnMethod.DECKS else shoe.burn_count), None
        if card is None:
            raise CardError(
                "turn the first card and enter it: its value is how many cards are burned",
                hint="give the card turned, e.g. '7S'",
                code="burn.card_required",
                rule="R4",
            )
        turned = _card(card)  # a new shoe holds every card: none is exhausted yet
        return burn_value(turned), turned

    def can_burn(self, card: Card | str | None = None, *, now: float | None = None) -> bool:
        """Whether :meth:`burn` would be accepted."""
        return _ok(lambda: self.verify_burn(card, now=now))

    def burn(self, card: Card | str | None = None, *, now: float | None = None) -> list[TableEvent]:
        """Burn the new shoe's first cards (R4); the turned card of method (b) counts as dealt."""
        count, turned = self.verify_burn(card, now=now)
        return self._emit_all(
            ShoeBurned(at=self._at(now), shoe_number=self.state.shoe_number, count=count, card=turned)
        )

    def verify_mark_cut_card(self, *, now: float | None = None) -> None:
        """Check that the dealer may record the cut card coming out of a physical shoe (R6)."""
        self._check_time(now)
        if self.config.deal_source is not DealSource.DEALER_ENTRY:
            raise PhaseError(
                "this table deals its own shoe and sees the cut card itself",
                hint="nothing to record",
                code="cut_card.automatic",
            )
        if self.config.mode is DealingMode.CONTINUOUS:
            raise PhaseError(
                "a continuous shuffler has no cut card", hint="nothing to record", code="cut_card.continuous", rule="R8"
            )
        if self.state.shoe_over:
            raise PhaseError(
                "no shoe is in play", hint="open betting to start a new shoe", code="shoe.not_in_play", rule="R6"
            )
        if self.state.cut_card_at is not None:
            raise PhaseError(
                f"the cut card already came out in coup {self.state.cut_card_at}",
                code="cut_card.already_out",
                rule="R6",
                params={"coup": self.state.cut_card_at},
            )

    def mark_cut_card(self, *, now: float | None = None) -> list[TableEvent]:
        """The cut card came out of the physical shoe: the shoe ends after this coup or one more (R6).

        Between coups it counts for the coup just finished.
        """
        self.verify_mark_cut_card(now=now)
        state = self.state
        number = state.coup_number if state.phase is Phase.IDLE and state.coup_number else state.coup_number + 1
        return self._emit_all(CutCardOut(at=self._at(now), shoe_number=state.shoe_number, coup_number=number))

    # --- the round: betting ---------------------------------------------------------------------

    def verify_open_betting(self, *, now: float | None = None) -> None:
        """Check that a new round may start: no round in progress."""
        self._check_time(now)
        if self.state.phase is not Phase.IDLE:
            raise PhaseError(
                f"round {self.state.round} is still in progress ({self.state.phase.value})",
                hint="finish or void it first",
                code="round.in_progress",
                params={"round": self.state.round, "phase": self.state.phase},
            )

    def can_open_betting(self, *, now: float | None = None) -> bool:
        """Whether :meth:`open_betting` would be accepted."""
        return _ok(lambda: self.verify_open_betting(now=now))

    def open_betting(self, *, now: float | None = None) -> list[TableEvent]:
        """Start the next round and take bets; starts a new shoe when none is in play (R4, R6).

        A demonstration coup (R5) takes no bets. In pre-dealt mode the layout is set first and its
        commitment published (R19).
        """
        self.verify_open_betting(now=now)
        at = self._at(now)
        events: list[TableEvent] = []
        if self._needs_new_shoe():
            events += self._emit_all(self._new_shoe(at, "new shoe"))
        state = self.state
        commitment = None
        if self._dealer is not None:
            demo = self._dealer.next_is_demo
            if self.config.mode is DealingMode.PRE_DEALT:
                commitment = self._dealer.layout().commitment
        else:
            demo = self.config.mode is not DealingMode.CONTINUOUS and state.coup_number < self.config.shoe.demo_coups
        opened = BettingOpened(
            at=at,
            round=state.round + 1,
            shoe_number=state.shoe_number,
            coup_number=state.coup_number + 1,
            demo=demo,
            commitment=commitment,
        )
        return events + self._emit_all(opened)

    def verify_place_bet(
        self,
        bettor: str,
        kind: BetKind | str,
        stake: int,
        *,
        spot: int | None = None,
        bet_id: str | None = None,
        now: float | None = None,
    ) -> None:
        """Check a bet: betting open, a bet the variant offers, the bettor's spot (R20), the limits
        (R21, R22), the tie permissions (R24) and the bettor's funds. A ``bet_id`` already placed with
        the same bet passes (placing it again places nothing)."""
        self._check_time(now)
        found = self.bettor(bettor)
        kind = self._kind(kind, found)
        _check_amount(stake, f"{kind.value} stake", least=1)
        if bet_id is not None and self._repeat(bet_id, bettor, kind, stake, spot):
            return
        self._check_betting(f"a {kind.value} bet")
        self._spot(found, spot)
        bet = self.state.bets.get((bettor, kind))
        if bet is not None and bet.carried:
            self._check_permission(TiePermission.ADD, bet, "add to")
        new_stake = stake + (bet.stake if bet else 0)
        self._check_limits(found, {kind: new_stake})
        if stake > found.available:
            owed = f" (commission owed {found.owed} is not available, R27)" if found.owed else ""
            raise FundsError(
                f"{bettor!r} has {found.available} available and cannot stake {stake}{owed}",
                hint="bet less, or add funds",
                params={"bettor": bettor, "stake": stake, "available": found.available, "owed": found.owed},
            )

    def can_place_bet(
        self,
        bettor: str,
        kind: BetKind | str,
        stake: int,
        *,
        spot: int | None = None,
        bet_id: str | None = None,
        now: float | None = None,
    ) -> bool:
        """Whether :meth:`place_bet` would be accepted."""
        return _ok(lambda: self.verify_place_bet(bettor, kind, stake, spot=spot, bet_id=bet_id, now=now))

    def place_bet(
        self,
        bettor: str,
        kind: BetKind | str,
        stake: int,
        *,
        spot: int | None = None,
        bet_id: str | None = None,
        now: float | None = None,
    ) -> list[TableEvent]:
        """Move ``stake`` from the bettor to their bet on ``kind`` (added to any bet already there).

        ``spot`` is the seat whose box the chips go in (default: the bettor's own seat, or the standing
        bettors' area). ``bet_id`` is the client's id for this placement: the same id again places
        nothing and returns no event.
        """
        self.verify_place_bet(bettor, kind, stake, spot=spot, bet_id=bet_id, now=now)
        found = self.bettor(bettor)
        kind = self._kind(kind, found)
        if bet_id is not None and bet_id in self.state.bet_ids:
            return []
        bet = self.state.bets.get((bettor, kind))
        return self._emit_all(
            BetPlaced(
                at=self._at(now),
                round=self.state.round,
                bettor=bettor,
                kind=kind,
                amount=stake,
                stake=stake + (bet.stake if bet else 0),
                spot=found.seat,
                bet_id=bet_id,
            )
        )

    def verify_cancel_bet(
        self, bettor: str, kind: BetKind | str, *, amount: int | None = None, now: float | None = None
    ) -> None:
        """Check taking back ``amount`` (default: all) of a bet while betting is open: what is left
        must keep the limits (R21, R22), and a bet kept after a tie needs the house's permission (R24)."""
        self._check_time(now)
        found = self.bettor(bettor)
        kind = self._kind(kind, found)
        self._check_betting(f"cancelling the {kind.value} bet")
        bet = self._bet(bettor, kind)
        take = bet.stake if amount is None else amount
        _check_amount(take, "amount to take back", least=1)
        if take > bet.stake:
            raise BetNotOffered(
                f"{bettor!r} has only {bet.stake} on {kind.value}",
                hint=f"take back at most {bet.stake}",
                code="bet.over_stake",
                params={"bettor": bettor, "bet": kind, "stake": bet.stake, "amount": take},
            )
        left = bet.stake - take
        if bet.carried and left == 0:
            self._check_permission(TiePermission.WITHDRAW, bet, "withdraw")
        elif bet.carried and left < bet.carried:
            self._check_permission(TiePermission.REDUCE, bet, "reduce")
        self._check_limits(found, {kind: left})

    def cancel_bet(
        self, bettor: str, kind: BetKind | str, *, amount: int | None = None, now: float | None = None
    ) -> list[TableEvent]:
        """Take back ``amount`` (default: all) of the bettor's bet on ``kind`` while betting is open."""
        self.verify_cancel_bet(bettor, kind, amount=amount, now=now)
        kind = self._kind(kind, self.bettor(bettor))
        bet = self._bet(bettor, kind)
        take = bet.stake if amount is None else amount
        return self._emit_all(
            BetCancelled(
                at=self._at(now), round=self.state.round, bettor=bettor, kind=kind, amount=take, stake=bet.stake - take
            )
        )

    def verify_switch_bet(self, bettor: str, kind: BetKind | str, *, now: float | None = None) -> None:
        """Check moving a Banker bet to Player or back while betting is open (limits, R24 permission)."""
        self._check_time(now)
        found = self.bettor(bettor)
        kind = self._kind(kind, found)
        self._check_betting(f"switching the {kind.value} bet")
        other = _OTHER_SIDE.get(kind)
        if other is None:
            raise BetNotOffered(
                f"a {kind.value} bet has no other side",
                hint="switch a banker or player bet",
                code="bet.no_other_side",
                params={"bet": kind},
            )
        bet = self._bet(bettor, kind)
        self._kind(other, found)
        if (bettor, other) in self.state.bets:
            raise BetNotOffered(
                f"{bettor!r} already has a {other.value} bet",
                hint=f"add to it, or cancel the {kind.value} bet",
                code="bet.other_side_taken",
                params={"bettor": bettor, "bet": kind, "other": other},
            )
        if bet.carried:
            self._check_permission(TiePermission.SWITCH, bet, "switch")
        self._check_limits(found, {kind: 0, other: bet.stake})

    def switch_bet(self, bettor: str, kind: BetKind | str, *, now: float | None = None) -> list[TableEvent]:
        """Move the bettor's Banker bet to Player, or Player to Banker (after a tie under ``stay``, R24)."""
        self.verify_switch_bet(bettor, kind, now=now)
        kind = self._kind(kind, self.bettor(bettor))
        bet = self._bet(bettor, kind)
        return self._emit_all(
            BetSwitched(
                at=self._at(now),
                round=self.state.round,
                bettor=bettor,
                kind=kind,
                to=_OTHER_SIDE[kind],
                stake=bet.stake,
            )
        )

    def verify_close_betting(self, *, now: float | None = None) -> None:
        """Check that betting is open."""
        self._check_time(now)
        self._check_betting("closing betting", bet=False)

    def can_close_betting(self, *, now: float | None = None) -> bool:
        """Whether :meth:`close_betting` would be accepted."""
        return _ok(lambda: self.verify_close_betting(now=now))

    def close_betting(self, *, now: float | None = None) -> list[TableEvent]:
        """No more bets. With squeeze on, the seated bettor with the largest Banker bet turns Banker's
        cards, and likewise for Player (equal bets: the lower seat number); standing bettors never do (R23)."""
        self.verify_close_betting(now=now)
        squeezers: dict[Side, str | None] = {Side.PLAYER: None, Side.BANKER: None}
        if self.config.squeeze and not self.state.demo:
            for side in Side:
                squeezers[side] = self._largest_seated(BetKind(side.value))
        return self._emit_all(
            BettingClosed(
                at=self._at(now),
                round=self.state.round,
                player_squeezer=squeezers[Side.PLAYER],
                banker_squeezer=squeezers[Side.BANKER],
            )
        )

    # --- the round: cards -----------------------------------------------------------------------

    def verify_deal_card(
        self,
        card: Card | str | None = None,
        *,
        position: Position | None = None,
        exposed: bool = False,
        now: float | None = None,
    ) -> None:
        """Check the next card: betting closed, the card due (R11–R16, R18), no card waiting to be
        turned (R23). A dealer-entry table needs the card; an automatic table deals its own."""
        self._check_time(now)
        state = self.state
        if state.phase is not Phase.DEALING:
            hint = "close betting first" if state.phase is Phase.BETTING else "open betting for a new round first"
            raise PhaseError(
                f"no coup is being dealt ({state.phase.value})",
                hint=hint,
                code="round.not_dealing",
                params={"phase": state.phase},
            )
        due = state.coup.due
        if due is None:  # pragma: no cover - a complete coup is settled at once
            raise CardNotDue("no card is due: the coup is complete", rule="R18")
        waiting = state.reveal_due
        if waiting is not None:
            raise CardNotDue(
                f"{due.label} is not due yet: {waiting.label}'s cards are still face down",
                hint=f"{self._holder_name(waiting)} turns them first (R23)",
                code="card.reveal_first",
                rule="R23",
                params={"position": due, "side": waiting, "holder": state.squeezers.get(waiting)},
            )
        if position is not None and position is not due:
            raise CardNotDue(
                f"{position.label} is not due: the next card is {due.label}",
                hint="deal the cards in order (R11, R16), or void the coup if they cannot be corrected",
                rule="R18",
                params={"position": position, "due": due},
            )
        if self._dealer is not None:
            if card is not None or exposed:
                raise CardNotDue(
                    "this table deals from its own shoe and takes no entered card",
                    hint="call deal_card() without a card, or use a dealer-entry table",
                    code="table.not_dealer_entry",
                    rule="R18",
                )
            return
        if card is None:
            raise CardNotDue(
                f"{due.label} is due: enter the card",
                hint="give the card, e.g. 'AS'",
                code="card.required",
                rule="R18",
                params={"position": due},
            )
        entered = _card(card)
        composition = self.config.shoe.full_composition()
        if state.shoe_cards[entered] >= composition.count(entered):
            raise CardError(
                f"{entered} cannot come out again: this shoe holds {composition.count(entered)} and all were dealt",
                hint="check the card; void the coup if it cannot be corrected",
                code="card.exhausted",
                rule="R18",
                params={"card": str(entered), "count": composition.count(entered)},
            )

    def can_deal_card(
        self,
        card: Card | str | None = None,
        *,
        position: Position | None = None,
        exposed: bool = False,
        now: float | None = None,
    ) -> bool:
        """Whether :meth:`deal_card` would be accepted."""
        return _ok(lambda: self.verify_deal_card(card, position=position, exposed=exposed, now=now))

    def deal_card(
        self,
        card: Card | str | None = None,
        *,
        position: Position | None = None,
        exposed: bool = False,
        now: float | None = None,
    ) -> list[TableEvent]:
        """Deal the card that is due: entered by the dealer (``card``; ``exposed`` for a card that came
        out face up, R9), or from the table's shoe. Settles the coup when its last card is face up."""
        self.verify_deal_card(card, position=position, exposed=exposed, now=now)
        at = self._at(now)
        state = self.state
        due = state.coup.due
        assert due is not None
        events: list[TableEvent] = []
        if self._dealer is not None:
            if self._dealt is None:
                self._dealt = self._dealer.next_coup()
                if self._dealt.cut_card_out and state.cut_card_at is None:
                    events += self._emit_all(
                        CutCardOut(at=at, shoe_number=state.shoe_number, coup_number=state.coup_number + 1)
                    )
            entered = self._dealt.result.cards[len(state.coup.cards)]
        else:
            entered = _card(card)
        holder = state.squeezers.get(due.side)
        face_down = self.config.squeeze and holder is not None and not exposed
        events += self._emit_all(
            CardDealt(at=at, round=state.round, position=due, card=entered, face_down=face_down, exposed=exposed)
        )
        return events + self._settle_if_done(at)

    def verify_correct_card(self, card: Card | str, *, now: float | None = None) -> tuple[Position, Card, Card]:
        """Check a correction of the last card entered on a dealer-entry table before the next card is
        drawn (R18): a coup being dealt with a card in it, and ``card`` a different card the shoe still
        holds. Returns the position, the card it replaces and the corrected card."""
        self._check_time(now)
        state = self.state
        if self._dealer is not None:
            raise CardNotDue(
                "this table deals from its own shoe: there is no entered card to correct",
                hint="void the coup if its cards are wrong",
                code="table.not_dealer_entry",
                rule="R18",
            )
        entered = list(state.coup.cards.items())
        if state.phase is not Phase.DEALING or not entered:
            raise PhaseError(
                "no card of this coup to correct",
                hint="a card can be corrected after it is entered and before the next one",
                code="card.none_to_correct",
                rule="R18",
            )
        position, replaced = entered[-1]
        corrected = _card(card)
        if corrected == replaced:
            raise CardError(
                f"{position.label} already holds {corrected}",
                hint="enter the card that should be there",
                code="card.same",
                rule="R18",
                params={"position": position, "card": str(corrected)},
            )
        count = self.config.shoe.full_composition().count(corrected)
        if state.shoe_cards[corrected] >= count:
            raise CardError(
                f"{corrected} cannot come out again: this shoe holds {count} and all were dealt",
                hint="check the card; void the coup if it cannot be corrected",
                code="card.exhausted",
                rule="R18",
                params={"card": str(corrected), "count": count},
            )
        return position, replaced, corrected

    def can_correct_card(self, card: Card | str, *, now: float | None = None) -> bool:
        """Whether :meth:`correct_card` would be accepted."""
        return _ok(lambda: self.verify_correct_card(card, now=now))

    def correct_card(self, card: Card | str, *, now: float | None = None) -> list[TableEvent]:
        """Correct the last card entered (R18); settles the coup when the corrected card completes it."""
        position, replaced, corrected = self.verify_correct_card(card, now=now)
        at = self._at(now)
        state = self.state
        face_down = position in state.face_down
        event = CardCorrected(
            at=at, round=state.round, position=position, card=corrected, replaced=replaced, face_down=face_down
        )
        return self._emit_all(event) + self._settle_if_done(at)

    def verify_deal(self, *, now: float | None = None) -> None:
        """Check that an automatic table can deal its next card."""
        self.verify_deal_card(now=now)

    def deal(self, *, now: float | None = None) -> list[TableEvent]:
        """Deal every card that is due from the table's shoe, up to the end of the coup (settled) or a
        card that waits for its squeezer (R23)."""
        self.verify_deal(now=now)
        events: list[TableEvent] = []
        while self.can_deal_card(now=now):
            events += self.deal_card(now=now)
        return events

    def verify_reveal(self, side: Side | str, *, by: str | None = None, now: float | None = None) -> None:
        """Check that ``by`` (a bettor; ``None``: the dealer) may turn ``side``'s face-down cards now:
        Player's first (R11); the squeezer, or the dealer when no bettor holds the squeeze or after
        ``squeeze_seconds`` (R23)."""
        self._check_time(now)
        side = _side(side)
        state = self.state
        if state.phase is not Phase.DEALING:
            raise PhaseError(
                "no coup is being dealt",
                hint="cards are turned after betting closes",
                code="round.not_dealing",
                params={"phase": state.phase},
            )
        waiting = state.reveal_due
        if waiting is None:
            dealt = "are still being dealt" if len(state.coup.cards) < 4 else "lie face up"
            raise SqueezeError(
                f"no card waits to be turned: {side.label}'s cards {dealt}",
                code="squeeze.none_face_down",
                rule="R23",
                params={"side": side},
            )
        if waiting is not side:
            raise SqueezeError(
                f"{waiting.label}'s cards are turned first",
                hint=f"turn {waiting.label}'s cards",
                code="squeeze.order",
                rule="R11",
                params={"side": side, "first": waiting},
            )
        holder = state.squeezers.get(side)
        if by is None:
            if holder is None:
                return
            left = state.reveal_since + self.config.squeeze_seconds - self._at(now)
            if left > 0:
                raise SqueezeError(
                    f"{holder!r} squeezes {side.label}'s cards for {left:g} s more",
                    hint="the dealer turns them when the squeeze time is up (R23)",
                    code="squeeze.time_left",
                    rule="R23",
                    params={"holder": holder, "side": side, "seconds": left},
                )
            return
        if by != holder:
            who = "the dealer" if holder is None else repr(holder)
            raise SqueezeError(
                f"{by!r} does not squeeze {side.label}'s cards: {who} does",
                rule="R23",
                params={"bettor": by, "side": side, "holder": holder},
            )

    def reveal(self, side: Side | str, *, by: str | None = None, now: float | None = None) -> list[TableEvent]:
        """Turn ``side``'s face-down cards (a third card is turned on its own, R23); settles the coup
        when its last card is face up."""
        self.verify_reveal(side, by=by, now=now)
        at = self._at(now)
        side = _side(side)
        state = self.state
        events: list[TableEvent] = []
        for position in _ALL_POSITIONS:
            if position in state.face_down and position.side is side:
                card = state.coup.cards[position]
                events += self._emit_all(CardRevealed(at=at, round=state.round, position=position, card=card, by=by))
        return events + self._settle_if_done(at)

    def verify_hand_over(
        self, bettor: str, side: Side | str, *, to: str | None = None, now: float | None = None
    ) -> None:
        """Check that ``bettor`` holds ``side``'s squeeze and may name ``to``: another seated bettor
        with a bet in this round, or the dealer (``None``) (R23)."""
        self._check_time(now)
        side = _side(side)
        state = self.state
        if state.phase is not Phase.DEALING:
            raise PhaseError(
                "no coup is being dealt",
                hint="the squeeze is handed over after betting closes",
                code="round.not_dealing",
                params={"phase": state.phase},
            )
        holder = state.squeezers.get(side)
        if holder != bettor:
            who = "the dealer" if holder is None else repr(holder)
            raise SqueezeError(
                f"{bettor!r} does not squeeze {side.label}'s cards: {who} does",
                rule="R23",
                params={"bettor": bettor, "side": side, "holder": holder},
            )
        if to is None:
            return
        if to == bettor:
            raise SqueezeError(
                f"{bettor!r} already squeezes {side.label}'s cards",
                code="squeeze.already_yours",
                rule="R23",
                params={"bettor": bettor, "side": side},
            )
        target = self.bettor(to)
        if target.seat is None:
            raise SqueezeError(
                f"{to!r} is standing: standing bettors never squeeze",
                code="squeeze.standing",
                rule="R23",
                params={"bettor": to},
            )
        if not self.bets_of(to):
            raise SqueezeError(
                f"{to!r} has no bet in this round",
                hint="name a seated bettor with a bet",
                code="squeeze.no_bet",
                rule="R23",
                params={"bettor": to},
            )

    def hand_over(
        self, bettor: str, side: Side | str, *, to: str | None = None, now: float | None = None
    ) -> list[TableEvent]:
        """The squeezer hands the right to turn ``side``'s cards to ``to`` (``None``: the dealer, R23)."""
        self.verify_hand_over(bettor, side, to=to, now=now)
        return self._emit_all(
            SqueezeHandedOver(at=self._at(now), round=self.state.round, side=_side(side), bettor=bettor, to=to)
        )

    def verify_void(self, *, now: float | None = None) -> None:
        """Check that there is a round to void (R18)."""
        self._check_time(now)
        if self.state.phase is Phase.IDLE:
            raise PhaseError(
                "no round is in progress", hint="there is nothing to void", code="round.not_in_progress", rule="R18"
            )

    def void(self, *, reason: str = "misdeal", now: float | None = None) -> list[TableEvent]:
        """Void the round (R18): every bet on the table is returned in full; cards dealt are spent."""
        self.verify_void(now=now)
        state = self.state
        refunds = tuple(Refund(bettor=b.bettor, kind=b.kind, stake=b.stake) for b in state.bets.values())
        dealt, self._dealt = self._dealt, None
        layout = dealt.layout if dealt is not None else None
        last = bool(state.coup.cards) and self._is_last(dealt)
        return self._emit_all(
            RoundVoided(
                at=self._at(now),
                round=state.round,
                reason=reason,
                refunds=refunds,
                last=last,
                layout=layout.cards if layout else (),
                nonce=layout.nonce if layout else None,
            )
        )

    # --- internals: checks ----------------------------------------------------------------------

    def _check_time(self, now: float | None) -> None:
        if now is not None and now < self.state.clock:
            raise ClockError(
                f"time {now:g} is before the table's last event at {self.state.clock:g}",
                hint="table time never goes back",
                params={"now": now, "clock": self.state.clock},
            )

    def _at(self, now: float | None) -> float:
        return self.state.clock if now is None else float(now)

    def _check_free_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.config.seats:
            raise SeatError(
                f"seat {seat!r} is not at this table",
                hint=f"seats are 1 to {self.config.seats}",
                rule="R20",
                params={"seat": seat, "seats": self.config.seats},
            )
        taken = self.seat_of(seat)
        if taken is not None:
            raise SeatError(
                f"seat {seat} is taken by {taken!r}",
                hint="choose a free seat, or stand",
                code="seat.taken",
                rule="R20",
                params={"seat": seat, "bettor": taken},
            )

    def _check_betting(self, what: str, *, bet: bool = True) -> None:
        state = self.state
        if state.phase is not Phase.BETTING:
            when = f"closed for round {state.round}" if state.phase is Phase.DEALING else "not open"
            raise BettingClosedError(
                f"betting is {when}: {what} is refused",
                hint="wait for the next round",
                params={"round": state.round, "phase": state.phase, "action": what},
            )
        if bet and state.demo:
            raise BettingClosedError(
                f"coup {state.coup_number + 1} is a demonstration coup and takes no bets: {what} is refused",
                hint="bet from the first coup after the demonstration coups",
                code="betting.demo_coup",
                rule="R5",
                params={"coup": state.coup_number + 1, "action": what},
            )

    def _kind(self, kind: BetKind | str, bettor: TableBettor) -> BetKind:
        if not isinstance(kind, BetKind):
            try:
                kind = parse_bet_kind(str(kind))
            except InputError as error:
                raise BetNotOffered(
                    error.message, hint=error.hint, code="bet.unknown", params={"bet": str(kind)}
                ) from None
        variant = self.config.get_variant(bettor.variant)
        if not variant.offers(kind):
            raise BetNotOffered(
                f"{bettor.id!r} plays {variant.name}, which does not offer {kind.value} ({kind.english})",
                hint=f"bets: {', '.join(k.value for k in variant.bets)}",
                params={"bettor": bettor.id, "bet": kind, "variant": variant.name},
            )
        return kind

    def _bet(self, bettor: str, kind: BetKind) -> TableBet:
        bet = self.state.bets.get((bettor, kind))
        if bet is None:
            raise BetNotOffered(
                f"{bettor!r} has no {kind.value} bet on the table",
                hint="place one first",
                code="bet.not_placed",
                params={"bettor": bettor, "bet": kind},
            )
        return bet

    def _repeat(self, bet_id: str, bettor: str, kind: BetKind, stake: int, spot: int | None) -> bool:
        seen = self.state.bet_ids.get(bet_id)
        if seen is None:
            return False
        found = self.state.bettors[bettor]
        if seen != (bettor, kind, stake, found.seat if spot is None else spot):
            raise BetNotOffered(
                f"bet id {bet_id!r} was already used for another bet",
                hint="give each new bet a new id; send the same bet again with the same id",
                code="bet.id_reused",
                params={"bet_id": bet_id},
            )
        return True

    def _spot(self, bettor: TableBettor, spot: int | None) -> None:
        if spot is None or spot == bettor.seat:
            return
        if isinstance(spot, bool) or not isinstance(spot, int) or not 1 <= spot <= self.config.seats:
            raise SpotError(
                f"spot {spot!r} is not on this table",
                hint=f"spots are seats 1 to {self.config.seats}",
                code="spot.invalid",
                params={"spot": spot, "seats": self.config.seats},
            )
        owner = self.seat_of(spot)
        params = {"bettor": bettor.id, "spot": spot, "seat": bettor.seat, "owner": owner}
        if bettor.seat is None and owner is not None:
            raise SpotError(
                f"{bettor.id!r} is standing and may not bet on seat {spot}'s spot, which belongs to {owner!r}",
                hint="standing bettors bet in the standing area (spot None)",
                rule="R20",
                params=params,
            )
        if bettor.seat is None:
            raise SpotError(
                f"{bettor.id!r} is standing and seat {spot}'s spot is for a seated player",
                hint=f"sit at seat {spot} to bet there, or bet in the standing area (spot None)",
                rule="R20",
                params=params,
            )
        raise SpotError(
            f"{bettor.id!r} sits at seat {bettor.seat} and may not bet on seat {spot}'s spot",
            hint="bet on your own spot",
            rule="R20",
            params=params,
        )

    def _check_permission(self, permission: TiePermission, bet: TableBet, verb: str) -> None:
        if self.config.on_tie is TiePolicy.STAY and permission not in self.config.tie_permissions:
            allowed = ", ".join(sorted(p.value for p in self.config.tie_permissions)) or "nothing"
            raise TiePermissionError(
                f"the {bet.kind.value} bet of {bet.bettor!r} stays in action after a tie; this house does not let "
                f"a bettor {verb} it",
                hint=f"allowed after a tie: {allowed}",
                rule="R24",
                params={"bettor": bet.bettor, "bet": bet.kind, "action": permission, "allowed": allowed},
            )

    def _check_limits(self, bettor: TableBettor, stakes: Mapping[BetKind, int]) -> None:
        """Refuse new stakes (0: no bet) of one bettor that break a spot limit (R21), R22 or the net limit (R21)."""
        for kind, stake in stakes.items():
            if stake == 0:
                continue
            limits = self.config.limit(kind, bettor.variant)
            if stake < limits.minimum:
                raise LimitError(
                    f"{kind.value} bet {stake} is below the minimum {limits.minimum}",
                    hint="R21: each bet spot has a table minimum and maximum",
                    code="limit.min",
                    rule="R21",
                    params={"bet": kind, "stake": stake, "minimum": limits.minimum},
                )
            if stake > limits.maximum:
                raise LimitError(
                    f"{kind.value} bet {stake} is above the maximum {limits.maximum}",
                    hint="R21: each bet spot has a table minimum and maximum",
                    code="limit.max",
                    rule="R21",
                    params={"bet": kind, "stake": stake, "maximum": limits.maximum},
                )
            if kind is BetKind.BANKER and self.config.banker_multiple_of_minimum and stake % limits.minimum:
                suggestion = stake - stake % limits.minimum or limits.minimum
                raise LimitError(
                    f"banker bet {stake} is not a multiple of the minimum {limits.minimum}",
                    hint=f"R22: Banker bets in multiples of the table minimum, e.g. {suggestion}",
                    code="limit.banker_multiple",
                    rule="R22",
                    params={"bet": kind, "stake": stake, "minimum": limits.minimum, "suggestion": suggestion},
                )
        exposure = self.state.exposure()
        for kind, sign in ((BetKind.BANKER, 1), (BetKind.PLAYER, -1)):
            if kind in stakes:
                old = self.state.bets.get((bettor.id, kind))
                exposure += sign * (stakes[kind] - (old.stake if old else 0))
        limit = self.config.net_limit
        if abs(exposure) > limit:
            heavy = "Banker" if exposure > 0 else "Player"
            raise LimitError(
                f"the table's {heavy} bets would exceed the other side's by {abs(exposure)}, over the Banker/Player "
                f"limit {limit}",
                hint="R21 (數紅): the difference between all Banker and all Player bets is limited",
                code="limit.net_exposure",
                rule="R21",
                params={"side": heavy.lower(), "difference": abs(exposure), "limit": limit},
            )

    def _largest_seated(self, kind: BetKind) -> str | None:
        best: tuple[int, int] | None = None
        who: str | None = None
        for bet in self.state.bets.values():
            seat = self.state.bettors[bet.bettor].seat
            if bet.kind is kind and seat is not None:
                rank = (bet.stake, -seat)
                if best is None or rank > best:
                    best, who = rank, bet.bettor
        return who

    def _holder_name(self, side: Side) -> str:
        holder = self.state.squeezers.get(side)
        return "the dealer" if holder is None else repr(holder)

    # --- internals: shoe and settlement ---------------------------------------------------------

    def _needs_new_shoe(self) -> bool:
        if self._dealer is not None and self.config.mode is not DealingMode.CONTINUOUS:
            return self._dealer.shoe is None or self._dealer.shoe_over or self.state.shoe_over
        return self.state.shoe_over

    def _new_shoe(self, at: float, reason: str) -> ShoeChanged:
        number = self.state.shoe_number + 1
        if self._dealer is not None and self.config.mode is not DealingMode.CONTINUOUS:
            number = self._dealer.new_shoe().shoe_number
        return ShoeChanged(at=at, shoe_number=number, reason=reason)

    def _is_last(self, dealt: DealtCoup | None) -> bool:
        """Whether the coup in progress is the shoe's last (R6)."""
        if dealt is not None:
            return dealt.last
        if self.config.mode is DealingMode.CONTINUOUS or self.state.cut_card_at is None:
            return False
        number = self.state.coup_number + 1
        if self.config.shoe.after_cut_card is AfterCutCard.FINISH:
            return number >= self.state.cut_card_at
        return number > self.state.cut_card_at

    def _settle_if_done(self, at: float) -> list[TableEvent]:
        state = self.state
        if not state.coup.complete or state.face_down:
            return []
        result = state.coup.result()
        settlements: list[BetSettlement] = []
        if not state.demo:
            by_variant: dict[str, list[TableBet]] = {}
            for bet in state.bets.values():
                by_variant.setdefault(state.bettors[bet.bettor].variant, []).append(bet)
            for name, bets in by_variant.items():
                settled = settle_bets(
                    result,
                    [Bet(bet.kind, bet.stake) for bet in bets],
                    self.config.get_variant(name).paytable,
                    commission=self.config.commission,
                    on_tie=self.config.on_tie,
                )
                settlements += [
                    BetSettlement(
                        bettor=bet.bettor,
                        kind=bet.kind,
                        stake=bet.stake,
                        result=s.result,
                        paid=s.paid,
                        commission=s.commission,
                        owed=s.owed,
                        returned=s.returned,
                        level=s.level,
                    )
                    for bet, s in zip(bets, settled, strict=True)
                ]
        dealt, self._dealt = self._dealt, None
        layout = dealt.layout if dealt is not None else None
        return self._emit_all(
            CoupSettled(
                at=at,
                round=state.round,
                shoe_number=state.shoe_number,
                coup_number=state.coup_number + 1,
                player=result.player.cards,
                banker=result.banker.cards,
                winner=result.winner,
                settlements=tuple(settlements),
                demo=state.demo,
                last=self._is_last(dealt),
                layout=layout.cards if layout else (),
                nonce=layout.nonce if layout else None,
            )
        )

    # --- internals: the one place state changes ------------------------------------------------

    def _emit_all(self, *events: TableEvent) -> list[TableEvent]:
        for event in events:
            self._emit(event)
        return list(events)

    def _emit(self, event: TableEvent) -> None:
        self._apply(event)
        if self.keep_log:
            self._log.append(event)

    def _apply(self, event: TableEvent) -> None:
        state = self.state
        state.clock = max(state.clock, event.at)
        match event:
            case BettorJoined(bettor=bettor, balance=balance, seat=seat, variant=variant):
                state.bettors[bettor] = TableBettor(bettor, balance, seat, variant)
                state.bought_in += balance
            case FundsAdded(bettor=bettor, amount=amount):
                state.bettors[bettor].balance += amount
                state.bought_in += amount
            case BettorSat(bettor=bettor, seat=seat):
                state.bettors[bettor].seat = seat
            case CashedOut(bettor=bettor, amount=amount, commission=commission):
                self._collect(bettor, commission)
                state.bettors[bettor].balance -= amount
                state.paid_out += amount
            case BettorLeft(bettor=bettor, amount=amount, commission=commission):
                self._collect(bettor, commission)
                state.paid_out += amount
                del state.bettors[bettor]
            case VariantSwitched(bettor=bettor, variant=variant):
                state.bettors[bettor].variant = variant
            case ShoeBurned(count=count, card=card):
                state.burned += count
                if card is not None:
                    state.shoe_cards[card] += 1
            case ShoeChanged(shoe_number=number):
                state.shoe_number, state.coup_number = number, 0
                state.shoe_over, state.cut_card_at, state.burned = False, None, 0
                state.shoe_cards.clear()
            case CutCardOut(coup_number=number):
                state.cut_card_at = number
                if (
                    state.phase is Phase.IDLE
                    and number <= state.coup_number
                    and self.config.shoe.after_cut_card is AfterCutCard.FINISH
                ):
                    state.shoe_over = True
            case BettingOpened(round=number, demo=demo, commitment=commitment):
                state.phase, state.round, state.demo, state.commitment = Phase.BETTING, number, demo, commitment
                state.coup = CoupDealer()
            case BetPlaced(bettor=bettor, kind=kind, amount=amount, stake=stake, spot=spot, bet_id=bet_id):
                bet = state.bets.setdefault((bettor, kind), TableBet(bettor, kind, 0, spot))
                state._moved(kind, stake - bet.stake)
                bet.stake = stake
                state.bettors[bettor].balance -= amount
                if bet_id is not None:
                    state.bet_ids[bet_id] = (bettor, kind, amount, spot)
            case BetCancelled(bettor=bettor, kind=kind, amount=amount, stake=stake):
                bet = state.bets[(bettor, kind)]
                state.bettors[bettor].balance += amount
                state._moved(kind, stake - bet.stake)
                if stake == 0:
                    del state.bets[(bettor, kind)]
                else:
                    bet.stake, bet.carried = stake, min(bet.carried, stake)
            case BetSwitched(bettor=bettor, kind=kind, to=to):
                bet = state.bets.pop((bettor, kind))
                state._moved(kind, -bet.stake)
                state._moved(to, bet.stake)
                bet.kind = to
                state.bets[(bettor, to)] = bet
            case BettingClosed(player_squeezer=player, banker_squeezer=banker):
                state.phase = Phase.DEALING
                state.squeezers = {Side.PLAYER: player, Side.BANKER: banker}
                state.reveal_since = event.at
            case CardDealt(position=position, card=card, face_down=face_down, exposed=exposed):
                before = state.reveal_due
                state.coup.enter(card, position=position, face_up=exposed)
                if face_down:
                    state.face_down.add(position)
                if self.config.deal_source is DealSource.DEALER_ENTRY:
                    state.shoe_cards[card] += 1
                if state.reveal_due is not before:
                    state.reveal_since = event.at
            case CardCorrected(card=card, replaced=replaced):
                state.coup.replace_last(card)
                state.shoe_cards[replaced] -= 1
                state.shoe_cards[card] += 1
                state.shoe_cards += Counter()  # a card no longer in play leaves the count
            case SqueezeHandedOver(side=side, to=to):
                state.squeezers[side] = to
                if state.reveal_due is side:
                    state.reveal_since = event.at
            case CardRevealed(position=position):
                before = state.reveal_due
                state.face_down.discard(position)
                if state.reveal_due is not before:
                    state.reveal_since = event.at
            case CoupSettled():
                for s in event.settlements:
                    bet = state.bets[(s.bettor, s.kind)]
                    if s.result is BetResult.STAY:
                        bet.carried = bet.stake
                        continue
                    state._moved(s.kind, -bet.stake)
                    del state.bets[(s.bettor, s.kind)]
                    bettor_state = state.bettors[s.bettor]
                    bettor_state.balance += s.returned
                    bettor_state.owed += s.owed
                    state.house += s.stake - s.returned
                if not event.demo:
                    state.results.append(event.winner)
                self._end_round(coup_used=True, last=event.last)
            case RoundVoided(refunds=refunds, last=last):
                for refund in refunds:
                    state._moved(refund.kind, -state.bets.pop((refund.bettor, refund.kind)).stake)
                    state.bettors[refund.bettor].balance += refund.stake
                self._end_round(coup_used=bool(state.coup.cards), last=last)
            case _:  # pragma: no cover - every event type is handled above
                raise TypeError(f"unknown table event {event!r}")

    def _collect(self, bettor: str, commission: int) -> None:
        found = self.state.bettors[bettor]
        found.balance -= commission
        found.owed -= commission
        self.state.house += commission

    def _end_round(self, *, coup_used: bool, last: bool) -> None:
        state = self.state
        state.phase = Phase.IDLE
        if coup_used:
            state.coup_number += 1
        if last:
            state.shoe_over = True
        if self.config.mode is DealingMode.CONTINUOUS:
            state.shoe_cards.clear()
        if self.round_bet_ids:
            state.bet_ids.clear()
        state.coup = CoupDealer()
        state.face_down = set()
        state.squeezers = {}
        state.demo = False
        state.commitment = None


_OTHER_SIDE = {BetKind.BANKER: BetKind.PLAYER, BetKind.PLAYER: BetKind.BANKER}

#: The version of :meth:`Table.snapshot` data; a snapshot of another version is not read.
SNAPSHOT_FORMAT = 1

_WINNER_BY_LETTER = {winner.letter: winner for winner in Winner}


def _state_from_snapshot(data: Mapping[str, Any]) -> TableState:
    """The state a snapshot describes (raises KeyError, TypeError or ValueError on malformed data)."""
    shoe = data["shoe"]
    state = TableState(
        round=_whole(data["round"]),
        clock=_time(data["clock"]),
        reveal_since=_time(data["reveal_since"]),
        shoe_number=_whole(shoe["number"]),
        coup_number=_whole(shoe["coups"]),
        shoe_over=_flag(shoe["over"]),
        cut_card_at=None if shoe["cut_card_at"] is None else _whole(shoe["cut_card_at"]),
        shoe_cards=Counter({Card.parse(text): _whole(count) for text, count in shoe["cards"].items()}),
        burned=_whole(shoe.get("burned", 0)),
        house=_whole(data["house"], least=None),
        bought_in=_whole(data["bought_in"]),
        paid_out=_whole(data["paid_out"]),
        results=[_WINNER_BY_LETTER[letter] for letter in data["results"]],
    )
    for b in data["bettors"]:
        bettor = TableBettor(
            _text(b["id"]), _whole(b["balance"]), _seat(b["seat"]), _text(b["variant"]), _whole(b["owed"])
        )
        if bettor.id in state.bettors:
            raise ValueError(f"bettor {bettor.id!r} is in the snapshot twice")
        state.bettors[bettor.id] = bettor
    for b in data["bets"]:
        bet = TableBet(
            _text(b["bettor"]), BetKind(b["kind"]), _whole(b["stake"]), _seat(b["spot"]), _whole(b["carried"])
        )
        if bet.bettor not in state.bettors:
            raise ValueError(f"a bet of {bet.bettor!r}, who is not at the table")
        if (bet.bettor, bet.kind) in state.bets:
            raise ValueError(f"the {bet.kind.value} bet of {bet.bettor!r} is in the snapshot twice")
        state.bets[(bet.bettor, bet.kind)] = bet
        state._moved(bet.kind, bet.stake)
    for bet_id, (bettor, kind, amount, spot) in data["bet_ids"].items():
        state.bet_ids[_text(bet_id)] = (_text(bettor), BetKind(kind), _whole(amount), _seat(spot))
    return state


def _whole(value: Any, *, least: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    if least is not None and value < least:
        raise ValueError(f"{value} is below {least}")
    return value


def _seat(value: Any) -> int | None:
    return None if value is None else _whole(value, least=1)


def _time(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{value!r} is not a time")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a string")
    return value


def _ok(check: Callable[[], object]) -> bool:
    try:
        check()
    except TableError:
        return False
    return True


def _check_amount(amount: int, what: str, *, least: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise LimitError(
            f"{what} {amount!r} is not a whole number",
            hint="money is in minor units (cents)",
            code="amount.not_whole",
            rule="R32",
            params={"what": what, "amount": amount},
        )
    if amount < least:
        raise LimitError(
            f"{what} {amount} is below {least}",
            hint=f"give at least {least}",
            code="amount.too_small",
            params={"what": what, "amount": amount, "least": least},
        )


def _card(card: Card | str | None) -> Card:
    if isinstance(card, Card):
        return card
    try:
        return Card.parse(str(card))
    except InputError as error:
        raise CardError(error.message, hint=error.hint, rule="R1", params={"card": str(card)}) from None


def _side(side: Side | str) -> Side:
    try:
        return Side(side)
    except ValueError:
        raise SqueezeError(
            f"unknown side {side!r}", hint="player or banker", code="side.invalid", params={"side": str(side)}
        ) from None
