"""One player against the house: a :class:`~baccarat.table.Table` with one bettor, chips, undo and rebet.

The terminal game (:mod:`baccarat.play.app`) and its plain mode (:mod:`baccarat.play.plain`) are two
faces of one :class:`GameSession`. The table holds every rule: limits (R21, R22), funds, the shoe
procedure and settlement (through :func:`baccarat.settlement.settle_bets`); the session adds what a
player needs around it: the chip in hand, undoing the last chips, putting back the last coup's bets,
the history of coups and the roads of the shoe.

Amounts a player types and reads are in currency units with up to two decimals (``100`` is
100.00); the table counts minor units (R32).

>>> session = GameSession(variant="macau", bankroll=parse_money("1000"), seed="7")
>>> _ = session.place("banker", parse_money("100"))
>>> format_money(session.balance), format_money(session.on_table)
('900', '100')
>>> record = session.deal()
>>> session.balance - 90_000 == record.returned
True
>>> session.place("tie", parse_money("10000"))
Traceback (most recent call last):
...
baccarat.table.LimitError: tie bet 1000000 is above the maximum 500000 (R21: each bet spot has a table minimum and maximum)
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from baccarat.bets import BetKind, parse_bet_kind
from baccarat.cards import Card
from baccarat.coup import CoupDealer, CoupResult, Hand, Position, Side, deal_coup
from baccarat.dealing import ShoeDealer
from baccarat.errors import BaccaratError, InputError
from baccarat.play.money import MINOR_PER_UNIT, format_money, parse_money
from baccarat.rng import SeededSource
from baccarat.roads import Scoreboard
from baccarat.settlement import BetResult
from baccarat.shoe import ShoeConfig
from baccarat.table import FundsError, LimitError, Phase, Table
from baccarat.table_config import TableConfig
from baccarat.table_events import BetPlaced, BetSettlement, CoupSettled, TableEvent
from baccarat.variants import Variant, get_variant

__all__ = [
    "DEFAULT_BANKROLL",
    "DEFAULT_CHIPS",
    "MINOR_PER_UNIT",
    "PLAYER_ID",
    "CoupRecord",
    "GameSession",
    "PlayError",
    "RevealStep",
    "ShoeStatus",
    "format_money",
    "parse_money",
    "player_message",
    "reveal_steps",
    "seeded_dealer",
]

#: The player's bettor id at the table.
PLAYER_ID = "you"
#: Chip values, in minor units: 10, 50, 100, 500, 1,000 and 5,000.
DEFAULT_CHIPS: tuple[int, ...] = tuple(v * MINOR_PER_UNIT for v in (10, 50, 100, 500, 1_000, 5_000))
#: A new session's money, in minor units (10,000.00).
DEFAULT_BANKROLL = 10_000 * MINOR_PER_UNIT


class PlayError(InputError):
    """A request the game itself refuses (nothing to undo, no bets to put back, …)."""


_AMOUNT = re.compile(r"(?<![\w.])\d+(?![\w.])")


def player_message(error: BaccaratError, *, funds_hint: str | None = None) -> str:
    """An error as the player reads it: the table counts minor units, the player currency units, so the
    amounts in a refused bet's message (limits, funds) are shown as currency, and the player is "you".
    ``funds_hint`` replaces the table's advice when the money runs short (how to add funds here).

    >>> from baccarat.table import FundsError, LimitError
    >>> player_message(LimitError("tie bet 600000 is above the maximum 500000", hint="R21: each bet spot has limits"))
    'tie bet 6,000 is above the maximum 5,000 (R21: each bet spot has limits)'
    >>> player_message(FundsError("'you' has 5000 available and cannot stake 10000", hint="bet less"), funds_hint="press a")
    'you have 50 available and cannot stake 100 (press a)'
    """
    if not isinstance(error, LimitError | FundsError):
        return str(error)

    def money(text: str) -> str:
        return _AMOUNT.sub(lambda m: format_money(int(m.group())), text)

    message = money(error.message).replace(f"{PLAYER_ID!r} has", "you have")
    hint = funds_hint if isinstance(error, FundsError) and funds_hint else money(error.hint) if error.hint else None
    return f"{message} ({hint})" if hint else message


@dataclass(frozen=True, slots=True)
class CoupRecord:
    """One settled coup of the session: the cards with the reason for each draw or stand, and the player's bets."""

    round: int
    shoe_number: int
    coup_number: int
    result: CoupResult
    settlements: tuple[BetSettlement, ...]
    last: bool

    @property
    def staked(self) -> int:
        """The player's stakes on this coup."""
        return sum(s.stake for s in self.settlements)

    @property
    def returned(self) -> int:
        """What came back to the player's balance (stakes and winnings; nothing for a lost bet)."""
        return sum(s.returned for s in self.settlements if s.result is not BetResult.STAY)

    @property
    def net(self) -> int:
        """The player's gain (positive) or loss (negative) on the coup."""
        return sum(s.returned - s.stake - s.owed for s in self.settlements if s.result is not BetResult.STAY)

    @classmethod
    def of(cls, event: CoupSettled, bettor: str = PLAYER_ID) -> CoupRecord:
        """The record of a settled coup; the reasons come from dealing its cards again (:func:`deal_coup`)."""
        cards = CoupResult(Hand(event.player), Hand(event.banker)).cards
        return cls(
            round=event.round,
            shoe_number=event.shoe_number,
            coup_number=event.coup_number,
            result=deal_coup(cards),
            settlements=tuple(s for s in event.settlements if s.bettor == bettor),
            last=event.last,
        )


