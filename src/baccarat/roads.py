"""The scoreboards (路單, R33–R36): Bead Plate, Big Road, the three derived roads and the ask road.

A :class:`Scoreboard` is fed one coup at a time (:meth:`Scoreboard.add`), from a
:class:`~baccarat.coup.CoupResult` (pairs, naturals and totals included), a
:class:`~baccarat.coup.Winner` or a letter (``B P T`` or ``莊 閒 和``). Every update is O(1)
amortised: the Big Road's logical columns, each road's drawn grid and the derived roads' marks are
extended in place, never rebuilt.

>>> board = Scoreboard("BPPPB")
>>> [[cell.result.letter for cell in column] for column in board.big_road_columns()]
[['B'], ['P', 'P', 'P'], ['B']]
>>> board.marks(DerivedRoad.BIG_EYE_BOY)
'BRB'
>>> {road.value: mark for road, mark in board.ask(Winner.BANKER).items()}
{'big_eye_boy': <Mark.RED: 'R'>, 'small_road': <Mark.BLUE: 'B'>, 'cockroach_pig': None}

The derived roads follow R35 exactly, straight drop included: a new entry at row ``m`` ≥ 2 of
logical column ``n`` is red when column ``n − k`` has length ``p`` ≥ ``m`` *or* ``p`` < ``m − 1``
(above: the third Player sits two rows below the end of the single Banker, so it is red), and
blue only when ``m = p + 1``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypeVar

from baccarat.coup import CoupResult, Winner
from baccarat.errors import InputError

__all__ = [
    "DEFAULT_WIDTH",
    "DERIVED_ROAD_OFFSETS",
    "RESULT_ALIASES",
    "ROWS",
    "BigRoadCell",
    "DerivedRoad",
    "DragonTailGrid",
    "Mark",
    "Outcome",
    "ResultLike",
    "Scoreboard",
    "derived_mark",
    "parse_results",
]

#: Rows of every drawn road (R33, R34).
ROWS = 6
#: Drawn columns shown by default (a display setting; the roads themselves are unbounded).
DEFAULT_WIDTH = 24

#: Text accepted for a result: letters (any case), traditional and simplified Chinese.
RESULT_ALIASES: dict[str, Winner] = {
    "B": Winner.BANKER,
    "P": Winner.PLAYER,
    "T": Winner.TIE,
    "莊": Winner.BANKER,
    "庄": Winner.BANKER,
    "閒": Winner.PLAYER,
    "闲": Winner.PLAYER,
    "和": Winner.TIE,
}
T = TypeVar("T")
_SEPARATORS = frozenset(" \t\r\n,;、，；")
_RESULT_HINT = (
    "write results as B (Banker, 莊), P (Player, 閒) or T (Tie, 和), e.g. BPPTB; spaces and commas are ignored"
)


class Mark(StrEnum):
    """A derived road's mark (R35): red for a repeating pattern, blue for a broken one."""

    RED = "R"
    BLUE = "B"

    @property
    def label(self) -> str:
        """``red`` or ``blue``."""
        return "red" if self is Mark.RED else "blue"


class DerivedRoad(StrEnum):
    """The three derived roads of R35; the value is the JSON key."""

    BIG_EYE_BOY = "big_eye_boy"
    SMALL_ROAD = "small_road"
    COCKROACH_PIG = "cockroach_pig"

    @property
    def offset(self) -> int:
        """``k`` of R35: how many logical columns back the road compares.

        >>> [road.offset for road in DerivedRoad]
        [1, 2, 3]
        """
        return DERIVED_ROAD_OFFSETS[self]

    @property
    def label(self) -> str:
        """English name, e.g. ``Big Eye Boy``."""
        return self.value.replace("_", " ").title()

    @property
    def chinese(self) -> str:
        """大眼仔, 小路 or 曱甴路."""
        return {"big_eye_boy": "大眼仔", "small_road": "小路", "cockroach_pig": "曱甴路"}[self.value]


#: ``k`` of R35 for each derived road (rules as data).
DERIVED_ROAD_OFFSETS: dict[DerivedRoad, int] = {
    DerivedRoad.BIG_EYE_BOY: 1,
    DerivedRoad.SMALL_ROAD: 2,
    DerivedRoad.COCKROACH_PIG: 3,
}


def _parse_one(text: str) -> Winner | None:
    alias = RESULT_ALIASES.get(text.upper())
    if alias is not None:
        return alias
    try:
        return Winner(text.lower())
    except ValueError:
        return None


