"""Drawing the scoreboards: terminal renderables and the SVG (well-formed, every mark present)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from baccarat.cards import parse_cards
from baccarat.coup import Winner, deal_coup
from baccarat.road_render import (
    DERIVED_GLYPHS,
    MARK_STYLES,
    PAIR_MARKS,
    ask_text,
    bead_plate_text,
    big_road_text,
    derived_text,
    legend_text,
    mark_glyph,
    render_scoreboard,
    render_svg,
    stats_text,
)
from baccarat.road_stats import shoe_stats
from baccarat.roads import DerivedRoad, Mark, Scoreboard

SVG = "{http://www.w3.org/2000/svg}"
# the worked example of test_roads.py: Big Eye Boy BBRBRBBBR, Small Road RBBBBBRB, Cockroach Pig RRRRR
WORKED = "TBB P BTBB PP TB PTPP"


def road_groups(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return {g.attrib["data-road"]: g for g in root.iter(f"{SVG}g") if "data-road" in g.attrib}


def marks(group: ET.Element) -> list[ET.Element]:
    return [e for e in group.iter() if e.attrib.get("class") == "mark"]


def test_svg_is_well_formed_and_has_every_mark() -> None:
    board = Scoreboard(WORKED)
    groups = road_groups(render_svg(board))
    assert set(groups) == {"bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig"}
    assert len(marks(groups["bead_plate"])) == 16
    assert len(marks(groups["big_road"])) == 12
    assert [m.attrib["data-mark"] for m in marks(groups["big_eye_boy"])] == list("BBRBRBBBR")
    assert [m.attrib["data-mark"] for m in marks(groups["small_road"])] == list("RBBBBBRB")
    assert [m.attrib["data-mark"] for m in marks(groups["cockroach_pig"])] == list("RRRRR")
    # glyphs as on casino boards: hollow circles, filled dots, slashes
    assert all(m.tag == f"{SVG}circle" and m.attrib["fill"] == "none" for m in marks(groups["big_eye_boy"]))
    assert all(m.tag == f"{SVG}circle" and m.attrib["fill"] != "none" for m in marks(groups["small_road"]))
    assert all(m.tag == f"{SVG}line" for m in marks(groups["cockroach_pig"]))


def test_svg_tie_slashes_counts_and_pair_dots() -> None:
    pairs = deal_coup(parse_cards("KS 3H KD 3C KH"))  # Banker wins with both pairs
    board = Scoreboard(["T", "B", "T", "T", "P", "T", pairs])
    root = ET.fromstring(render_svg(board))
    big = road_groups(render_svg(board))["big_road"]
    # cells: B with 3 ties (the leading one and two after), P with 1 tie, B with pairs
    assert len([e for e in big.iter() if e.attrib.get("class") == "tie"]) == 2
    assert [e.text for e in big.iter() if e.attrib.get("class") == "tie-count"] == ["3"]
    assert len([e for e in big.iter() if "banker-pair" in e.attrib.get("class", "")]) == 1
    bead = road_groups(render_svg(board))["bead_plate"]
    assert len([e for e in bead.iter() if "player-pair" in e.attrib.get("class", "")]) == 1
    assert root.find(f"{SVG}title") is not None


def test_svg_width_shows_the_latest_columns() -> None:
    board = Scoreboard("BP" * 6)  # 12 single Big Road columns, 2 Bead Plate columns
    groups = road_groups(render_svg(board, width=3))
    assert [m.attrib["data-result"] for m in marks(groups["big_road"])] == ["P", "B", "P"]
    assert len(marks(groups["bead_plate"])) == 12
    root = ET.fromstring(render_svg(board, width=3))
    narrow, wide = float(root.attrib["width"]), float(ET.fromstring(render_svg(board, width=30)).attrib["width"])
    assert narrow < wide


def test_svg_chinese_beads_and_empty_board() -> None:
    assert "莊" in render_svg(Scoreboard("B"), chinese=True)
    groups = road_groups(render_svg(Scoreboard()))
    assert all(marks(g) == [] for g in groups.values())


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("BP"), st.integers(1, 10), st.sampled_from(["", "T"])), max_size=20).map(
        lambda runs: "".join(side * n + tie for side, n, tie in runs)
    )
)
def test_svg_property_marks_match_the_roads(text: str) -> None:
    board = Scoreboard(text)
    groups = road_groups(render_svg(board))
    assert len(marks(groups["bead_plate"])) == len(text)
    assert len(marks(groups["big_road"])) == sum(board.column_lengths())
    for road in DerivedRoad:
        assert "".join(m.attrib["data-mark"] for m in marks(groups[road.value])) == board.marks(road)


def plain(renderable: object, width: int = 160) -> str:
    console = Console(width=width, color_system=None, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_terminal_derived_roads_use_casino_glyphs_and_colours() -> None:
    board = Scoreboard(WORKED)
    for road in DerivedRoad:
        text = derived_text(board, road, width=40)
        marks = board.marks(road)
        red_spans = [s for s in text.spans if s.style == MARK_STYLES[Mark.RED]]
        assert len(red_spans) == marks.count("R")
        # without colour the glyphs alone tell red from blue
        assert text.plain.count(mark_glyph(road, Mark.RED)) == marks.count("R")
        assert text.plain.count(mark_glyph(road, Mark.BLUE)) == marks.count("B")
    assert (DERIVED_GLYPHS[DerivedRoad.BIG_EYE_BOY], DERIVED_GLYPHS[DerivedRoad.SMALL_ROAD]) == ("○", "●")
    assert DERIVED_GLYPHS[DerivedRoad.COCKROACH_PIG] == "╱"
    assert all(mark_glyph(road, Mark.RED) == DERIVED_GLYPHS[road] for road in DerivedRoad)


def test_terminal_marks_differ_without_colour_and_fit_one_column() -> None:
    glyphs = [mark_glyph(road, mark) for road in DerivedRoad for mark in Mark]
    pair_glyphs = [glyph for key, (glyph, _) in PAIR_MARKS.items() if any(key)]
    assert len(set(glyphs)) == 6 and len(set(pair_glyphs)) == 3
    assert all(cell_len(glyph) == 1 for glyph in glyphs + pair_glyphs)
    # the ask road of "BPPPB": Banker -> red, blue, none; Player -> blue, red, none
    board = Scoreboard("BPPPB")
    assert [board.ask(Winner.BANKER)[road] for road in DerivedRoad] == [Mark.RED, Mark.BLUE, None]
    assert [board.ask(Winner.PLAYER)[road] for road in DerivedRoad] == [Mark.BLUE, Mark.RED, None]
    ask = plain(ask_text(board)).strip()
    assert ask == "Ask 問路  if Banker 莊: ○ ◉ –   if Player 閒: ◎ ● –"


def test_terminal_big_road_tie_counts_and_pairs() -> None:
    pairs = deal_coup(parse_cards("KS 3H KD 3C KH"))
    board = Scoreboard(["T", "T", "B", "P", pairs])
    lines = big_road_text(board, width=4).plain.splitlines()
    assert len(lines) == 6
    # first cell: B with 2 ties; then P; then B with both pairs marked before it
    assert lines[0] == " B2 P ▚B  · "
    bead = bead_plate_text(board, width=2).plain.splitlines()
    assert bead[4] == "▚B " + " · "


def test_terminal_tie_with_a_pair_next_to_a_pair_stays_readable() -> None:
    player_pair = deal_coup(parse_cards("4S 2C 4H 3D"))  # Player wins with a Player pair
    banker_pair = deal_coup(parse_cards("2S 4C 3S 4D"))  # Banker wins with a Banker pair
    tie_pairs = deal_coup(parse_cards("4S 4C 4H 4D"))  # a tie with both pairs
    assert (player_pair.player_pair, banker_pair.banker_pair, tie_pairs.winner) == (True, True, Winner.TIE)
    row = big_road_text(Scoreboard([player_pair, banker_pair]), width=2).plain.splitlines()[0]
    assert row == "▗P ▘B "
    row = big_road_text(Scoreboard([player_pair, banker_pair, "T"]), width=2).plain.splitlines()[0]
    assert row == "▗P ▘B1"  # was " P••B1": now a mark before each letter, the tie count after it
    row = big_road_text(Scoreboard([player_pair, "B", tie_pairs]), width=2).plain.splitlines()[0]
    assert row == "▗P ▚B1"  # the tie's pairs are marked on the cell it is counted on
    bead = bead_plate_text(Scoreboard([player_pair, banker_pair, tie_pairs]), width=1).plain.splitlines()
    assert bead[:3] == ["▗P ", "▘B ", "▚T "]
    assert "••" not in plain(render_scoreboard(Scoreboard([player_pair, banker_pair, tie_pairs])))


def test_legend_names_every_mark() -> None:
    lines = legend_text().plain.splitlines()
    assert lines == [
        "Key   pairs: ▘ Banker  ▗ Player  ▚ both   B2: 2 ties after B (+: 10 or more)",
        "      red, the pattern repeats:  ○ Big Eye Boy  ● Small Road  ╱ Cockroach Pig",
        "      blue, the pattern breaks:  ◎ Big Eye Boy  ◉ Small Road  ╲ Cockroach Pig",
    ]
    assert all(cell_len(line) <= 80 for line in lines)
    assert "pairs" not in legend_text(pairs=False).plain
    assert not legend_text().style  # only the glyphs and words are styled, not the whole key


def test_terminal_bead_plate_window_shows_the_latest_columns() -> None:
    board = Scoreboard("B" * 6 + "P" * 6 + "T")
    first_row = bead_plate_text(board, width=2).plain.splitlines()[0]
    assert first_row == " P  T "
    big = big_road_text(board, width=2)
    assert isinstance(big, Text) and len(big.plain.splitlines()[0]) == 6


def test_render_scoreboard_shows_every_road_the_ask_road_and_stats() -> None:
    board = Scoreboard("BPPBBBBPBP")
    out = plain(render_scoreboard(board))
    for title in (
        "Bead Plate 珠盤路",
        "Big Road 大路",
        "Big Eye Boy 大眼仔",
        "Small Road 小路",
        "Cockroach Pig 曱甴路",
    ):
        assert title in out
    assert "Ask 問路" in out and "if Banker 莊" in out and "if Player 閒" in out
    assert legend_text().plain in out  # the key, under the roads
    assert out.index("Cockroach Pig 曱甴路") < out.index("Key   pairs:") < out.index("Banker 莊 6")
    assert "pairs:" not in plain(render_scoreboard(board, pairs=False))
    assert "Banker 莊 6" in out and "Player 閒 4" in out
    assert "Long Banker" not in out  # the streak of 4 is over; only current patterns are shown
    assert "Banker 莊" in plain(stats_text(shoe_stats(board)))
