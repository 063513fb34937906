"""R36 on the roads themselves: where each road would draw the mark the ask road names, checked
against the roads extended by a real coup, and the ask road's colours against what that mark is."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.roads import ROWS, DerivedRoad, Scoreboard, Winner

results = st.text(alphabet="BPT", max_size=90)


@settings(max_examples=300, deadline=None)
@given(results, st.sampled_from([Winner.BANKER, Winner.PLAYER]))
def test_r36_the_next_mark_goes_where_the_ask_road_says_in_the_colour_it_says(played: str, winner: Winner) -> None:
    board = Scoreboard(played)
    at = board.ask_positions(winner)
    after = Scoreboard(played + winner.letter)
    assert at["bead_plate"] == (len(played) // ROWS, len(played) % ROWS)
    column, row = at["big_road"]  # type: ignore[misc]
    cell = after.big_road_grid()[column][row]
    assert cell is not None and cell.result is winner
    assert (column, row) not in board.big_road_positions()
    asked = board.ask(winner)
    for road in DerivedRoad:
        place = at[road.value]
        if asked[road] is None:
            assert place is None and after.marks(road) == board.marks(road)
        else:
            assert place is not None
            assert after.derived_grid(road)[place[0]][place[1]] == asked[road]
            assert place not in board.derived_positions(road)


def test_r36_a_tie_is_not_asked_about() -> None:
    import pytest

    from baccarat.errors import InputError

    with pytest.raises(InputError):
        Scoreboard("BP").ask_positions(Winner.TIE)


def test_the_roads_json_carries_the_positions() -> None:
    data = Scoreboard("BPPB").to_dict()
    assert data["ask_at"]["banker"]["big_road"] == [2, 1]  # B | P P | B: a Banker goes under the last B
    assert data["ask_at"]["player"]["big_road"] == [3, 0]  # a Player opens a fourth column
    assert set(data["ask_at"]["player"]) == {"bead_plate", "big_road", *(road.value for road in DerivedRoad)}
