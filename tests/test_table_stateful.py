"""Random sequences of table actions by many bettors (Hypothesis stateful testing).

Whatever the order of actions: money is conserved, no bet is accepted after betting closes, no limit
is ever exceeded, a refused action changes nothing, a voided round leaves every balance as before
it, and replaying the event log (through JSON) rebuilds the live state. Between rounds a snapshot
(through JSON) rebuilds it too, and so does the last snapshot with the events after it; a table that
keeps bet ids for the round in play only replays to the same state but for the ids of past rounds.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from baccarat.bets import BetKind
from baccarat.cards import ALL_CARDS
from baccarat.coup import Side
from baccarat.rng import SeededSource
from baccarat.settlement import CommissionMode, TiePolicy
from baccarat.shoe import AfterCutCard, DealingMode, ShoeConfig
from baccarat.table import Phase, PhaseError, Table, TableError
from baccarat.table_config import SJM_TIE_PERMISSIONS, DealSource, TableConfig, TiePermission
from baccarat.table_events import (
    BetPlaced,
    BettingClosed,
    BettingOpened,
    BettorJoined,
    BettorLeft,
    CashedOut,
    CoupSettled,
    FundsAdded,
    RoundVoided,
    TableEvent,
)

NAMES = ("ann", "bob", "cy", "dan", "eve", "fay")
KINDS = (BetKind.BANKER, BetKind.PLAYER, BetKind.TIE, BetKind.PLAYER_PAIR, BetKind.BIG, BetKind.SUPER6)
STAKES = (50, 100, 150, 300, 1_000, 2_500, 5_000, 20_000)

CONFIGS = (
    # A physical shoe: dealer entry, squeeze, ties stay (SJM: add only), commission owed.
    TableConfig(
        variant="macau",
        deal_source=DealSource.DEALER_ENTRY,
        shoe=ShoeConfig(decks=2, after_cut_card=AfterCutCard.FINISH),
        seats=7,
        min_bet=100,
        max_bet=5_000,
        banker_player_limit=6_000,
        squeeze=True,
        squeeze_seconds=5,
        on_tie=TiePolicy.STAY,
        tie_permissions=SJM_TIE_PERMISSIONS,
        commission=CommissionMode.OWED,
    ),
    # An online table: pre-dealt layout, demonstration coups, standard/no-commission switching.
    TableConfig(
        variant="standard",
        shoe=ShoeConfig(decks=1, mode=DealingMode.PRE_DEALT, demo_coups=1, cut_card_from_end=20),
        min_bet=100,
        max_bet=5_000,
        standing_bettors=True,
        on_tie=TiePolicy.STAY,
        tie_permissions=frozenset({TiePermission.REDUCE, TiePermission.SWITCH, TiePermission.WITHDRAW}),
    ),
    # A continuous shuffler with squeeze and pushes on ties.
    TableConfig(
        variant="no_commission",
        shoe=ShoeConfig(mode=DealingMode.CONTINUOUS),
        min_bet=100,
        max_bet=5_000,
        banker_player_limit=3_000,
        squeeze=True,
        squeeze_seconds=5,
    ),
)


class TableMachine(RuleBasedStateMachine):
    """Drives one table with random actions and checks the promises after each."""

    table: Table

    @initialize(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32))
    def start(self, config: TableConfig, seed: int) -> None:
        self.table = Table(config, source=SeededSource(seed))
        self.now = 0.0
        self.money_in = 0
        self.money_out = 0
        self.seen = 0
        self.betting = False
        self.holdings_at_open: dict[str, int] = {}
        self.last_snapshot: tuple[dict[str, Any], int] | None = None  # through JSON, and the log's length then
        self.table.join("ann", balance=30_000, seat=1)
        self.table.join("bob", balance=30_000, seat=2)
        self.table.join("cy", balance=30_000)

    # --- helpers --------------------------------------------------------------------------------

    def attempt(self, action: Callable[[], list[TableEvent]]) -> list[TableEvent]:
        """Do an action; a refusal must be a TableError and change nothing."""
        state, log = copy.deepcopy(self.table.state), self.table.events
        try:
            return action()
        except TableError:
            assert self.table.state == state
            assert self.table.events == log
            return []

    def holdings(self) -> dict[str, int]:
        held = {name: b.balance for name, b in self.table.state.bettors.items()}
        for bet in self.table.state.bets.values():
            held[bet.bettor] += bet.stake
        return held

    # --- rules ----------------------------------------------------------------------------------

    def someone(self, data: st.DataObject) -> str:
        """Mostly a bettor at the table, sometimes any name (unknown bettors must be refused)."""
        present = sorted(self.table.state.bettors)
        if present and data.draw(st.integers(0, 4)) > 0:
            return data.draw(st.sampled_from(present))
        return data.draw(st.sampled_from(NAMES))

    @rule(seconds=st.sampled_from([0, 1, 3, 6]))
    def tick(self, seconds: float) -> None:
        self.now += seconds

    @rule(name=st.sampled_from(NAMES), balance=st.sampled_from([0, 500, 5_000, 30_000]), seat=st.integers(0, 8))
    def join(self, name: str, balance: int, seat: int) -> None:
        self.attempt(lambda: self.table.join(name, balance=balance, seat=seat or None, now=self.now))

    @rule(
        data=st.data(),
        action=st.sampled_from(["add_funds", "sit", "cash_out", "leave", "switch_variant"]),
        amount=st.sampled_from([None, -5, 0, 100, 4_000, 10_000]),
        seat=st.integers(0, 8),
        variant=st.sampled_from(["standard", "no_commission", "macau"]),
    )
    def bettor_action(self, data: st.DataObject, action: str, amount: int | None, seat: int, variant: str) -> None:
        name, table, now = self.someone(data), self.table, self.now
        actions: dict[str, Callable[[], list[TableEvent]]] = {
            "add_funds": lambda: table.add_funds(name, amount or 0, now=now),
            "sit": lambda: table.sit(name, seat, now=now),
            "cash_out": lambda: table.cash_out(name, amount, now=now),
            "leave": lambda: table.leave(name, now=now),
            "switch_variant": lambda: table.switch_variant(name, variant, now=now),
        }
        self.attempt(actions[action])

    @rule(
        data=st.data(),
        kind=st.sampled_from(KINDS),
        stake=st.sampled_from(STAKES),
        spot=st.one_of(st.none(), st.integers(0, 8)),
        bet_id=st.one_of(st.none(), st.sampled_from(["x1", "x2", "x3"])),
    )
    def place_bet(self, data: st.DataObject, kind: BetKind, stake: int, spot: int | None, bet_id: str | None) -> None:
        name = self.someone(data)
        placed = self.attempt(lambda: self.table.place_bet(name, kind, stake, spot=spot, bet_id=bet_id, now=self.now))
        if placed:
            assert self.table.phase is Phase.BETTING and not self.table.state.demo

    @rule(data=st.data())
    def crowd(self, data: st.DataObject) -> None:
        self.everyone_bets(data)

    def everyone_bets(self, data: st.DataObject) -> None:
        """Each bettor at the table tries a bet (most are valid while betting is open)."""
        for name in sorted(self.table.state.bettors):
            kind = data.draw(st.sampled_from(KINDS[:4]))
            stake = data.draw(st.sampled_from(STAKES[1:6]))
            placed = self.attempt(functools.partial(self.table.place_bet, name, kind, stake, now=self.now))
            if placed:
                assert self.table.phase is Phase.BETTING and not self.table.state.demo

    @rule(
        data=st.data(),
        kind=st.sampled_from(KINDS),
        amount=st.sampled_from([None, 50, 100, 1_000]),
        switch=st.booleans(),
    )
    def change_bet(self, data: st.DataObject, kind: BetKind, amount: int | None, switch: bool) -> None:
        name = self.someone(data)
        if switch:
            self.attempt(lambda: self.table.switch_bet(name, kind, now=self.now))
        else:
            self.attempt(lambda: self.table.cancel_bet(name, kind, amount=amount, now=self.now))

    def step_round(self, data: st.DataObject) -> None:
        """The next step of the round: open, close, deal a card, or turn the cards that wait."""
        table, now = self.table, self.now
        if table.phase is Phase.IDLE:
            if self.attempt(lambda: table.open_betting(now=now)):
                self.everyone_bets(data)
        elif table.phase is Phase.BETTING:
            if data.draw(st.integers(0, 2)) == 2:  # leave time for bets
                self.attempt(lambda: table.close_betting(now=now))
        elif table.reveal_due is not None:
            side = table.reveal_due
            who = data.draw(st.sampled_from(["squeezer", "dealer", "someone"]))
            by = {"squeezer": table.squeezer(side), "dealer": None, "someone": self.someone(data)}[who]
            self.attempt(lambda: table.reveal(side, by=by, now=now))
        elif table.config.deal_source is DealSource.AUTOMATIC:
            self.attempt(lambda: table.deal(now=now))
        else:
            card, exposed = data.draw(st.sampled_from(ALL_CARDS)), data.draw(st.booleans())
            self.attempt(lambda: table.deal_card(card, exposed=exposed, now=now))

    @rule(data=st.data())
    def advance(self, data: st.DataObject) -> None:
        self.step_round(data)

    @rule(data=st.data())
    def advance_more(self, data: st.DataObject) -> None:
        self.step_round(data)

    @rule(data=st.data(), side=st.sampled_from(Side), to=st.one_of(st.none(), st.sampled_from(NAMES)))
    def hand_over(self, data: st.DataObject, side: Side, to: str | None) -> None:
        if self.table.phase is not Phase.DEALING and data.draw(st.integers(0, 4)):
            return
        holder = self.table.squeezer(side)
        name = holder if holder is not None and data.draw(st.booleans()) else self.someone(data)
        self.attempt(lambda: self.table.hand_over(name, side, to=to, now=self.now))

    @rule(chance=st.integers(0, 3))
    def void(self, chance: int) -> None:
        if chance == 3 and self.attempt(lambda: self.table.void(now=self.now)):
            held = self.holdings()
            for name, amount in self.holdings_at_open.items():
                if name in held:
                    assert held[name] == amount, f"void changed {name}'s money: {amount} -> {held[name]}"

    @rule(cut_card=st.booleans(), chance=st.integers(0, 2))
    def shoe_action(self, cut_card: bool, chance: int) -> None:
        if chance < 2:
            return
        if cut_card:
            self.attempt(lambda: self.table.mark_cut_card(now=self.now))
        else:
            self.attempt(lambda: self.table.change_shoe(now=self.now))

    # --- invariants -----------------------------------------------------------------------------

    @invariant()
    def follow_the_log(self) -> None:
        """Track money in and out, betting open/closed, and holdings since betting opened."""
        if not hasattr(self, "table"):
            return
        for event in self.table.events[self.seen :]:
            if isinstance(event, BettorJoined):
                self.money_in += event.balance
                self.holdings_at_open.setdefault(event.bettor, event.balance)
            elif isinstance(event, FundsAdded):
                self.money_in += event.amount
                self.holdings_at_open[event.bettor] += event.amount
            elif isinstance(event, CashedOut):
                self.money_out += event.amount
                self.holdings_at_open[event.bettor] -= event.amount + event.commission
            elif isinstance(event, BettorLeft):
                self.money_out += event.amount
                self.holdings_at_open.pop(event.bettor, None)
            elif isinstance(event, BettingOpened):
                self.betting = True
                self.holdings_at_open = self.holdings()
            elif isinstance(event, BettingClosed | RoundVoided):
                self.betting = False
            elif isinstance(event, BetPlaced):
                assert self.betting, "BetPlaced after betting closed"
        self.seen = len(self.table.events)

    @invariant()
    def money_is_conserved(self) -> None:
        if hasattr(self, "table"):
            state = self.table.state
            assert state.in_play == self.money_in - self.money_out
            assert state.bought_in == self.money_in and state.paid_out == self.money_out
            for bettor in state.bettors.values():
                assert bettor.balance >= bettor.owed >= 0

    @invariant()
    def no_limit_is_exceeded(self) -> None:
        if not hasattr(self, "table"):
            return
        config, state = self.table.config, self.table.state
        for bet in state.bets.values():
            limits = config.limit(bet.kind, state.bettors[bet.bettor].variant)
            assert limits.minimum <= bet.stake <= limits.maximum
            if bet.kind is BetKind.BANKER:
                assert bet.stake % limits.minimum == 0
            seat = state.bettors[bet.bettor].seat
            assert bet.spot == seat
        assert abs(state.exposure()) <= config.net_limit

    @invariant()
    def replay_equals_live(self) -> None:
        if hasattr(self, "table"):
            data = json.loads(json.dumps([event.to_dict() for event in self.table.events]))
            assert Table.replay(self.table.config, data).state == self.table.state

    @invariant()
    def round_bet_ids_replay_equals_live_but_for_past_rounds_ids(self) -> None:
        if not hasattr(self, "table"):
            return
        live = self.table.state
        current: set[str] = set()
        for event in self.table.events:
            if isinstance(event, CoupSettled | RoundVoided):
                current = set()
            elif isinstance(event, BetPlaced) and event.bet_id is not None:
                current.add(event.bet_id)
        replayed = Table.replay(self.table.config, self.table.events, round_bet_ids=True).state
        assert replayed.bet_ids == {k: v for k, v in live.bet_ids.items() if k in current}
        assert dataclasses.replace(replayed, bet_ids=live.bet_ids) == live

    @invariant()
    def snapshot_rebuilds_the_state_between_rounds(self) -> None:
        if not hasattr(self, "table"):
            return
        table = self.table
        if table.phase is Phase.IDLE:
            data = json.loads(json.dumps(table.snapshot()))
            assert Table.from_snapshot(table.config, data).state == table.state
            self.last_snapshot = (data, len(table.events))
        else:
            state = copy.deepcopy(table.state)
            try:
                table.snapshot()
            except PhaseError:
                assert table.state == state
            else:
                raise AssertionError(f"a snapshot was taken in phase {table.phase.value}")
        if self.last_snapshot is not None:
            data, seen = self.last_snapshot
            rebuilt = Table.from_snapshot(table.config, data, events=table.events[seen:])
            assert rebuilt.state == table.state


TableMachine.TestCase.settings = settings(
    max_examples=35,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_table_state_machine = TableMachine.TestCase