def parse_results(text: str) -> list[Winner]:
    """Results written as letters (``BPPTB``) or Chinese (``莊閒閒和莊``); spaces and commas are ignored.

    >>> [w.letter for w in parse_results("B, p 莊和 閒")]
    ['B', 'P', 'B', 'T', 'P']
    >>> parse_results("BPXB")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: unknown result 'X' at position 3 of "BPXB" (write results as B (Banker, 莊), P (Player, 閒) or T (Tie, 和), e.g. BPPTB; spaces and commas are ignored)
    """
    results: list[Winner] = []
    for position, char in enumerate(text, start=1):
        if char in _SEPARATORS:
            continue
        winner = RESULT_ALIASES.get(char.upper())
        if winner is None:
            raise InputError(f'unknown result {char!r} at position {position} of "{text}"', hint=_RESULT_HINT)
        results.append(winner)
    return results


@dataclass(frozen=True, slots=True)
class Outcome:
    """One coup as the scoreboards see it: the winner, the pairs, a natural, the totals when known.

    Built from a letter or a :class:`~baccarat.coup.Winner`, only the winner is known (pairs and
    naturals read ``False``, totals ``None``).

    >>> from baccarat.coup import deal_coup
    >>> Outcome.of("莊").winner, Outcome.of(deal_coup(parse_cards("9S 8H KD 5C"))).natural
    (<Winner.BANKER: 'banker'>, True)
    """

    winner: Winner
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False
    banker_total: int | None = None
    player_total: int | None = None

    @classmethod
    def of(cls, item: ResultLike) -> Outcome:
        """An outcome from a coup result, a winner, or one result written as text."""
        if isinstance(item, Outcome):
            return item
        if isinstance(item, CoupResult):
            return cls(
                winner=item.winner,
                banker_pair=item.banker_pair,
                player_pair=item.player_pair,
                natural=item.natural,
                banker_total=item.banker.total,
                player_total=item.player.total,
            )
        if isinstance(item, Winner):
            return cls(item)
        if isinstance(item, str):
            winner = _parse_one(item.strip())
            if winner is None:
                raise InputError(f"unknown result {item!r}", hint=_RESULT_HINT)
            return cls(winner)
        raise InputError(
            f"cannot put {type(item).__name__} on a scoreboard",
            hint="add a CoupResult, a Winner or a result letter (B, P, T)",
        )

    @property
    def has_cards(self) -> bool:
        """Whether the outcome came from dealt cards (totals, pairs and naturals are known)."""
        return self.banker_total is not None

    def to_dict(self) -> dict[str, Any]:
        """A Bead Plate cell as JSON."""
        return {
            "result": self.winner.letter,
            "banker_pair": self.banker_pair,
            "player_pair": self.player_pair,
            "natural": self.natural,
            "banker_total": self.banker_total,
            "player_total": self.player_total,
        }


#: What :meth:`Scoreboard.add` accepts.
ResultLike = CoupResult | Winner | Outcome | str


