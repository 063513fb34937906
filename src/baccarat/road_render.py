"""Drawing the scoreboards: Rich renderables for the terminal and a self-contained SVG.

Glyphs follow casino boards (rules as data in :data:`DERIVED_GLYPHS`): the Bead Plate shows filled
beads, the Big Road hollow rings (letters in the terminal) with the tie count in green, Big Eye Boy
hollow circles, Small Road filled dots and Cockroach Pig slashes, red or blue. Pair dots: red for a
Banker pair, blue for a Player pair.

In the terminal every mark also reads without colour (:data:`MARK_GLYPHS`, :data:`PAIR_MARKS`): a blue
mark has its own glyph (Big Eye Boy ``○``/``◎``, Small Road ``●``/``◉``, Cockroach Pig ``╱``/``╲``)
and a pair is a corner mark before the letter, top left for a Banker pair as on casino boards
(``▘``), bottom right for a Player pair (``▗``), both (``▚``); :func:`legend_text` says so under the
roads.

Each road shows its latest ``width`` drawn columns (the scoreboard's display setting); the SVG shows
every column unless a width is given.

>>> from baccarat.roads import Scoreboard
>>> svg = render_svg(Scoreboard("BPPTB"))
>>> svg.startswith("<svg"), svg.count('class="mark"')  # 5 beads, 4 Big Road entries, 2 Big Eye Boy marks
(True, 11)
>>> from rich.console import Console
>>> console = Console(width=100, color_system=None)
>>> console.print(big_road_text(Scoreboard("BPPTB"), width=3))  # the tie is counted on the second P
 B  P  B
 ·  P1 ·
 ·  ·  ·
 ·  ·  ·
 ·  ·  ·
 ·  ·  ·
>>> console.print(derived_text(Scoreboard("BPPPB"), DerivedRoad.BIG_EYE_BOY, width=3))  # blue, red, blue
◎ ○ ◎
· · ·
· · ·
· · ·
· · ·
· · ·
"""

from __future__ import annotations

import math
from collections.abc import Callable
from xml.sax.saxutils import escape

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from baccarat.coup import Winner
from baccarat.road_stats import ShoeStats, shoe_stats
from baccarat.roads import ROWS, BigRoadCell, DerivedRoad, Mark, Outcome, Scoreboard

__all__ = [
    "DERIVED_GLYPHS",
    "MARK_COLOURS",
    "MARK_GLYPHS",
    "MARK_STYLES",
    "PAIR_MARKS",
    "SIDE_COLOURS",
    "SIDE_STYLES",
    "ask_text",
    "bead_plate_text",
    "big_road_text",
    "derived_text",
    "legend_text",
    "mark_glyph",
    "render_scoreboard",
    "render_svg",
    "stats_text",
]

#: Terminal styles of the three results.
SIDE_STYLES: dict[Winner, str] = {Winner.BANKER: "bold red", Winner.PLAYER: "bold blue", Winner.TIE: "bold green"}
#: Bead styles (filled beads).
_BEAD_STYLES: dict[Winner, str] = {
    Winner.BANKER: "bold bright_white on red",
    Winner.PLAYER: "bold bright_white on blue",
    Winner.TIE: "bold bright_white on green",
}
#: Terminal styles of the derived roads' marks.
MARK_STYLES: dict[Mark, str] = {Mark.RED: "bold red", Mark.BLUE: "bold blue"}
#: SVG colours.
SIDE_COLOURS: dict[Winner, str] = {Winner.BANKER: "#d0021b", Winner.PLAYER: "#1f5fd1", Winner.TIE: "#2e9d3a"}
MARK_COLOURS: dict[Mark, str] = {Mark.RED: SIDE_COLOURS[Winner.BANKER], Mark.BLUE: SIDE_COLOURS[Winner.PLAYER]}
#: The terminal glyph of each derived road, as on casino boards (its red mark's glyph).
DERIVED_GLYPHS: dict[DerivedRoad, str] = {
    DerivedRoad.BIG_EYE_BOY: "○",
    DerivedRoad.SMALL_ROAD: "●",
    DerivedRoad.COCKROACH_PIG: "╱",
}
#: The terminal glyph of each derived road's red and blue marks: the casino glyph for red, a variant
#: of it for blue, so that the two differ without colour (every glyph one column wide).
MARK_GLYPHS: dict[DerivedRoad, dict[Mark, str]] = {
    DerivedRoad.BIG_EYE_BOY: {Mark.RED: "○", Mark.BLUE: "◎"},
    DerivedRoad.SMALL_ROAD: {Mark.RED: "●", Mark.BLUE: "◉"},
    DerivedRoad.COCKROACH_PIG: {Mark.RED: "╱", Mark.BLUE: "╲"},
}
#: The pair mark written before a Bead Plate or Big Road letter, keyed by (Banker pair, Player pair),
#: with its style: a corner of the cell, top left for a Banker pair and bottom right for a Player pair.
PAIR_MARKS: dict[tuple[bool, bool], tuple[str, str]] = {
    (False, False): (" ", ""),
    (True, False): ("▘", "bold red"),
    (False, True): ("▗", "bold blue"),
    (True, True): ("▚", "bold magenta"),
}
_CHINESE: dict[Winner, str] = {Winner.BANKER: "莊", Winner.PLAYER: "閒", Winner.TIE: "和"}
_EMPTY_STYLE = "grey35"