@dataclass(frozen=True, slots=True)
class RevealStep:
    """One card turned over: where it went, the hands so far, and the reasons it completed."""

    position: Position
    card: Card
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    reasons: tuple[str, ...]


def reveal_steps(result: CoupResult) -> list[RevealStep]:
    """The coup card by card in deal order (R11, R16), each draw or stand explained as it is decided.

    >>> from baccarat.cards import parse_cards
    >>> steps = reveal_steps(deal_coup(parse_cards("AS 2H 3D KC 4S 8D")))
    >>> [str(s.card) for s in steps], steps[3].reasons
    (['AS', '2H', '3D', 'KC', '4S', '8D'], ('Player 4 draws: Player draws on 0–5 and stands on 6–7',))
    """
    dealer = CoupDealer()
    steps: list[RevealStep] = []
    for card in result.cards:
        seen = len(dealer.reasons)
        position = dealer.enter(card)
        player = tuple(dealer.cards[p] for p in Position if p in dealer.cards and p.side is Side.PLAYER)
        banker = tuple(dealer.cards[p] for p in Position if p in dealer.cards and p.side is Side.BANKER)
        steps.append(RevealStep(position, card, player, banker, tuple(dealer.reasons[seen:])))
    return steps


@dataclass(frozen=True, slots=True)
class ShoeStatus:
    """Where the shoe stands: cards left, the cut card, and whether the coup to come is the last (R6)."""

    shoe_number: int
    coups: int
    size: int
    cards_left: int
    cards_before_cut: int | None
    cut_card_out: bool
    last_coup_next: bool
    shoe_over: bool

    def describe(self) -> list[str]:
        """The status as short lines of text."""
        if self.shoe_number == 0:
            return ["no shoe yet"]
        lines = [f"Shoe {self.shoe_number}: coup {self.coups} dealt", f"{self.cards_left} of {self.size} cards left"]
        if self.cut_card_out:
            lines.append("cut card out")
        elif self.cards_before_cut is not None:
            lines.append(f"cut card in {self.cards_before_cut} cards")
        if self.shoe_over:
            lines.append("shoe over: a new shoe is shuffled")
        elif self.last_coup_next:
            lines.append("next coup is the last of the shoe")
        return lines