@dataclass(frozen=True, slots=True)
class BigRoadCell:
    """One Big Road entry (R34): a Banker or Player win, the ties marked on it, and pair markers.

    ``banker_pair``/``player_pair`` mark a pair in any coup recorded on the cell (the win itself or
    a tie marked on it); ``natural`` is the win's own.
    """

    result: Winner
    ties: int = 0
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False

    def with_tie(self, tie: Outcome) -> BigRoadCell:
        """The cell with one more tie marked on it."""
        return replace(
            self,
            ties=self.ties + 1,
            banker_pair=self.banker_pair or tie.banker_pair,
            player_pair=self.player_pair or tie.player_pair,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a Big Road cell (``result`` and ``ties``, a stable interface), with the markers."""
        return {
            "result": self.result.letter,
            "ties": self.ties,
            "banker_pair": self.banker_pair,
            "player_pair": self.player_pair,
            "natural": self.natural,
        }


class DragonTailGrid:
    """Places a road's logical columns on a grid of :data:`ROWS` rows (R34's drawing rule).

    A logical column starts at row 0 of the drawn column after the previous one's start (or further
    right if that cell is taken by a tail) and goes down; at the last row, or above an occupied
    cell, it turns right and keeps going right (the dragon tail). Each placement is O(1) amortised.

    >>> grid = DragonTailGrid()
    >>> [grid.add(new_column=i == 0) for i in range(8)]
    [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5)]
    >>> grid.add(new_column=True), grid.add(new_column=False), grid.add(new_column=False)
    ((1, 0), (1, 1), (1, 2))
    """

    __slots__ = ("_cells", "_last", "_logical", "_start", "_turned", "columns_used", "rows")

    def __init__(self, *, rows: int = ROWS) -> None:
        self.rows = rows
        #: drawn (column, row) -> logical (column, index in column)
        self._cells: dict[tuple[int, int], tuple[int, int]] = {}
        self._start = -1
        self._last: tuple[int, int] | None = None
        self._turned = False
        self._logical = -1
        self.columns_used = 0

    def add(self, *, new_column: bool) -> tuple[int, int]:
        """Place the next entry: the first of a new logical column, or the next of the current one."""
        if new_column or self._last is None:
            column = self._start + 1
            while (column, 0) in self._cells:
                column += 1
            position = (column, 0)
            self._start = column
            self._turned = False
            self._logical += 1
            index = 0
        else:
            column, row = self._last
            if not self._turned and row + 1 < self.rows and (column, row + 1) not in self._cells:
                position = (column, row + 1)
            else:
                self._turned = True
                column += 1
                while (column, row) in self._cells:
                    column += 1
                position = (column, row)
            index = self._cells[self._last][1] + 1
        self._cells[position] = (self._logical, index)
        self._last = position
        self.columns_used = max(self.columns_used, position[0] + 1)
        return position

    def __len__(self) -> int:
        return len(self._cells)

    def __contains__(self, position: object) -> bool:
        return position in self._cells

    def at(self, column: int, row: int) -> tuple[int, int] | None:
        """The logical (column, index) drawn at this cell, or ``None``."""
        return self._cells.get((column, row))

    def positions(self) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        """Every placed entry as ((drawn column, row), (logical column, index)), in order of placement."""
        return iter(self._cells.items())


def derived_mark(lengths: Sequence[int], *, column: int, row: int, offset: int) -> Mark | None:
    """R35 for one new Big Road entry at ``row`` (1-based) of logical ``column`` (0-based).

    ``lengths`` are the Big Road's logical column lengths (only columns before ``column`` are read);
    ``offset`` is the road's ``k``. ``None`` where the compared column does not exist.

    >>> derived_mark([1, 3], column=1, row=2, offset=1)   # m = p + 1
    <Mark.BLUE: 'B'>
    >>> derived_mark([1, 3], column=1, row=3, offset=1)   # m > p + 1: straight drop
    <Mark.RED: 'R'>
    >>> derived_mark([2, 1, 1], column=2, row=1, offset=1)  # columns 2 and 1 differ
    <Mark.BLUE: 'B'>
    >>> derived_mark([2, 1, 1], column=2, row=1, offset=2) is None
    True
    """
    if row >= 2:
        compared = column - offset
        if compared < 0:
            return None
        return Mark.BLUE if row == lengths[compared] + 1 else Mark.RED
    left = column - 1
    compared = left - offset
    if compared < 0:
        return None
    return Mark.RED if lengths[left] == lengths[compared] else Mark.BLUE


class _DerivedState:
    """One derived road's marks, logical columns and drawn grid, extended in place."""

    __slots__ = ("columns", "grid", "marks")

    def __init__(self) -> None:
        self.marks: list[Mark] = []
        self.columns: list[list[Mark]] = []
        self.grid = DragonTailGrid()

    def add(self, mark: Mark) -> None:
        new_column = not self.marks or self.marks[-1] is not mark
        self.marks.append(mark)
        if new_column:
            self.columns.append([mark])
        else:
            self.columns[-1].append(mark)
        self.grid.add(new_column=new_column)


