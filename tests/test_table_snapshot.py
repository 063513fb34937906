"""Table snapshots between rounds (rebuilt equal, through JSON, with the events after them) and bet ids
kept for the round in play only."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest
from tests.test_table import (
    BANKER_NATURAL,
    PLAYER_NATURAL,
    THIRD_CARDS,
    TIE_NATURALS,
    auto_round,
    auto_table,
    busy_table,
    entry_table,
    play,
    settled,
)

from baccarat.bets import BetKind
from baccarat.coup import Winner
from baccarat.rng import SeededSource
from baccarat.settlement import BetResult, CommissionMode, TiePolicy
from baccarat.shoe import AfterCutCard, DealingMode, ShoeConfig
from baccarat.table import (
    SNAPSHOT_FORMAT,
    BetNotOffered,
    Phase,
    PhaseError,
    SnapshotError,
    Table,
    TableInputError,
    TableProcedureError,
)
from baccarat.table_config import SJM_TIE_PERMISSIONS
from baccarat.table_events import TableEvent


def through_json(table: Table) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(table.snapshot()))
    return data


def rebuilt(table: Table, **options: Any) -> Table:
    """The table rebuilt from its snapshot (through JSON); its state must equal the live one's."""
    again = Table.from_snapshot(table.config, through_json(table), **options)
    assert again.state == table.state
    return again


def stay_after_a_tie() -> Table:
    """Ties stay (SJM), commission owed, squeeze: a Banker bet carried into the next round."""
    table = entry_table(
        on_tie=TiePolicy.STAY, tie_permissions=SJM_TIE_PERMISSIONS, commission=CommissionMode.OWED, squeeze=True
    )
    table.join("ann", balance=20_000, seat=1, now=1)
    table.join("bob", balance=20_000, seat=4, now=1)
    table.join("sam", balance=5_000, now=1)
    for now, cards in ((2, BANKER_NATURAL), (4, TIE_NATURALS)):
        table.open_betting(now=now)
        if not table.bets_of("ann"):
            table.place_bet("ann", "banker", 2_000, bet_id=f"a{now}", now=now)
        table.place_bet("bob", "player", 1_000, now=now)
        table.place_bet("sam", "banker_pair", 100, now=now)
        play(table, cards, now=now + 1.25)
    return table


def variants_and_cut_card() -> Table:
    """A standard table: one bettor switched to no-commission, the cut card out, cards of the shoe entered."""
    table = entry_table(variant="standard", shoe=ShoeConfig(decks=1, after_cut_card=AfterCutCard.ONE_MORE))
    table.join("ann", balance=10_000, seat=2)
    table.join("cy", balance=10_000, seat=5, variant="no_commission")
    table.open_betting()
    table.place_bet("ann", "banker", 1_000)
    table.place_bet("cy", "super6", 100)
    play(table, THIRD_CARDS)
    table.mark_cut_card()
    return table


def automatic(mode: DealingMode, rounds: int = 4) -> Table:
    table = auto_table(seed=11, mode=mode, demo_coups=1 if mode is DealingMode.SHOE else 0)
    table.join("bob", balance=3_000)
    for _ in range(rounds):
        auto_round(table)
    return table


TABLES: dict[str, Callable[[], Table]] = {
    "new": lambda: entry_table(),
    "busy": busy_table,
    "stay after a tie": stay_after_a_tie,
    "variants and cut card": variants_and_cut_card,
    "automatic shoe": lambda: automatic(DealingMode.SHOE),
    "continuous shuffler": lambda: automatic(DealingMode.CONTINUOUS),
    "pre-dealt": lambda: automatic(DealingMode.PRE_DEALT),
}


@pytest.mark.parametrize("make", TABLES.values(), ids=TABLES.keys())
def test_a_snapshot_through_json_rebuilds_the_state(make: Callable[[], Table]) -> None:
    table = make()
    assert table.phase is Phase.IDLE
    data = through_json(table)
    assert data["format"] == SNAPSHOT_FORMAT
    assert Table.from_snapshot(table.config, data).state == table.state
    assert Table.from_snapshot(table.config, data, keep_log=False).state == table.state
    assert Table.replay(table.config, table.events).state == table.state


def test_the_states_of_the_snapshot_tests_are_varied() -> None:
    stay = stay_after_a_tie()
    carried = stay.bets_of("ann")[0]
    assert (carried.kind, carried.carried) == (BetKind.BANKER, 2_000)
    assert stay.owed("ann") == 100 and stay.owed("bob") == 0 and set(stay.state.bet_ids) == {"a2", "a4"}
    assert stay.state.reveal_since == 5.25 and stay.state.clock == 5.25
    busy = busy_table()
    assert busy.state.house != 0 and busy.state.paid_out == 100 and len(busy.state.results) == 3
    cut = variants_and_cut_card()
    assert cut.state.cut_card_at == 1 and sum(cut.state.shoe_cards.values()) == 6
    assert {b.variant for b in cut.state.bettors.values()} == {"standard", "no_commission"}
    assert automatic(DealingMode.SHOE).state.results and automatic(DealingMode.SHOE).state.shoe_number == 1


def test_a_table_from_a_snapshot_plays_on_exactly_like_the_live_one() -> None:
    live = stay_after_a_tie()
    again = rebuilt(live)

    def round_of(table: Table) -> list[TableEvent]:
        events = table.open_betting(now=6)
        events += table.place_bet("ann", "banker", 1_000, now=6)  # adding to the bet kept after the tie
        events += table.place_bet("bob", "player", 500, bet_id="b", now=6)
        events += table.place_bet("ann", "banker", 2_000, bet_id="a4", now=6)  # placed before: nothing
        return events + play(table, PLAYER_NATURAL, now=7)

    events = round_of(live)
    assert round_of(again) == events
    assert again.state == live.state
    assert settled(events).winner is Winner.PLAYER and live.state.bets == {}