class GameSession:
    """A game of one player (bettor :data:`PLAYER_ID`) at a table of ``variant`` with a shoe of ``decks``.

    ``bankroll`` is the player's money in minor units. ``seed`` fixes the shoes (a random one is chosen
    when none is given, so that a saved session can rebuild its shoe). ``chips`` are the chip values
    (minor units) the player picks from.
    """

    def __init__(
        self,
        *,
        variant: str = "macau",
        decks: int = 8,
        bankroll: int = DEFAULT_BANKROLL,
        seed: str | None = None,
        chips: Sequence[int] = DEFAULT_CHIPS,
    ) -> None:
        chosen = get_variant(variant)
        config = TableConfig(
            variant=chosen.name,
            shoe=ShoeConfig(decks=decks),
            commission=chosen.commission,
            variant_switching=False,
        )
        seed_text = secrets.token_hex(8) if seed is None else seed
        dealer = seeded_dealer(config, seed_text)
        table = Table(config, dealer=dealer)
        table.join(PLAYER_ID, balance=bankroll)
        self._setup(table=table, dealer=dealer, seed=seed_text, chips=chips, bankroll=bankroll)
        self._open()

    def _setup(self, *, table: Table, dealer: ShoeDealer, seed: str, chips: Sequence[int], bankroll: int) -> None:
        if not chips or any(isinstance(c, bool) or not isinstance(c, int) or c <= 0 for c in chips):
            raise InputError(f"chips {list(chips)!r} are not positive amounts", hint="give chip values in minor units")
        self.table = table
        self.dealer = dealer
        self.seed = seed
        self.bankroll = bankroll
        #: What the player started with: the amount that adding funds brings.
        self.start = bankroll
        self.chips: tuple[int, ...] = tuple(chips)
        self.chip_index = min(2, len(self.chips) - 1)
        self.undo_stack: list[tuple[tuple[BetKind, int], ...]] = []
        self.last_bets: tuple[tuple[BetKind, int], ...] = ()
        self.history: list[CoupRecord] = [CoupRecord.of(e) for e in table.events if isinstance(e, CoupSettled)]

    @classmethod
    def restored(
        cls,
        *,
        table: Table,
        dealer: ShoeDealer,
        seed: str,
        bankroll: int,
        chips: Sequence[int] = DEFAULT_CHIPS,
    ) -> GameSession:
        """A session around a table rebuilt from its event log (see :mod:`baccarat.play.save`)."""
        session = cls.__new__(cls)
        session._setup(table=table, dealer=dealer, seed=seed, chips=chips, bankroll=bankroll)
        session._open()
        return session

    # --- reading ----------------------------------------------------------------------------------

    @property
    def config(self) -> TableConfig:
        """The table's settings."""
        return self.table.config

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self.config.get_variant()

    @property
    def balance(self) -> int:
        """The player's money, stakes on the table not counted."""
        return self.table.balance(PLAYER_ID)

    @property
    def bets(self) -> dict[BetKind, int]:
        """The player's stakes on the table, by bet."""
        return {bet.kind: bet.stake for bet in self.table.bets_of(PLAYER_ID)}

    @property
    def on_table(self) -> int:
        """All the player's stakes on the table."""
        return sum(self.bets.values())

    @property
    def chip(self) -> int:
        """The chip in hand."""
        return self.chips[self.chip_index]

    @property
    def board(self) -> Scoreboard:
        """The roads of the current shoe (or of the shoe just finished, until the next coup)."""
        shoe = self.table.state.shoe_number
        if self.history and not any(r.shoe_number == shoe for r in self.history):
            shoe = self.history[-1].shoe_number
        return Scoreboard([r.result for r in self.history if r.shoe_number == shoe])

    @property
    def result(self) -> int:
        """The player's gain (positive) or loss over the session: money held and staked, less money brought."""
        return self.balance + self.on_table - self.bankroll

    @property
    def smallest_bet(self) -> int:
        """The lowest table minimum of the variant's bet spots."""
        return min(self.config.limit(kind).minimum for kind in self.variant.bets)

    @property
    def out_of_money(self) -> bool:
        """Nothing on the table and too little left for any bet: only adding funds lets the game go on."""
        return not self.bets and self.balance < self.smallest_bet

    def shoe_status(self) -> ShoeStatus:
        """Cards left, the cut card and the last-coup rule of the shoe in play."""
        state = self.table.state
        shoe = self.dealer.shoe
        size = shoe.size if shoe is not None else self.config.shoe.size
        left = shoe.remaining if shoe is not None else size
        before_cut = None
        if shoe is not None and shoe.cut_index is not None:
            before_cut = max(0, shoe.cut_index - shoe.position)
        cut_out = state.cut_card_at is not None or (shoe is not None and shoe.cut_card_out)
        return ShoeStatus(
            shoe_number=state.shoe_number,
            coups=state.coup_number,
            size=size,
            cards_left=left,
            cards_before_cut=before_cut,
            cut_card_out=cut_out,
            last_coup_next=cut_out and not state.shoe_over,
            shoe_over=state.shoe_over,
        )

    # --- actions ----------------------------------------------------------------------------------

    def select_chip(self, index: int) -> int:
        """Take chip ``index`` (0-based) in hand; returns its value."""
        if not 0 <= index < len(self.chips):
            raise PlayError(f"there is no chip {index + 1}", hint=f"chips are 1 to {len(self.chips)}")
        self.chip_index = index
        return self.chip

    def step_chip(self, step: int) -> int:
        """Take the next larger (``step`` > 0) or smaller chip in hand, stopping at the ends; returns its value."""
        self.chip_index = max(0, min(len(self.chips) - 1, self.chip_index + step))
        return self.chip

    def place(self, kind: BetKind | str, amount: int | None = None) -> list[TableEvent]:
        """Put ``amount`` (default: the chip in hand) on ``kind``; the table checks limits and funds."""
        stake = self.chip if amount is None else amount
        if isinstance(kind, str):  # an unknown name is answered with this variant's menu
            kind = parse_bet_kind(kind, menu=self.variant.bets)
        self._open()
        events = self.table.place_bet(PLAYER_ID, kind, stake)
        placed = next(e for e in events if isinstance(e, BetPlaced))
        self.undo_stack.append(((placed.kind, stake),))
        return events

    def add_funds(self, amount: int) -> int:
        """Bring ``amount`` (minor units) more to the table; the session's result counts it as money brought,
        not won. Returns the new balance."""
        self.table.add_funds(PLAYER_ID, amount)
        self.bankroll += amount
        return self.balance

    def undo(self) -> tuple[tuple[BetKind, int], ...]:
        """Take back the last chips placed (a whole rebet at once); returns what was taken back."""
        if not self.undo_stack:
            raise PlayError("nothing to undo", hint="undo takes back chips placed since the last deal")
        group = self.undo_stack[-1]
        self._take_back(group)
        self.undo_stack.pop()
        return group

    def clear(self) -> int:
        """Take back every bet on the table; returns the amount taken back."""
        bets = self.bets
        if not bets:
            raise PlayError("no bets to clear", hint="place a bet first")
        for kind in bets:
            self.table.cancel_bet(PLAYER_ID, kind)
        self.undo_stack.clear()
        return sum(bets.values())

    def rebet(self) -> tuple[tuple[BetKind, int], ...]:
        """Put back the bets of the last coup that had any, all or none (limits and funds as for any bet)."""
        if not self.last_bets:
            raise PlayError("no bets to put back", hint="rebet repeats the bets of the last coup you played")
        if self.bets:
            raise PlayError("bets are already on the table", hint="rebet starts from an empty layout: clear first")
        self._open()
        placed: list[tuple[BetKind, int]] = []
        try:
            for kind, stake in self.last_bets:
                self.table.place_bet(PLAYER_ID, kind, stake)
                placed.append((kind, stake))
        except BaccaratError:
            self._take_back(tuple(placed))
            raise
        self.undo_stack.append(self.last_bets)
        return self.last_bets

    def deal(self) -> CoupRecord:
        """No more bets: deal a coup from the shoe, settle it, and open betting for the next."""
        self._open()
        self.table.verify_close_betting()
        bets = tuple(self.bets.items())
        events = self.table.close_betting()
        events += self.table.deal()
        settled = events[-1]
        if not isinstance(settled, CoupSettled):  # pragma: no cover - an automatic table settles at once
            raise PlayError("the coup was not settled", hint="deal again")
        record = CoupRecord.of(settled)
        self.history.append(record)
        if bets:
            self.last_bets = bets
        self.undo_stack.clear()
        self._open()
        return record

    # --- internals --------------------------------------------------------------------------------

    def _open(self) -> None:
        if self.table.phase is Phase.IDLE:
            self.table.open_betting()

    def _take_back(self, group: tuple[tuple[BetKind, int], ...]) -> None:
        for kind, stake in reversed(group):
            self.table.cancel_bet(PLAYER_ID, kind, amount=stake)

    def save_data(self) -> dict[str, Any]:
        """The session as plain data (see :mod:`baccarat.play.save`)."""
        shoe = self.dealer.shoe
        return {
            "seed": self.seed,
            "bankroll": self.bankroll,
            "start": self.start,
            "chips": list(self.chips),
            "chip": self.chip_index,
            "rebet": [{"bet": k.value, "stake": s} for k, s in self.last_bets],
            "undo": [[{"bet": k.value, "stake": s} for k, s in group] for group in self.undo_stack],
            "shoe": {
                "shoe_number": shoe.shoe_number if shoe is not None else 0,
                "coups": self.dealer.coups_in_shoe,
                "position": shoe.position if shoe is not None else 0,
            },
            "config": self.config.to_dict(),
            "events": [event.to_dict() for event in self.table.events],
        }


def seeded_dealer(config: TableConfig, seed: str, *, first_shoe_number: int = 1) -> ShoeDealer:
    """The session's shoe dealer for ``seed`` (digits are an integer seed, other text is hashed)."""
    source = SeededSource(int(seed) if seed.isdigit() else seed)
    return ShoeDealer(config.shoe, source=source, first_shoe_number=first_shoe_number)