def mark_glyph(road: DerivedRoad, mark: Mark) -> str:
    """The terminal glyph of a derived road's mark (:data:`MARK_GLYPHS`).

    >>> mark_glyph(DerivedRoad.COCKROACH_PIG, Mark.RED), mark_glyph(DerivedRoad.COCKROACH_PIG, Mark.BLUE)
    ('╱', '╲')
    """
    return MARK_GLYPHS[road][mark]


def _pair_mark(text: Text, banker_pair: bool, player_pair: bool) -> None:
    glyph, style = PAIR_MARKS[banker_pair, player_pair]
    text.append(glyph, style=style)


def _window(used: int, width: int) -> range:
    """The latest ``width`` drawn columns (padded with empty columns on a young road)."""
    start = max(0, used - width)
    return range(start, start + width)


def _grid_lines(columns: list[list[Text | None]], visible: range, *, cell_width: int, empty: str) -> Text:
    lines = Text()
    for row in range(ROWS):
        if row:
            lines.append("\n")
        for column in visible:
            cell = columns[column][row] if column < len(columns) else None
            if cell is None:
                lines.append(empty.center(cell_width), style=_EMPTY_STYLE)
            else:
                lines.append_text(cell)
    return lines


def bead_plate_text(board: Scoreboard, *, width: int | None = None, pairs: bool = True) -> Text:
    """The Bead Plate (R33) as 6 lines of filled beads, 3 characters a cell: pair mark, bead, space."""
    width = width or board.width

    def bead(outcome: Outcome) -> Text:
        text = Text()
        _pair_mark(text, pairs and outcome.banker_pair, pairs and outcome.player_pair)
        text.append(outcome.winner.letter, style=_BEAD_STYLES[outcome.winner])
        text.append(" ")
        return text

    columns: list[list[Text | None]] = [
        [bead(o) for o in column] + [None] * (ROWS - len(column)) for column in board.bead_plate()
    ]
    return _grid_lines(columns, _window(len(columns), width), cell_width=3, empty="·")


def big_road_text(board: Scoreboard, *, width: int | None = None, pairs: bool = True) -> Text:
    """The Big Road (R34) as drawn, 3 characters a cell: pair mark, ``B``/``P``, tie count.

    The pair mark (:data:`PAIR_MARKS`) stands before the letter and the tie count, in green, after
    it (``+`` for 10 or more), so that neighbouring cells never run together.
    """
    width = width or board.width

    def ring(cell: BigRoadCell | None) -> Text | None:
        if cell is None:
            return None
        text = Text()
        _pair_mark(text, pairs and cell.banker_pair, pairs and cell.player_pair)
        text.append(cell.result.letter, style=SIDE_STYLES[cell.result])
        if cell.ties:
            text.append(str(cell.ties) if cell.ties < 10 else "+", style=SIDE_STYLES[Winner.TIE])
        else:
            text.append(" ")
        return text

    columns = [[ring(cell) for cell in column] for column in board.big_road_grid()]
    return _grid_lines(columns, _window(len(columns), width), cell_width=3, empty="·")


