"""The table state machine: rules R5–R9, R18–R24, R27, R28 by id, bad input, events and replay."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from baccarat.bets import BetKind
from baccarat.cards import Card, parse_cards
from baccarat.coup import Position, Side, Winner
from baccarat.errors import InputError, ProcedureError
from baccarat.rng import SeededSource
from baccarat.settlement import BetResult, CommissionMode, TiePolicy
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, ShoeConfig
from baccarat.table import (
    BetNotOffered,
    BettingClosedError,
    CardError,
    CardNotDue,
    ClockError,
    FundsError,
    LimitError,
    OpenBetsError,
    Phase,
    PhaseError,
    SeatError,
    SpotError,
    SqueezeError,
    Table,
    TableError,
    TiePermissionError,
    VariantSwitchError,
)
from baccarat.table_config import SJM_TIE_PERMISSIONS, DealSource, TableConfig, TiePermission
from baccarat.table_events import BetPlaced, CardDealt, CoupSettled, RoundVoided, ShoeChanged, event_from_dict

# Planted coups (deal order P1 B1 P2 B2 [P3] [B3]).
BANKER_NATURAL = "2S 9H 3D KC"  # Player 5, Banker 9 natural: Banker wins, no draw
PLAYER_NATURAL = "9S 2H KD 3C"  # Player 9 natural, Banker 5: Player wins
TIE_NATURALS = "4S 9H 5D KC"  # Player 9, Banker 9: tie
THIRD_CARDS = "5S 3H KD 2C 4S 7D"  # Player 5 draws 4 (9), Banker 5 draws 7 (2): Player wins


def entry_table(**settings: Any) -> Table:
    """A dealer-entry table (cards planted by the test) with small limits."""
    values: dict[str, Any] = {"deal_source": DealSource.DEALER_ENTRY, "min_bet": 100, "max_bet": 10_000}
    values.update(settings)
    return Table(TableConfig(**values))


def play(table: Table, cards: str, *, now: float = 10) -> list[Any]:
    """Close betting (if open) and enter ``cards``, turning squeezed cards as their squeezers."""
    events: list[Any] = []
    if table.phase is Phase.BETTING:
        events += table.close_betting(now=now)
    pending = parse_cards(cards)
    while table.phase is Phase.DEALING:
        side = table.reveal_due
        if side is not None:
            events += table.reveal(side, by=table.squeezer(side), now=now)
        else:
            events += table.deal_card(pending.pop(0), now=now)
    return events


def refused(table: Table, action: Callable[[], object], error: type[Exception]) -> TableError:
    """Run an action that must be refused with ``error`` and change nothing."""
    state, log = copy.deepcopy(table.state), table.events
    with pytest.raises(error) as caught:
        action()
    assert table.state == state
    assert table.events == log
    assert isinstance(caught.value, TableError)
    assert isinstance(caught.value, InputError | ProcedureError)
    return caught.value


def settled(events: list[Any]) -> CoupSettled:
    found = [e for e in events if isinstance(e, CoupSettled)]
    assert len(found) == 1
    return found[0]


@pytest.fixture
def table() -> Table:
    table = entry_table()
    table.join("ann", balance=50_000, seat=1, now=0)
    table.join("bob", balance=50_000, seat=2, now=0)
    table.join("sam", balance=50_000, now=0)  # standing
    table.open_betting(now=1)
    return table


# --- R20: seats and spots ------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [7, 9, 14])
def test_r20_a_table_has_7_to_14_seats(seats: int) -> None:
    assert TableConfig(seats=seats).seats == seats


@pytest.mark.parametrize("seats", [6, 15])
def test_r20_seat_counts_outside_7_to_14_are_refused(seats: int) -> None:
    with pytest.raises(InputError, match="R20"):
        TableConfig(seats=seats)


def test_r20_standing_bettors_cannot_bet_on_a_seated_players_spot(table: Table) -> None:
    error = refused(table, lambda: table.place_bet("sam", "banker", 100, spot=1, now=2), SpotError)
    assert error.rule == "R20" and "ann" in str(error)
    table.place_bet("sam", "banker", 100, now=2)  # the standing area is fine
    assert table.bets_of("sam")[0].spot is None


def test_r20_a_seated_bettor_bets_on_their_own_spot_only(table: Table) -> None:
    refused(table, lambda: table.place_bet("ann", "player", 100, spot=2, now=2), SpotError)
    refused(table, lambda: table.place_bet("ann", "player", 100, spot=99, now=2), SpotError)
    table.place_bet("ann", "player", 100, spot=1, now=2)
    assert table.bets_of("ann")[0].spot == 1


def test_r20_a_taken_seat_and_a_seat_off_the_table_are_refused(table: Table) -> None:
    refused(table, lambda: table.join("cy", balance=0, seat=1, now=2), SeatError)
    refused(table, lambda: table.join("cy", balance=0, seat=8, now=2), SeatError)
    refused(table, lambda: table.sit("sam", 2, now=2), SeatError)
    table.sit("sam", 7, now=2)
    assert table.seat_of(7) == "sam"


def test_r20_a_table_without_standing_room_refuses_standing_bettors() -> None:
    table = entry_table(standing_bettors=False)
    refused(table, lambda: table.join("sam", balance=100), SeatError)


def test_r20_a_bettor_with_bets_cannot_move_seats(table: Table) -> None:
    table.place_bet("ann", "player", 100, now=2)
    refused(table, lambda: table.sit("ann", 5, now=2), OpenBetsError)


# --- R21, R22: limits ---------------------------------------------------------------------------


def test_r21_a_bet_below_the_minimum_is_refused_naming_the_minimum(table: Table) -> None:
    error = refused(table, lambda: table.place_bet("ann", "tie", 99, now=2), LimitError)
    assert error.rule == "R21" and "minimum 100" in str(error)


def test_r21_a_bet_above_the_maximum_is_refused_naming_the_maximum(table: Table) -> None:
    error = refused(table, lambda: table.place_bet("ann", "player", 10_100, now=2), LimitError)
    assert "maximum 10000" in str(error)
    table.place_bet("ann", "player", 6_000, now=2)
    refused(table, lambda: table.place_bet("ann", "player", 4_100, now=2), LimitError)  # adds up to 10,100


def test_r21_per_bet_limits_come_from_the_config_then_the_variant() -> None:
    config = TableConfig.from_dict({"variant": "macau", "limits": {"tie": {"min": 500, "max": 2_000}}})
    assert (config.limit(BetKind.TIE).minimum, config.limit(BetKind.TIE).maximum) == (500, 2_000)
    assert config.limit(BetKind.BANKER) == config.get_variant().limit(BetKind.BANKER)


def test_r21_net_exposure_limit_refuses_a_bet_that_unbalances_the_table() -> None:
    table = entry_table(banker_player_limit=5_000)
    table.join("ann", balance=50_000, seat=1)
    table.join("bob", balance=50_000, seat=2)
    table.open_betting()
    table.place_bet("ann", "banker", 4_000)
    error = refused(table, lambda: table.place_bet("bob", "banker", 2_000), LimitError)
    assert "Banker/Player limit 5000" in str(error) and error.rule == "R21"
    table.place_bet("bob", "player", 3_000)  # balances the table: Banker 4,000 against Player 3,000
    table.place_bet("bob", "banker", 4_000)  # net 5,000: exactly the limit
    assert table.state.exposure() == 5_000


def test_r21_net_exposure_limit_refuses_a_cancel_that_would_unbalance_the_table() -> None:
    table = entry_table(banker_player_limit=5_000)
    table.join("ann", balance=50_000, seat=1)
    table.join("bob", balance=50_000, seat=2)
    table.open_betting()
    table.place_bet("ann", "banker", 5_000)
    refused(table, lambda: table.place_bet("ann", "banker", 1_000), LimitError)
    table.place_bet("bob", "player", 3_000)
    table.place_bet("ann", "banker", 3_000)  # Banker 8,000 against Player 3,000
    refused(table, lambda: table.cancel_bet("bob", "player"), LimitError)
    refused(table, lambda: table.switch_bet("bob", "player"), LimitError)


def test_r22_banker_bets_in_multiples_of_the_minimum(table: Table) -> None:
    error = refused(table, lambda: table.place_bet("ann", "banker", 150, now=2), LimitError)
    assert error.rule == "R22"
    table.place_bet("ann", "player", 150, now=2)  # Player bets need only reach the minimum
    table.place_bet("bob", "banker", 300, now=2)
    refused(table, lambda: table.cancel_bet("bob", "banker", amount=50, now=2), LimitError)


def test_r22_off_allows_any_banker_stake_above_the_minimum() -> None:
    table = entry_table(banker_multiple_of_minimum=False)
    table.join("ann", balance=1_000, seat=1)
    table.open_betting()
    table.place_bet("ann", "banker", 150)
    assert table.bets_of("ann")[0].stake == 150


# --- betting and money --------------------------------------------------------------------------


def test_a_bet_moves_money_to_the_table_and_settlement_returns_it(table: Table) -> None:
    table.place_bet("ann", "banker", 1_000, now=2)
    table.place_bet("bob", "player", 1_000, now=2)
    assert (table.balance("ann"), table.state.on_table) == (49_000, 2_000)
    result = settled(play(table, BANKER_NATURAL))
    assert result.winner is Winner.BANKER
    assert table.balance("ann") == 50_950 and table.balance("bob") == 49_000
    assert table.state.house == 1_000 - 950
    assert table.state.in_play == table.state.bought_in - table.state.paid_out
    assert table.phase is Phase.IDLE and not table.state.bets


def test_bad_input_a_bet_larger_than_the_bettors_funds_is_refused() -> None:
    table = entry_table()
    table.join("ann", balance=500, seat=1)
    table.open_betting()
    error = refused(table, lambda: table.place_bet("ann", "player", 600), FundsError)
    assert "500 available" in str(error)


def test_bad_input_a_bet_after_betting_closed_is_refused(table: Table) -> None:
    table.place_bet("ann", "player", 100, now=2)
    table.close_betting(now=3)
    refused(table, lambda: table.place_bet("bob", "player", 100, now=3), BettingClosedError)
    refused(table, lambda: table.cancel_bet("ann", "player", now=3), BettingClosedError)
    play(table, PLAYER_NATURAL)
    refused(table, lambda: table.place_bet("bob", "player", 100, now=11), BettingClosedError)


def test_bad_input_unknown_bettors_bets_and_bets_off_the_menu_are_refused(table: Table) -> None:
    refused(table, lambda: table.place_bet("zed", "player", 100, now=2), TableError)
    refused(table, lambda: table.place_bet("ann", "dragon", 100, now=2), BetNotOffered)
    refused(table, lambda: table.place_bet("ann", "super6", 100, now=2), BetNotOffered)  # macau has none
    refused(table, lambda: table.place_bet("ann", "player", 0, now=2), LimitError)
    refused(table, lambda: table.cancel_bet("ann", "player", now=2), BetNotOffered)
    refused(table, lambda: table.place_bet("ann", "player", 100, now=0.5), ClockError)


def test_chinese_bet_names_are_accepted(table: Table) -> None:
    table.place_bet("ann", "莊", 200, now=2)
    assert table.bets_of("ann")[0].kind is BetKind.BANKER


def test_placing_the_same_bet_id_twice_places_it_once(table: Table) -> None:
    assert table.place_bet("ann", "player", 300, bet_id="c-1", now=2)
    assert table.place_bet("ann", "player", 300, bet_id="c-1", now=2) == []
    assert table.bets_of("ann")[0].stake == 300 and table.balance("ann") == 49_700
    refused(table, lambda: table.place_bet("ann", "player", 400, bet_id="c-1", now=2), BetNotOffered)
    table.close_betting(now=3)
    assert table.place_bet("ann", "player", 300, bet_id="c-1", now=3) == []  # a late retry is harmless


def test_cancel_returns_all_or_part_of_a_bet(table: Table) -> None:
    table.place_bet("ann", "player", 500, now=2)
    table.cancel_bet("ann", "player", amount=200, now=2)
    assert table.bets_of("ann")[0].stake == 300 and table.balance("ann") == 49_700
    refused(table, lambda: table.cancel_bet("ann", "player", amount=250, now=2), LimitError)  # leaves 50 < 100
    table.cancel_bet("ann", "player", now=2)
    assert not table.bets_of("ann") and table.balance("ann") == 50_000


def test_leave_with_bets_is_refused_and_leaving_pays_out(table: Table) -> None:
    table.place_bet("ann", "player", 500, now=2)
    refused(table, lambda: table.leave("ann", now=2), OpenBetsError)
    play(table, PLAYER_NATURAL)
    events = table.leave("ann", now=20)
    assert events[0].to_dict()["amount"] == 50_500
    assert "ann" not in table.state.bettors and table.seat_of(1) is None
    assert table.state.in_play == table.state.bought_in - table.state.paid_out


# --- R27: commission ----------------------------------------------------------------------------


def test_r27_commission_deducted_pays_095() -> None:
    table = entry_table()
    table.join("ann", balance=10_000, seat=1)
    table.open_betting()
    table.place_bet("ann", "banker", 2_000)
    s = settled(play(table, BANKER_NATURAL)).settlements[0]
    assert (s.paid, s.commission, s.owed, s.returned) == (1_900, 100, 0, 3_900)
    assert table.owed("ann") == 0 and table.balance("ann") == 11_900


def test_r27_commission_owed_is_tracked_and_collected_when_the_bettor_leaves() -> None:
    table = entry_table(commission=CommissionMode.OWED)
    table.join("ann", balance=10_000, seat=1)
    for cards in (BANKER_NATURAL, BANKER_NATURAL):
        table.open_betting()
        table.place_bet("ann", "banker", 2_000)
        play(table, cards)
    assert table.balance("ann") == 14_000 and table.owed("ann") == 200
    left = table.leave("ann")[0].to_dict()
    assert (left["amount"], left["commission"]) == (13_800, 200)
    assert table.state.house == -2_000 - 2_000 + 200  # two wins paid 1:1, then the commission box
    assert table.state.in_play == table.state.bought_in - table.state.paid_out


def test_r27_commission_owed_is_not_available_for_bets_and_is_collected_on_cash_out() -> None:
    table = entry_table(commission=CommissionMode.OWED)
    table.join("ann", balance=1_000, seat=1)
    table.open_betting()
    table.place_bet("ann", "banker", 1_000)
    play(table, BANKER_NATURAL)
    assert (table.balance("ann"), table.owed("ann")) == (2_000, 50)
    table.open_betting()
    refused(table, lambda: table.place_bet("ann", "player", 2_000), FundsError)
    refused(table, lambda: table.cash_out("ann", 1_960), FundsError)
    event = table.cash_out("ann", 1_000)[0].to_dict()
    assert (event["amount"], event["commission"]) == (1_000, 50)
    assert (table.balance("ann"), table.owed("ann")) == (950, 0)


# --- R24: ties ----------------------------------------------------------------------------------


def test_r24_push_returns_banker_and_player_bets_on_a_tie(table: Table) -> None:
    table.place_bet("ann", "banker", 1_000, now=2)
    table.place_bet("bob", "tie", 100, now=2)
    results = {s.bettor: s.result for s in settled(play(table, TIE_NATURALS)).settlements}
    assert results == {"ann": BetResult.PUSH, "bob": BetResult.WIN}
    assert table.balance("ann") == 50_000 and table.balance("bob") == 50_800


def stay_table(permissions: frozenset[TiePermission]) -> Table:
    table = entry_table(on_tie=TiePolicy.STAY, tie_permissions=permissions)
    table.join("ann", balance=10_000, seat=1)
    table.open_betting()
    table.place_bet("ann", "banker", 1_000)
    table.place_bet("ann", "player_pair", 100)
    result = settled(play(table, TIE_NATURALS))
    assert {s.kind: s.result for s in result.settlements} == {
        BetKind.BANKER: BetResult.STAY,
        BetKind.PLAYER_PAIR: BetResult.LOSE,
    }
    table.open_betting()
    return table


def test_r24_stay_keeps_banker_and_player_bets_in_action_for_the_next_coup() -> None:
    table = stay_table(frozenset(TiePermission))
    bet = table.bets_of("ann")[0]
    assert (bet.kind, bet.stake, bet.carried) == (BetKind.BANKER, 1_000, 1_000)
    assert table.balance("ann") == 8_900
    refused(table, lambda: table.leave("ann"), OpenBetsError)
    s = settled(play(table, BANKER_NATURAL)).settlements[0]
    assert (s.kind, s.result, s.returned) == (BetKind.BANKER, BetResult.WIN, 1_950)
    assert table.balance("ann") == 10_850


def test_r24_sjm_allows_only_adding_to_a_bet_kept_after_a_tie() -> None:
    table = stay_table(SJM_TIE_PERMISSIONS)
    for action in (
        lambda: table.cancel_bet("ann", "banker"),
        lambda: table.cancel_bet("ann", "banker", amount=500),
        lambda: table.switch_bet("ann", "banker"),
    ):
        assert refused(table, action, TiePermissionError).rule == "R24"
    table.place_bet("ann", "banker", 1_000)
    assert table.bets_of("ann")[0].stake == 2_000
    table.cancel_bet("ann", "banker", amount=1_000)  # the part added this round may come back
    refused(table, lambda: table.cancel_bet("ann", "banker", amount=100), TiePermissionError)


def test_r24_permissions_withdraw_reduce_and_switch_are_each_a_setting() -> None:
    table = stay_table(frozenset({TiePermission.REDUCE, TiePermission.SWITCH}))
    refused(table, lambda: table.cancel_bet("ann", "banker"), TiePermissionError)
    refused(table, lambda: table.place_bet("ann", "banker", 100), TiePermissionError)
    table.cancel_bet("ann", "banker", amount=500)
    table.switch_bet("ann", "banker")
    assert [(b.kind, b.stake) for b in table.bets_of("ann")] == [(BetKind.PLAYER, 500)]
    table = stay_table(frozenset({TiePermission.WITHDRAW}))
    table.cancel_bet("ann", "banker")
    assert not table.bets_of("ann") and table.balance("ann") == 9_900


# --- R28: switching variant ---------------------------------------------------------------------


def test_r28_a_bettor_switches_between_standard_and_no_commission_only_with_no_bet_open() -> None:
    table = entry_table(variant="standard")
    table.join("ann", balance=10_000, seat=1)
    table.open_betting()
    refused(table, lambda: table.place_bet("ann", "super6", 100), BetNotOffered)
    table.place_bet("ann", "banker", 1_000)
    assert refused(table, lambda: table.switch_variant("ann", "no_commission"), OpenBetsError).rule == "R28"
    table.cancel_bet("ann", "banker")
    table.switch_variant("ann", "no_commission")
    table.place_bet("ann", "banker", 1_000)
    table.place_bet("ann", "super6", 100)
    # Player 0 draws a 2; Banker 6 stands on it and wins with 6: no-commission pays 0.5, Super 6 pays 12.
    result = settled(play(table, "KS 3H QD 3C 2S"))
    assert result.winner is Winner.BANKER
    by_kind = {s.kind: s for s in result.settlements}
    assert (by_kind[BetKind.BANKER].paid, by_kind[BetKind.SUPER6].paid) == (500, 1_200)


def test_r28_switching_is_refused_at_a_macau_table() -> None:
    table = entry_table(variant="macau")
    table.join("ann", balance=10_000, seat=1)
    refused(table, lambda: table.switch_variant("ann", "no_commission"), VariantSwitchError)


# --- R18: dealer entry, cards not due, void -----------------------------------------------------


def test_r18_a_card_that_is_not_due_is_refused_with_the_card_that_is(table: Table) -> None:
    table.close_betting(now=2)
    error = refused(table, lambda: table.deal_card("AS", position=Position.BANKER_1, now=2), CardNotDue)
    assert "Player's 1st card" in str(error) and error.rule == "R18"
    for text in ["5S", "3H", "KD", "2C"]:
        table.deal_card(text, now=2)
    assert table.due is Position.PLAYER_3
    refused(table, lambda: table.deal_card("4S", position=Position.BANKER_3, now=2), CardNotDue)
    refused(table, lambda: table.deal_card(None, now=2), CardNotDue)
    refused(table, lambda: table.deal_card("ZZ", now=2), CardError)


def test_r18_dealer_entry_refuses_more_copies_of_a_card_than_the_shoe_holds() -> None:
    table = entry_table(shoe=ShoeConfig(decks=1))
    table.open_betting()
    table.close_betting()
    table.deal_card("AS")
    refused(table, lambda: table.deal_card("AS"), CardError)


def test_r18_the_last_card_entered_is_corrected_before_the_next_and_the_draw_follows_the_correction() -> None:
    table = entry_table(shoe=ShoeConfig(decks=1))
    table.open_betting()
    table.close_betting()
    refused(table, lambda: table.correct_card("AS"), PhaseError)  # nothing entered yet
    for text in ["5S", "3H", "KD"]:
        table.deal_card(text)
    refused(table, lambda: table.correct_card("KD"), CardError)  # the same card
    events = table.correct_card("4D")
    assert [type(e).__name__ for e in events] == ["CardCorrected"]
    assert events[0].to_dict() | {"at": 0} == {
        "type": "CardCorrected",
        "at": 0,
        "round": 1,
        "position": "player_2",
        "card": "4D",
        "replaced": "KD",
        "face_down": False,
    }
    assert table.state.shoe_cards[Card.parse("KD")] == 0 and table.state.shoe_cards[Card.parse("4D")] == 1
    assert table.can_deal_card("KD"), "the replaced card is back in the shoe"
    settled(table.deal_card("5C"))  # Player 9 (5 + 4): a natural, the coup ends at Banker's second card
    assert Table.replay(table.config, table.events).state == table.state
    assert Table.replay(table.config, [e.to_dict() for e in table.events]).state == table.state


def test_r18_a_correction_that_completes_the_coup_settles_it_and_a_card_the_shoe_lacks_is_refused() -> None:
    table = entry_table(shoe=ShoeConfig(decks=1))
    table.join("ann", balance=10_000)
    table.open_betting()
    table.place_bet("ann", "player", 1_000)
    table.close_betting()
    for text in ["AS", "AH", "AD", "2C", "3S"]:  # Player 2 draws a 3; Banker 3 then draws
        table.deal_card(text)
    assert table.due is Position.BANKER_3
    refused(table, lambda: table.correct_card("AS"), CardError)  # the one-deck shoe's A♠ is out
    events = table.correct_card("8S")  # Player's third is an 8: Banker 3 stands, the coup is complete
    assert [type(e).__name__ for e in events] == ["CardCorrected", "CoupSettled"]
    result = settled(events)
    assert result.winner is Winner.BANKER and table.balance("ann") == 9_000
    auto = Table(TableConfig(min_bet=100), source=SeededSource(1))
    auto.open_betting()
    auto.close_betting()
    refused(auto, lambda: auto.correct_card("AS"), CardNotDue)


def test_r18_cards_are_refused_outside_a_coup_and_an_automatic_table_refuses_entered_cards(table: Table) -> None:
    refused(table, lambda: table.deal_card("AS", now=2), ProcedureError)
    auto = Table(TableConfig(min_bet=100), source=SeededSource(1))
    auto.open_betting()
    auto.close_betting()
    refused(auto, lambda: auto.deal_card("AS"), CardNotDue)


def test_r18_void_returns_every_bet_in_full_and_leaves_balances_as_before(table: Table) -> None:
    before = {b: table.balance(b) for b in ("ann", "bob", "sam")}
    table.place_bet("ann", "banker", 1_000, now=2)
    table.place_bet("bob", "player", 2_000, now=2)
    table.place_bet("sam", "tie", 300, now=2)
    table.close_betting(now=3)
    table.deal_card("5S", now=3)
    event = table.void(reason="two cards stuck together", now=4)[0]
    assert isinstance(event, RoundVoided) and sum(r.stake for r in event.refunds) == 3_300
    assert {b: table.balance(b) for b in before} == before
    assert table.phase is Phase.IDLE and table.state.house == 0 and not table.state.bets
    refused(table, lambda: table.void(now=5), ProcedureError)


def test_r9_a_card_that_comes_out_face_up_stays_valid(table: Table) -> None:
    table.place_bet("ann", "player", 100, now=2)
    table.close_betting(now=2)
    events = table.deal_card("9S", exposed=True, now=2)
    assert isinstance(events[0], CardDealt) and events[0].exposed
    for text in ["2H", "KD", "3C"]:
        table.deal_card(text, now=2)
    assert table.phase is Phase.IDLE and table.state.results == [Winner.PLAYER]


# --- R5, R6, R8, R19: the shoe around the rounds ------------------------------------------------


def auto_table(seed: int = 5, **shoe: Any) -> Table:
    table = Table(TableConfig(min_bet=100, max_bet=10_000, shoe=ShoeConfig(**shoe)), source=SeededSource(seed))
    table.join("ann", balance=1_000_000, seat=1)
    return table


def auto_round(table: Table, bet: int = 100) -> list[Any]:
    events = table.open_betting()
    if not table.state.demo:
        events += table.place_bet("ann", "player", bet)
    events += table.close_betting()
    return events + table.deal()


def test_r5_demonstration_coups_take_no_bets_and_stay_off_the_scoreboard() -> None:
    table = auto_table(demo_coups=2)
    for _ in range(2):
        table.open_betting()
        assert table.state.demo
        assert refused(table, lambda: table.place_bet("ann", "player", 100), BettingClosedError).rule == "R5"
        table.close_betting()
        assert settled(table.deal()).demo
    assert table.state.results == []
    settled(auto_round(table))
    assert len(table.state.results) == 1


def test_r6_the_shoe_ends_with_its_last_coup_and_a_new_shoe_follows() -> None:
    table = auto_table(after_cut_card=AfterCutCard.ONE_MORE)
    results: list[CoupSettled] = []
    while not results or not results[-1].last:
        results.append(settled(auto_round(table)))
    assert table.state.shoe_over and table.state.cut_card_at is not None
    assert results[-1].coup_number == table.state.cut_card_at + 1
    events = table.open_betting()
    assert isinstance(events[0], ShoeChanged) and events[0].shoe_number == 2


def test_r6_dealer_entry_cut_card_finish_and_one_more() -> None:
    for rule, extra in ((AfterCutCard.FINISH, 0), (AfterCutCard.ONE_MORE, 1)):
        table = entry_table(shoe=ShoeConfig(after_cut_card=rule))
        table.open_betting()
        table.close_betting()
        table.deal_card("9S")
        table.mark_cut_card()
        last = [settled(play(table, "2H KD 3C")).last]
        for _ in range(extra):
            table.open_betting()
            last.append(settled(play(table, PLAYER_NATURAL)).last)
        assert last == [False] * extra + [True]
        assert isinstance(table.open_betting()[0], ShoeChanged)


def test_r6_the_house_changes_the_shoe_between_coups_only(table: Table) -> None:
    assert refused(table, lambda: table.change_shoe(now=2), ProcedureError).rule == "R6"
    play(table, PLAYER_NATURAL)
    number = table.state.shoe_number
    event = table.change_shoe(now=20)[0]
    assert isinstance(event, ShoeChanged) and event.shoe_number == number + 1
    assert table.state.coup_number == 0


def test_r8_a_continuous_shuffler_never_ends_its_shoe() -> None:
    table = auto_table(mode=DealingMode.CONTINUOUS)
    settlements = [settled(auto_round(table)) for _ in range(30)]
    assert not any(s.last for s in settlements)
    assert sum(isinstance(e, ShoeChanged) for e in table.events) == 1


def test_r19_pre_dealt_commitment_is_published_when_betting_opens_and_checks_out() -> None:
    table = auto_table(mode=DealingMode.PRE_DEALT)
    for _ in range(5):
        events = auto_round(table)
        opened = next(e for e in events if e.type == "BettingOpened")
        result = settled(events)
        text = f"{result.nonce}:{' '.join(str(c) for c in result.layout)}"
        assert opened.commitment == hashlib.sha256(text.encode()).hexdigest()
        assert list(result.layout[:4]) == [result.player[0], result.banker[0], result.player[1], result.banker[1]]


def test_r19_the_layout_stays_when_a_round_is_voided_before_dealing() -> None:
    table = auto_table(mode=DealingMode.PRE_DEALT)
    first = table.open_betting()[-1]
    table.void()
    second = table.open_betting()[-1]
    assert first.to_dict()["commitment"] == second.to_dict()["commitment"]


# --- R23: squeeze -------------------------------------------------------------------------------


@pytest.fixture
def squeeze() -> Table:
    table = entry_table(squeeze=True, squeeze_seconds=30)
    for name, seat in (("ann", 1), ("bob", 2), ("cy", 3)):
        table.join(name, balance=50_000, seat=seat)
    table.join("sam", balance=50_000)
    table.open_betting()
    table.place_bet("ann", "banker", 2_000)
    table.place_bet("bob", "banker", 3_000)
    table.place_bet("cy", "player", 1_000)
    table.place_bet("sam", "player", 5_000)  # standing: never squeezes
    table.close_betting(now=10)
    return table


def test_r23_the_largest_seated_bettors_squeeze_each_side(squeeze: Table) -> None:
    assert squeeze.squeezer(Side.BANKER) == "bob"
    assert squeeze.squeezer(Side.PLAYER) == "cy"


def test_r23_cards_lie_face_down_until_their_squeezer_turns_them_player_first(squeeze: Table) -> None:
    for text in ["5S", "3H", "KD", "2C"]:
        event = squeeze.deal_card(text, now=11)[0]
        assert isinstance(event, CardDealt) and event.face_down and event.public_dict()["card"] is None
    assert squeeze.public_state()["cards"] == dict.fromkeys(["player_1", "banker_1", "player_2", "banker_2"])
    refused(squeeze, lambda: squeeze.deal_card("4S", now=12), CardNotDue)
    assert refused(squeeze, lambda: squeeze.reveal("banker", by="bob", now=12), SqueezeError).rule == "R11"
    refused(squeeze, lambda: squeeze.reveal("player", by="ann", now=12), SqueezeError)
    refused(squeeze, lambda: squeeze.reveal("player", by=None, now=12), SqueezeError)  # squeeze time not up
    assert len(squeeze.reveal("player", by="cy", now=12)) == 2
    squeeze.reveal("banker", by="bob", now=13)
    assert squeeze.public_state()["cards"]["banker_1"] == "3H"
    # The third card is dealt and turned on its own.
    assert squeeze.deal_card("4S", now=14)[0].to_dict()["face_down"] is True
    assert squeeze.reveal_due is Side.PLAYER
    squeeze.reveal("player", by="cy", now=15)
    squeeze.deal_card("7D", now=16)
    result = settled(squeeze.reveal("banker", by="bob", now=17))
    assert result.winner is Winner.PLAYER


def test_r23_each_squeezer_alone_sees_the_face_down_cards_they_peel(squeeze: Table) -> None:
    for text in ["5S", "3H", "KD", "2C"]:
        squeeze.deal_card(text, now=11)
    assert squeeze.squeeze_cards("cy") == {"player_1": "5S", "player_2": "KD"}
    assert squeeze.squeeze_cards("bob") == {"banker_1": "3H", "banker_2": "2C"}
    assert squeeze.squeeze_cards("ann") == {} and squeeze.squeeze_cards("sam") == {}
    squeeze.reveal("player", by="cy", now=12)
    assert squeeze.squeeze_cards("cy") == {}  # turned: everyone's now
    squeeze.hand_over("bob", "banker", to="cy", now=12)
    assert squeeze.squeeze_cards("cy") == {"banker_1": "3H", "banker_2": "2C"}
    assert squeeze.squeeze_cards("bob") == {}
    squeeze.reveal("banker", by="cy", now=13)
    squeeze.deal_card("4S", now=14)  # Player's third card: on its own, for Player's squeezer
    assert squeeze.squeeze_cards("cy") == {"player_3": "4S"}


def test_r23_the_dealer_turns_the_cards_after_the_squeeze_time(squeeze: Table) -> None:
    play_cards = ["9S", "2H", "KD", "3C"]
    for text in play_cards:
        squeeze.deal_card(text, now=11)
    refused(squeeze, lambda: squeeze.reveal("player", now=40), SqueezeError)
    squeeze.reveal("player", now=41)  # 30 s after the fourth card
    refused(squeeze, lambda: squeeze.reveal("banker", now=70), SqueezeError)  # Banker's time runs from 41
    assert settled(squeeze.reveal("banker", now=71)).winner is Winner.PLAYER


def test_r23_the_squeezer_hands_over_to_a_seated_bettor_with_a_bet_or_to_the_dealer(squeeze: Table) -> None:
    refused(squeeze, lambda: squeeze.hand_over("ann", "banker", to="cy", now=11), SqueezeError)  # not hers
    refused(squeeze, lambda: squeeze.hand_over("bob", "banker", to="sam", now=11), SqueezeError)  # standing
    squeeze.join("dan", balance=100, seat=4, now=11)
    refused(squeeze, lambda: squeeze.hand_over("bob", "banker", to="dan", now=11), SqueezeError)  # no bet
    squeeze.hand_over("bob", "banker", to="cy", now=11)
    assert squeeze.squeezer(Side.BANKER) == "cy"
    squeeze.hand_over("cy", "player", to=None, now=11)
    for text in ["9S", "2H", "KD", "3C"]:
        squeeze.deal_card(text, now=12)
    assert squeeze.reveal_due is Side.BANKER  # Player's cards went face up: the dealer holds them
    assert settled(squeeze.reveal("banker", by="cy", now=13)).winner is Winner.PLAYER


def test_r23_with_squeeze_off_the_dealer_deals_face_up(table: Table) -> None:
    table.place_bet("ann", "banker", 1_000, now=2)
    events = play(table, BANKER_NATURAL)
    assert not any(isinstance(e, CardDealt) and e.face_down for e in events)
    assert table.squeezer(Side.BANKER) is None


# --- events, replay, config ---------------------------------------------------------------------


def busy_table() -> Table:
    table = entry_table(squeeze=True, on_tie=TiePolicy.STAY, commission=CommissionMode.OWED)
    table.join("ann", balance=20_000, seat=1)
    table.join("sam", balance=20_000)
    for cards in (TIE_NATURALS, BANKER_NATURAL, THIRD_CARDS):
        table.open_betting()
        if not table.bets_of("ann"):
            table.place_bet("ann", "banker", 1_000, bet_id=f"a{table.round}")
        table.place_bet("sam", "player", 500)
        play(table, cards)
    table.open_betting()
    table.place_bet("ann", "tie", 100)
    table.void()
    table.cash_out("ann", 100)
    return table


def test_every_event_round_trips_through_json_and_replay_rebuilds_the_state() -> None:
    table = busy_table()
    data = json.loads(json.dumps([e.to_dict() for e in table.events]))
    assert [event_from_dict(d) for d in data] == list(table.events)
    assert Table.replay(table.config, data).state == table.state
    assert Table.replay(table.config, table.events).state == table.state


def test_a_table_without_a_log_keeps_the_same_state_and_no_events() -> None:
    table = busy_table()
    bare = Table.replay(table.config, table.events, keep_log=False)
    assert bare.state == table.state
    assert bare.events == ()
    bare.open_betting()
    bare.place_bet("sam", "player", 500)
    assert bare.events == () and bare.bets_of("sam")


def test_replayed_automatic_table_voids_and_plays_on() -> None:
    table = auto_table()
    auto_round(table)
    before = table.balance("ann")
    table.open_betting()
    table.place_bet("ann", "player", 100)
    table.close_betting()
    table.deal_card()
    again = Table.replay(table.config, table.events, source=SeededSource(9))
    assert again.state == table.state
    again.void(reason="recovery")
    assert again.balance("ann") == before
    settled(auto_round(again))


def test_bad_events_are_refused() -> None:
    with pytest.raises(InputError):
        event_from_dict({"type": "BetPlaced", "at": 0})
    with pytest.raises(InputError):
        event_from_dict({"type": "Nope"})


def test_bet_placed_carries_the_client_id() -> None:
    table = busy_table()
    ids = [e.bet_id for e in table.events if isinstance(e, BetPlaced) and e.bet_id]
    assert ids == ["a1", "a3"]  # round 2 played the bet kept after the tie


def test_can_forms_agree_with_verify(table: Table) -> None:
    assert table.can_place_bet("ann", "player", 100, now=2)
    assert not table.can_place_bet("ann", "player", 10, now=2)
    assert not table.can_deal_card("AS", now=2)
    assert table.can_close_betting(now=2) and not table.can_open_betting(now=2)


def test_config_from_toml_and_dict_validate_every_setting() -> None:
    config = TableConfig.from_toml(
        """
        variant = "standard"
        dealing = "dealer_entry"
        seats = 14
        squeeze = true
        on_tie = "stay"
        tie_permissions = ["add", "switch"]
        [shoe]
        decks = 6
        demo_coups = 3
        """
    )
    assert config.deal_source is DealSource.DEALER_ENTRY and config.shoe.decks == 6
    assert config.tie_permissions == {TiePermission.ADD, TiePermission.SWITCH}
    assert TableConfig.from_dict(config.to_dict()) == config
    for bad in (
        {"variant": "nope"},
        {"on_tie": "maybe"},
        {"seats": "9"},
        {"dealing": "pre_dealt", "deal_source": "dealer_entry"},
        {"limits": {"super6": {"max": 100}}},
        {"min_bet": 500, "max_bet": 100},
        {"squeeze_seconds": 0},
        {"shoe": {"decks": 20}},
        {"tie_permissions": ["everything"]},
    ):
        with pytest.raises(InputError):
            TableConfig.from_dict(bad)
    assert TableConfig.from_dict({"id": "t1", "seats": 9}, ignore=["id"]).seats == 9


def test_cards_of_a_settled_coup_are_the_cards_entered(table: Table) -> None:
    result = settled(play(table, THIRD_CARDS))
    assert [*result.player, *result.banker] == [Card.parse(c) for c in ["5S", "KD", "4S", "3H", "2C", "7D"]]


def test_r4_a_dealer_entry_shoe_is_burned_once_by_its_method_before_the_first_coup() -> None:
    table = entry_table(shoe=ShoeConfig(decks=1))
    refused(table, lambda: table.burn("7S"), PhaseError)  # no shoe in play yet
    table.change_shoe()
    refused(table, lambda: table.burn(), CardError)  # method (b): the turned card is needed
    events = table.burn("7S")
    assert events[0].to_dict() | {"at": 0} == {
        "type": "ShoeBurned",
        "at": 0,
        "shoe_number": 1,
        "count": 7,
        "card": "7S",
    }
    assert table.state.burned == 7 and table.state.shoe_cards[Card.parse("7S")] == 1
    refused(table, lambda: table.burn("KD"), PhaseError)  # once a shoe
    table.open_betting()
    table.close_betting()
    refused(table, lambda: table.deal_card("7S"), CardError)  # the one-deck shoe's 7♠ was turned in the burn
    assert Table.replay(table.config, table.events).state == table.state
    decks = entry_table(shoe=ShoeConfig(decks=6, burn=BurnMethod.DECKS))
    decks.change_shoe()
    refused(decks, lambda: decks.burn("7S"), CardError)  # method (a) turns no card
    assert decks.burn()[0].count == 6
    again = Table.from_snapshot(decks.config, decks.snapshot())
    assert again.state.burned == 6 and again.state == Table.replay(decks.config, decks.events).state