class Scoreboard:
    """Every road of one shoe, fed one coup at a time (R33–R36); each :meth:`add` is O(1) amortised.

    ``width`` is the number of drawn columns a display shows (the latest ones); it changes nothing
    in the roads themselves.

    >>> board = Scoreboard(width=12)
    >>> for result in "TTBBP":
    ...     _ = board.add(result)
    >>> [cell.to_dict()["ties"] for column in board.big_road_columns() for cell in column]
    [2, 0, 0]
    >>> board.to_dict()["big_road"]["columns"][0][0]["result"], len(board)
    ('B', 5)
    """

    def __init__(self, results: Iterable[ResultLike] | str = (), *, width: int = DEFAULT_WIDTH) -> None:
        if width < 1:
            raise InputError(f"scoreboard width {width} is too small", hint="show at least 1 column, e.g. 24")
        self.width = width
        self._outcomes: list[Outcome] = []
        self._columns: list[list[BigRoadCell]] = []
        self._lengths: list[int] = []
        self._pending: BigRoadCell | None = None  # ties before the first Banker/Player result
        self._grid = DragonTailGrid()
        self._derived = {road: _DerivedState() for road in DerivedRoad}
        self.extend(parse_results(results) if isinstance(results, str) else results)

    # --- feeding ---------------------------------------------------------------------------------

    def add(self, item: ResultLike) -> Outcome:
        """Record one coup on every road; returns the outcome recorded."""
        outcome = Outcome.of(item)
        self._outcomes.append(outcome)
        winner = outcome.winner
        if winner is Winner.TIE:
            if self._columns:
                last = self._columns[-1]
                last[-1] = last[-1].with_tie(outcome)
            else:
                pending = self._pending or BigRoadCell(Winner.TIE)
                self._pending = pending.with_tie(outcome)
            return outcome
        cell = BigRoadCell(
            result=winner,
            banker_pair=outcome.banker_pair,
            player_pair=outcome.player_pair,
            natural=outcome.natural,
        )
        if self._pending is not None:
            pending, self._pending = self._pending, None
            cell = replace(
                cell,
                ties=pending.ties,
                banker_pair=cell.banker_pair or pending.banker_pair,
                player_pair=cell.player_pair or pending.player_pair,
            )
        new_column = not self._columns or self._columns[-1][0].result is not winner
        if new_column:
            self._columns.append([cell])
            self._lengths.append(1)
        else:
            self._columns[-1].append(cell)
            self._lengths[-1] += 1
        self._grid.add(new_column=new_column)
        column, row = len(self._lengths) - 1, self._lengths[-1]
        for road, state in self._derived.items():
            mark = derived_mark(self._lengths, column=column, row=row, offset=road.offset)
            if mark is not None:
                state.add(mark)
        return outcome

    def extend(self, items: Iterable[ResultLike]) -> None:
        """Record several coups in order."""
        for item in items:
            self.add(item)

    # --- reading ---------------------------------------------------------------------------------

    def __len__(self) -> int:
        """Coups recorded, ties included."""
        return len(self._outcomes)

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Every coup recorded, in order (the Bead Plate's cells)."""
        return tuple(self._outcomes)

    @property
    def leading_ties(self) -> int:
        """Ties recorded before any Banker or Player result (they go on the first Big Road cell)."""
        if self._pending is not None:
            return self._pending.ties
        return self._columns[0][0].ties if self._columns else 0

    def bead_plate(self) -> list[list[Outcome]]:
        """The Bead Plate (R33): every coup, columns of :data:`ROWS` filled top to bottom."""
        return [self._outcomes[i : i + ROWS] for i in range(0, len(self._outcomes), ROWS)]

    def big_road_columns(self) -> list[list[BigRoadCell]]:
        """The Big Road's logical columns (R34), each at its true length."""
        return [list(column) for column in self._columns]

    def column_lengths(self) -> tuple[int, ...]:
        """The Big Road's logical column lengths."""
        return tuple(self._lengths)

    def big_road_grid(self) -> list[list[BigRoadCell | None]]:
        """The Big Road as drawn: drawn columns of :data:`ROWS` cells, dragon tails turned right."""
        return _draw(self._grid, lambda column, index: self._columns[column][index])

    def big_road_positions(self) -> list[tuple[int, int]]:
        """Drawn (column, row) of every Big Road entry, in order."""
        return [position for position, _ in self._grid.positions()]

    def marks(self, road: DerivedRoad) -> str:
        """A derived road's marks in the order they were added, e.g. ``'RRB'``."""
        return "".join(self._derived[road].marks)

    def derived_columns(self, road: DerivedRoad) -> list[list[Mark]]:
        """A derived road's logical columns (same mark: down, other mark: next column)."""
        return [list(column) for column in self._derived[road].columns]

    def derived_grid(self, road: DerivedRoad) -> list[list[Mark | None]]:
        """A derived road drawn with Big Road placement (6 rows, dragon tail)."""
        state = self._derived[road]
        return _draw(state.grid, lambda column, index: state.columns[column][index])

    def derived_positions(self, road: DerivedRoad) -> list[tuple[int, int]]:
        """Drawn (column, row) of every mark of a derived road, in order."""
        return [position for position, _ in self._derived[road].grid.positions()]

    def ask(self, winner: Winner) -> dict[DerivedRoad, Mark | None]:
        """The ask road (R36): the mark each derived road would add if the next coup were ``winner``.

        >>> board = Scoreboard("BPB")
        >>> [str(m) for m in board.ask(Winner.PLAYER).values()], [str(m) for m in board.ask(Winner.BANKER).values()]
        (['R', 'R', 'None'], ['B', 'B', 'None'])
        """
        if winner is Winner.TIE:
            raise InputError("the ask road asks about Banker or Player", hint="ask with Winner.BANKER or Winner.PLAYER")
        if not self._columns:
            return dict.fromkeys(DerivedRoad)
        if self._columns[-1][0].result is winner:
            column, row = len(self._lengths) - 1, self._lengths[-1] + 1
        else:
            column, row = len(self._lengths), 1
        return {road: derived_mark(self._lengths, column=column, row=row, offset=road.offset) for road in DerivedRoad}

    def ask_positions(self, winner: Winner) -> dict[str, tuple[int, int] | None]:
        """Where each road would draw its next mark if the next coup were ``winner`` (the ask road,
        R36, shown on the roads themselves): drawn ``(column, row)`` on the Bead Plate, the Big Road
        and each derived road (``None``: that road would add no mark). The roads are extended by the
        same rules as a real coup, on a copy.

        >>> board = Scoreboard("BBBBBB")
        >>> board.ask_positions(Winner.BANKER)["big_road"], board.ask_positions(Winner.PLAYER)["big_road"]
        ((1, 5), (1, 0))
        >>> board.ask_positions(Winner.PLAYER)["bead_plate"], board.ask_positions(Winner.PLAYER)["big_eye_boy"]
        ((1, 0), None)
        """
        if winner is Winner.TIE:
            raise InputError("the ask road asks about Banker or Player", hint="ask with Winner.BANKER or Winner.PLAYER")
        after = Scoreboard(self._outcomes, width=self.width)
        after.add(winner)
        count = len(self._outcomes)
        found: dict[str, tuple[int, int] | None] = {
            "bead_plate": (count // ROWS, count % ROWS),
            "big_road": after.big_road_positions()[-1],
        }
        for road in DerivedRoad:
            grew = len(after._derived[road].marks) > len(self._derived[road].marks)
            found[road.value] = after.derived_positions(road)[-1] if grew else None
        return found

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``baccarat roads --json`` (docs/architecture.md, "Stable interfaces"), with extra fields."""

        def cell_json(cell: BigRoadCell | None) -> dict[str, Any] | None:
            return None if cell is None else cell.to_dict()

        def mark_json(mark: Mark | None) -> str | None:
            return None if mark is None else mark.value

        data: dict[str, Any] = {
            "bead_plate": [[o.to_dict() for o in column] for column in self.bead_plate()],
            "big_road": {
                "columns": [[cell.to_dict() for cell in column] for column in self._columns],
                "grid": [[cell_json(cell) for cell in column] for column in self.big_road_grid()],
                "leading_ties": self.leading_ties,
            },
        }
        for road in DerivedRoad:
            data[road.value] = self.marks(road)
        data["ask"] = {
            winner.value: {road.value: mark_json(mark) for road, mark in self.ask(winner).items()}
            for winner in (Winner.BANKER, Winner.PLAYER)
        }
        data["ask_at"] = {
            winner.value: {road: None if at is None else list(at) for road, at in self.ask_positions(winner).items()}
            for winner in (Winner.BANKER, Winner.PLAYER)
        }
        data["derived"] = {
            road.value: {
                "columns": ["".join(column) for column in self._derived[road].columns],
                "grid": [[mark_json(mark) for mark in column] for column in self.derived_grid(road)],
            }
            for road in DerivedRoad
        }
        data["results"] = "".join(o.winner.letter for o in self._outcomes)
        data["width"] = self.width
        return data


def _draw(grid: DragonTailGrid, lookup: Callable[[int, int], T]) -> list[list[T | None]]:
    drawn: list[list[T | None]] = [[None] * grid.rows for _ in range(grid.columns_used)]
    for (column, row), (logical, index) in grid.positions():
        drawn[column][row] = lookup(logical, index)
    return drawn