def derived_text(board: Scoreboard, road: DerivedRoad, *, width: int | None = None) -> Text:
    """A derived road (R35) as drawn, 2 characters a cell, its marks in red or blue (:data:`MARK_GLYPHS`)."""
    width = width or board.width

    def mark(value: Mark | None) -> Text | None:
        return None if value is None else Text(mark_glyph(road, value) + " ", style=MARK_STYLES[value])

    columns = [[mark(m) for m in column] for column in board.derived_grid(road)]
    return _grid_lines(columns, _window(len(columns), width), cell_width=2, empty="·")


def ask_text(board: Scoreboard) -> Text:
    """The ask road (R36): the mark each derived road would add after a Banker, and after a Player."""
    text = Text("Ask 問路  ", style="bold")
    for i, winner in enumerate((Winner.BANKER, Winner.PLAYER)):
        if i:
            text.append("   ")
        text.append(f"if {winner.value.capitalize()} {_CHINESE[winner]}:", style=SIDE_STYLES[winner])
        for road, mark in board.ask(winner).items():
            text.append(" ")
            if mark is None:
                text.append("–", style=_EMPTY_STYLE)
            else:
                text.append(mark_glyph(road, mark), style=MARK_STYLES[mark])
    return text


def legend_text(*, pairs: bool = True) -> Text:
    """What the terminal marks mean, to print under the roads (``pairs``: the pair marks too).

    Every line fits in 80 columns.

    >>> print(legend_text().plain)
    Key   pairs: ▘ Banker  ▗ Player  ▚ both   B2: 2 ties after B (+: 10 or more)
          red, the pattern repeats:  ○ Big Eye Boy  ● Small Road  ╱ Cockroach Pig
          blue, the pattern breaks:  ◎ Big Eye Boy  ◉ Small Road  ╲ Cockroach Pig
    """
    text = Text()
    text.append("Key", style="bold")
    text.append("   ")
    if pairs:
        text.append("pairs:")
        for key, label in (((True, False), "Banker"), ((False, True), "Player"), ((True, True), "both")):
            glyph, style = PAIR_MARKS[key]
            text.append(" ")
            text.append(glyph, style=style)
            text.append(f" {label} ")
        text.append("  ")
    text.append("B", style=SIDE_STYLES[Winner.BANKER])
    text.append("2", style=SIDE_STYLES[Winner.TIE])
    text.append(": 2 ties after B (+: 10 or more)")
    for mark, meaning in ((Mark.RED, "red, the pattern repeats:"), (Mark.BLUE, "blue, the pattern breaks:")):
        text.append("\n      ")
        text.append(meaning, style=MARK_STYLES[mark])
        for road in DerivedRoad:
            text.append("  ")
            text.append(mark_glyph(road, mark), style=MARK_STYLES[mark])
            text.append(f" {road.label}")
    return text


def stats_text(stats: ShoeStats) -> Text:
    """The shoe's counts and its current pattern labels."""
    text = Text()
    for i, (label, count, style) in enumerate(
        (
            ("Banker 莊", stats.banker, SIDE_STYLES[Winner.BANKER]),
            ("Player 閒", stats.player, SIDE_STYLES[Winner.PLAYER]),
            ("Tie 和", stats.tie, SIDE_STYLES[Winner.TIE]),
        )
    ):
        if i:
            text.append("  ")
        text.append(f"{label} {count}", style=style)
    text.append(f"   of {stats.coups} coups")
    if stats.coups_with_cards:
        text.append(
            f"\nBanker pairs {stats.banker_pairs}  Player pairs {stats.player_pairs}  "
            f"naturals {stats.naturals}  Banker wins with 6: {stats.banker_wins_with_six}"
        )
    for label in stats.labels:
        text.append(f"\n{label}", style="italic")
    return text