def test_an_automatic_table_from_a_snapshot_deals_from_a_new_shoe_like_a_replay() -> None:
    live = automatic(DealingMode.SHOE)
    from_snapshot = Table.from_snapshot(live.config, through_json(live), source=SeededSource(3))
    replayed = Table.replay(live.config, live.events, source=SeededSource(3))
    assert from_snapshot.state == replayed.state == live.state
    assert auto_round(from_snapshot) == auto_round(replayed)
    assert from_snapshot.state == replayed.state


def test_the_events_after_a_snapshot_bring_it_up_to_date() -> None:
    table = stay_after_a_tie()
    data = through_json(table)
    seen = len(table.events)
    table.open_betting(now=7)
    table.place_bet("bob", "player", 300, now=7)
    table.close_betting(now=8)
    after = [e.to_dict() for e in table.events[seen:]]
    again = Table.from_snapshot(table.config, data, events=after)
    assert again.state == table.state and again.phase is Phase.DEALING
    assert [e.to_dict() for e in again.events] == after  # the log holds the events after the snapshot only
    assert Table.from_snapshot(table.config, data, events=after, keep_log=False).events == ()


def test_a_snapshot_is_refused_while_a_round_is_in_play() -> None:
    table = stay_after_a_tie()
    table.open_betting(now=6)
    for step in (lambda: None, lambda: table.close_betting(now=7), lambda: table.deal_card("9S", now=7)):
        step()
        state = copy.deepcopy(table.state)
        with pytest.raises(PhaseError, match="between rounds") as caught:
            table.snapshot()
        assert isinstance(caught.value, TableProcedureError)
        assert table.state == state
    assert table.phase is Phase.DEALING and table.state.face_down  # squeezed cards lie face down
    table.void(now=8)
    assert rebuilt(table).state.face_down == set()


def test_a_snapshot_of_another_format_or_malformed_data_is_refused() -> None:
    table = busy_table()
    good = through_json(table)
    wrong: list[Any] = [
        good | {"format": SNAPSHOT_FORMAT + 1},
        {k: v for k, v in good.items() if k != "format"},
        {k: v for k, v in good.items() if k != "bettors"},
        good | {"bets": [{"bettor": "nobody", "kind": "banker", "stake": 100, "spot": None, "carried": 0}]},
        good | {"bettors": good["bettors"] * 2},
        good | {"house": "12"},
        good | {"results": "BX"},
        good | {"shoe": good["shoe"] | {"cards": {"ZZ": 1}}},
        [good],
    ]
    for data in wrong:
        with pytest.raises(SnapshotError) as caught:
            Table.from_snapshot(table.config, data)
        assert isinstance(caught.value, TableInputError) and caught.value.hint


def test_bet_ids_are_remembered_for_the_tables_life_by_default() -> None:
    table = stay_after_a_tie()
    assert set(table.state.bet_ids) == {"a2", "a4"}
    table.open_betting()
    assert table.place_bet("ann", "banker", 2_000, bet_id="a2") == []  # placed two rounds ago: nothing
    assert table.state.bets[("ann", BetKind.BANKER)].stake == 2_000


def test_round_bet_ids_forgets_the_ids_when_a_round_is_settled_or_voided() -> None:
    table = Table(entry_table().config, round_bet_ids=True)
    table.join("ann", balance=10_000, seat=1)
    table.open_betting()
    assert table.place_bet("ann", "player", 300, bet_id="p1")
    assert table.place_bet("ann", "player", 300, bet_id="p1") == []  # within the round: placed once
    with pytest.raises(BetNotOffered):
        table.place_bet("ann", "player", 400, bet_id="p1")
    assert set(table.state.bet_ids) == {"p1"} and table.bets_of("ann")[0].stake == 300
    assert settled(play(table, PLAYER_NATURAL)).settlements[0].result is BetResult.WIN
    assert table.state.bet_ids == {}
    table.open_betting()
    assert table.place_bet("ann", "player", 300, bet_id="p1")  # a later round: a new placement
    table.void()
    assert table.state.bet_ids == {} and table.balance("ann") == 10_300
    replayed = Table.replay(table.config, table.events, round_bet_ids=True)
    assert replayed.state == table.state
    remembering = Table.replay(table.config, table.events)
    assert set(remembering.state.bet_ids) == {"p1"}
    assert dataclasses.replace(remembering.state, bet_ids={}) == table.state


def test_round_bet_ids_keeps_the_ids_of_the_round_in_play_through_a_snapshot() -> None:
    table = stay_after_a_tie()
    data = through_json(table)
    seen = len(table.events)
    table.open_betting(now=6)
    table.place_bet("bob", "player", 500, bet_id="b1", now=6)
    after = list(table.events[seen:])
    again = Table.from_snapshot(table.config, data, events=after, round_bet_ids=True)
    assert again.state == table.state and set(again.state.bet_ids) == {"a2", "a4", "b1"}
    assert again.place_bet("bob", "player", 500, bet_id="b1", now=6) == []
    play(again, BANKER_NATURAL, now=7)
    assert again.state.bet_ids == {} and again.bets_of("ann") == []
    assert rebuilt(again, round_bet_ids=True).round_bet_ids