def render_scoreboard(board: Scoreboard, *, width: int | None = None, stats: bool = True, pairs: bool = True) -> Group:
    """All five roads, the ask road, a key to the marks and the shoe statistics as one Rich renderable.

    ``width`` (default: the scoreboard's) is the Bead Plate and Big Road columns shown; the derived
    roads, drawn in half-size cells on casino boards, show 1½ times as many (Big Eye Boy) or ¾ as
    many each (Small Road and Cockroach Pig, side by side).
    """
    width = width or board.width
    parts: list[RenderableType] = [
        Panel(bead_plate_text(board, width=width, pairs=pairs), title="Bead Plate 珠盤路", expand=False),
        Panel(big_road_text(board, width=width, pairs=pairs), title="Big Road 大路", expand=False),
        Panel(
            derived_text(board, DerivedRoad.BIG_EYE_BOY, width=width * 3 // 2),
            title=f"{DerivedRoad.BIG_EYE_BOY.label} {DerivedRoad.BIG_EYE_BOY.chinese}",
            expand=False,
        ),
    ]
    pair_of_roads = Table.grid(padding=(0, 0))
    smaller = (DerivedRoad.SMALL_ROAD, DerivedRoad.COCKROACH_PIG)
    pair_of_roads.add_row(
        *(
            Panel(derived_text(board, road, width=max(1, width * 3 // 4)), title=f"{road.label} {road.chinese}")
            for road in smaller
        )
    )
    parts.append(pair_of_roads)
    parts.append(ask_text(board))
    parts.append(legend_text(pairs=pairs))
    if stats:
        parts.append(stats_text(shoe_stats(board)))
    return Group(*parts)


# --- SVG ------------------------------------------------------------------------------------------

_FONT = "font-family=\"Helvetica, Arial, 'Noto Sans CJK TC', sans-serif\""


class _Svg:
    """A tiny SVG writer: elements as strings, attribute values escaped."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attributes: str | float) -> None:
        attrs = " ".join(f'{name.rstrip("_").replace("_", "-")}="{_attr(value)}"' for name, value in attributes.items())
        if text is None:
            self.parts.append(f"<{tag} {attrs}/>")
        else:
            self.parts.append(f"<{tag} {attrs}>{escape(text)}</{tag}>")

    def raw(self, text: str) -> None:
        self.parts.append(text)


def _attr(value: str | float) -> str:
    if isinstance(value, float):
        value = f"{value:.2f}".rstrip("0").rstrip(".")
    return escape(str(value), {'"': "&quot;"})


def _svg_grid(svg: _Svg, *, x: float, y: float, columns: int, cell: float) -> None:
    svg.add(
        "rect", x=x, y=y, width=columns * cell, height=ROWS * cell, fill="#ffffff", stroke="#b0b0b0", stroke_width=1.0
    )
    path = [f"M{x + c * cell:.2f} {y:.2f}v{ROWS * cell:.2f}" for c in range(1, columns)]
    path += [f"M{x:.2f} {y + r * cell:.2f}h{columns * cell:.2f}" for r in range(1, ROWS)]
    if path:
        svg.add("path", d="".join(path), stroke="#e0e0e0", stroke_width=1.0, fill="none")


def _svg_title(svg: _Svg, text: str, *, x: float, y: float) -> None:
    svg.raw(
        f'<text x="{x:.2f}" y="{y:.2f}" font-size="12" font-weight="bold" fill="#333333" {_FONT}>{escape(text)}</text>'
    )


def _svg_road(
    svg: _Svg,
    *,
    title: str,
    road: str,
    placed: list[tuple[int, int, object]],
    shown: int,
    x: float,
    y: float,
    cell: float,
    draw: Callable[[_Svg, object, float, float, float], None],
) -> float:
    """Draw one road's title, grid and marks (in the order they were added); return the y below it."""
    _svg_title(svg, title, x=x, y=y + 12)
    top = y + 18
    _svg_grid(svg, x=x, y=top, columns=shown, cell=cell)
    used = max((column + 1 for column, _, _ in placed), default=0)
    visible = _window(used, shown)
    svg.raw(f'<g data-road="{road}">')
    for column, row, value in placed:
        if column in visible:
            offset = column - visible.start
            draw(svg, value, x + offset * cell + cell / 2, top + row * cell + cell / 2, cell)
    svg.raw("</g>")
    return top + ROWS * cell + 10


def _placed(positions: list[tuple[int, int]], values: list[object]) -> list[tuple[int, int, object]]:
    return [(column, row, value) for (column, row), value in zip(positions, values, strict=True)]


def render_svg(
    board: Scoreboard,
    *,
    width: int | None = None,
    cell: int = 24,
    chinese: bool = False,
    stats: bool = True,
) -> str:
    """All five roads, the ask road and the statistics as a self-contained SVG document.

    ``width``: drawn columns shown for the Bead Plate and Big Road (the latest ones; the derived
    roads, in half-size cells, show twice as many); by default every column, and at least the
    scoreboard's width. ``chinese`` writes 莊/閒/和 in the beads instead of B/P/T (needs a CJK font
    where the SVG is shown). Each result mark is an element with ``class="mark"`` inside a
    ``<g data-road="…">`` per road; tie slashes, tie counts and pair dots have their own classes.
    """
    beads: list[tuple[int, int, object]] = [(i // ROWS, i % ROWS, o) for i, o in enumerate(board.outcomes)]
    big = _placed(board.big_road_positions(), [cell for column in board.big_road_columns() for cell in column])
    derived = {
        road: _placed(board.derived_positions(road), [m for column in board.derived_columns(road) for m in column])
        for road in DerivedRoad
    }

    def used(placed: list[tuple[int, int, object]]) -> int:
        return max((column + 1 for column, _, _ in placed), default=0)

    if width is None:
        shown = max(board.width, used(beads), used(big), *(math.ceil(used(p) / 2) for p in derived.values()))
    else:
        shown = width
    half = cell / 2
    margin = 12.0
    svg = _Svg()
    y = margin
    svg.raw(
        f'<text x="{margin:.2f}" y="{y + 14:.2f}" font-size="16" font-weight="bold" fill="#111111" {_FONT}>'
        f"{escape('Scoreboards 路單')}</text>"
    )
    y += 24

    def bead(svg: _Svg, value: object, cx: float, cy: float, size: float) -> None:
        assert isinstance(value, Outcome)
        colour = SIDE_COLOURS[value.winner]
        svg.add("circle", class_="mark", data_result=value.winner.letter, cx=cx, cy=cy, r=size * 0.42, fill=colour)
        label = _CHINESE[value.winner] if chinese else value.winner.letter
        svg.raw(
            f'<text class="label" x="{cx:.2f}" y="{cy + size * 0.17:.2f}" font-size="{size * 0.5:.2f}" '
            f'text-anchor="middle" fill="#ffffff" {_FONT}>{escape(label)}</text>'
        )
        _pairs(svg, value.banker_pair, value.player_pair, cx, cy, size)

    def ring(svg: _Svg, value: object, cx: float, cy: float, size: float) -> None:
        assert isinstance(value, BigRoadCell)
        colour = SIDE_COLOURS[value.result]
        svg.add(
            "circle",
            class_="mark",
            data_result=value.result.letter,
            cx=cx,
            cy=cy,
            r=size * 0.36,
            fill="none",
            stroke=colour,
            stroke_width=size * 0.12,
        )
        if value.ties:
            d = size * 0.3
            svg.add(
                "line",
                class_="tie",
                x1=cx - d,
                y1=cy + d,
                x2=cx + d,
                y2=cy - d,
                stroke=SIDE_COLOURS[Winner.TIE],
                stroke_width=size * 0.1,
            )
            if value.ties > 1:
                svg.raw(
                    f'<text class="tie-count" x="{cx + size * 0.34:.2f}" y="{cy - size * 0.16:.2f}" font-size="{size * 0.4:.2f}" '
                    f'font-weight="bold" text-anchor="middle" fill="{SIDE_COLOURS[Winner.TIE]}" {_FONT}>'
                    f"{value.ties}</text>"
                )
        _pairs(svg, value.banker_pair, value.player_pair, cx, cy, size)

    def derived_mark(road: DerivedRoad) -> Callable[[_Svg, object, float, float, float], None]:
        def draw(svg: _Svg, value: object, cx: float, cy: float, size: float) -> None:
            assert isinstance(value, Mark)
            _svg_mark(svg, road, value, cx=cx, cy=cy, size=size, css="mark")

        return draw

    y = _svg_road(
        svg,
        title="Bead Plate 珠盤路",
        road="bead_plate",
        placed=beads,
        shown=shown,
        x=margin,
        y=y,
        cell=cell,
        draw=bead,
    )
    y = _svg_road(
        svg, title="Big Road 大路", road="big_road", placed=big, shown=shown, x=margin, y=y, cell=cell, draw=ring
    )
    for road in DerivedRoad:
        y = _svg_road(
            svg,
            title=f"{road.label} {road.chinese}",
            road=road.value,
            placed=derived[road],
            shown=shown * 2,
            x=margin,
            y=y,
            cell=half,
            draw=derived_mark(road),
        )
    # the ask road
    _svg_title(svg, "Ask 問路", x=margin, y=y + 12)
    y += 18
    x = margin
    for winner in (Winner.BANKER, Winner.PLAYER):
        svg.raw(f'<g class="ask" data-ask="{winner.value}">')
        svg.add("circle", cx=x + half, cy=y + half, r=half * 0.8, fill=SIDE_COLOURS[winner])
        svg.raw(
            f'<text x="{x + half:.2f}" y="{y + half + cell * 0.17:.2f}" font-size="{cell * 0.5:.2f}" '
            f'text-anchor="middle" fill="#ffffff" {_FONT}>{escape(_CHINESE[winner] if chinese else winner.letter)}</text>'
        )
        for i, (road, mark) in enumerate(board.ask(winner).items()):
            cx, cy = x + cell * (1.4 + 0.8 * i) + half / 2, y + half
            if mark is None:
                svg.add("circle", cx=cx, cy=cy, r=half * 0.15, fill="#b0b0b0")
            else:
                _svg_mark(svg, road, mark, cx=cx, cy=cy, size=half, css="ask-mark")
        svg.raw("</g>")
        x += cell * 4.2
    y += cell + 8
    if stats:
        numbers = shoe_stats(board)
        lines = [
            f"Banker 莊 {numbers.banker}   Player 閒 {numbers.player}   Tie 和 {numbers.tie}   ({numbers.coups} coups)"
        ]
        if numbers.coups_with_cards:
            lines.append(
                f"Banker pairs {numbers.banker_pairs}   Player pairs {numbers.player_pairs}   "
                f"naturals {numbers.naturals}   Banker wins with 6: {numbers.banker_wins_with_six}"
            )
        lines += numbers.labels
        for line in lines:
            svg.raw(
                f'<text class="stats" x="{margin:.2f}" y="{y + 12:.2f}" font-size="12" fill="#333333" {_FONT}>'
                f"{escape(line)}</text>"
            )
            y += 16
    total_width = margin * 2 + max(shown * cell, 8.6 * cell, 360)
    total_height = y + margin
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{total_width:.0f}" height="{total_height:.0f}" '
        f'viewBox="0 0 {total_width:.0f} {total_height:.0f}" role="img">'
        f"<title>{escape('Baccarat scoreboards (路單)')}</title>"
        f'<rect width="100%" height="100%" fill="#fafafa"/>'
    )
    return head + "".join(svg.parts) + "</svg>"


def _pairs(svg: _Svg, banker_pair: bool, player_pair: bool, cx: float, cy: float, size: float) -> None:
    d = size * 0.3
    if banker_pair:
        svg.add(
            "circle",
            class_="pair banker-pair",
            cx=cx - d,
            cy=cy - d,
            r=size * 0.1,
            fill=SIDE_COLOURS[Winner.BANKER],
            stroke="#ffffff",
            stroke_width=1.0,
        )
    if player_pair:
        svg.add(
            "circle",
            class_="pair player-pair",
            cx=cx + d,
            cy=cy + d,
            r=size * 0.1,
            fill=SIDE_COLOURS[Winner.PLAYER],
            stroke="#ffffff",
            stroke_width=1.0,
        )


def _svg_mark(svg: _Svg, road: DerivedRoad, mark: Mark, *, cx: float, cy: float, size: float, css: str) -> None:
    colour = MARK_COLOURS[mark]
    if road is DerivedRoad.BIG_EYE_BOY:
        svg.add(
            "circle",
            class_=css,
            data_mark=mark.value,
            cx=cx,
            cy=cy,
            r=size * 0.34,
            fill="none",
            stroke=colour,
            stroke_width=size * 0.14,
        )
    elif road is DerivedRoad.SMALL_ROAD:
        svg.add("circle", class_=css, data_mark=mark.value, cx=cx, cy=cy, r=size * 0.38, fill=colour)
    else:
        d = size * 0.36
        svg.add(
            "line",
            class_=css,
            data_mark=mark.value,
            x1=cx - d,
            y1=cy + d,
            x2=cx + d,
            y2=cy - d,
            stroke=colour,
            stroke_width=size * 0.16,
            stroke_linecap="round",
        )
