"""Terminal output without Rich: styled text and tables that fit the terminal, for quick commands.

Importing Rich costs about half as much as Typer itself, so the commands that must start quickly
(``baccarat deal``, ``baccarat --help``, error messages) print through this module. Colour follows
the usual conventions: none when ``NO_COLOR`` is set or the stream is not a terminal (``FORCE_COLOR``
turns it on anyway), and ``TERM=dumb`` gets none.

A :class:`TextTable` fits the width it is given: text columns fold onto several lines, then columns
marked droppable go (the least useful first), and a figure is never cut: a table that still does
not fit is printed whole, wider than the terminal.

>>> table = TextTable("Coups", [Column("#", justify="right"), Column("Result"), Column("Notes", fold=True)])
>>> table.add_row("1", Styled("Player", "1;34"), "natural, Player pair")
>>> print(table.render(width=20, colour=False))
       Coups
 #  Result  Notes
 ───────────────────
 1  Player  natural,
            Player
            pair
"""

from __future__ import annotations

import os
import shutil
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple, TextIO

__all__ = [
    "BOLD",
    "DIM",
    "Column",
    "Styled",
    "TextTable",
    "cell_width",
    "colour_enabled",
    "echo",
    "terminal_width",
    "wrap_words",
]

#: SGR codes used by the commands.
BOLD, DIM, RED, GREEN, YELLOW, BLUE, CYAN = "1", "2", "31", "32", "33", "34", "36"


def colour_enabled(stream: TextIO) -> bool:
    """Whether to colour what goes to ``stream`` (``NO_COLOR``, ``FORCE_COLOR``, ``TERM=dumb``, a terminal).

    >>> import io
    >>> colour_enabled(io.StringIO())
    False
    """
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def terminal_width(stream: TextIO | None = None) -> int:
    """Columns to fit: ``COLUMNS`` if set, else the terminal's width, else 80 (a pipe or a file)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    stream = sys.stdout if stream is None else stream
    try:
        if stream.isatty():
            return shutil.get_terminal_size((80, 24)).columns
    except (AttributeError, ValueError, OSError):
        pass
    return 80


def cell_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide (CJK) characters take two, combining marks none.

    >>> cell_width("Banker 莊"), cell_width("A♠")
    (9, 2)
    """
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


class Styled:
    """Text in spans, each with its SGR style (``"1;31"``: bold red; ``""``: plain).

    >>> Styled("error:", "1;31").plus(" no cards").render(colour=True)
    '\\x1b[1;31merror:\\x1b[0m no cards'
    >>> Styled("error:", "1;31").plus(" no cards").plain
    'error: no cards'
    """

    __slots__ = ("spans",)

    def __init__(self, text: str = "", style: str = "") -> None:
        self.spans: tuple[tuple[str, str], ...] = ((text, style),) if text else ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Styled) and other.spans == self.spans

    def __hash__(self) -> int:
        return hash(self.spans)

    def __repr__(self) -> str:
        return f"Styled.of({self.spans!r})"

    @classmethod
    def of(cls, spans: Iterable[tuple[str, str]]) -> Styled:
        """Text from ``(text, style)`` spans."""
        styled = cls()
        styled.spans = tuple((t, s) for t, s in spans if t)
        return styled

    def plus(self, text: str | Styled, style: str = "") -> Styled:
        """This text followed by ``text``."""
        more = text.spans if isinstance(text, Styled) else ((text, style),)
        return Styled.of((*self.spans, *more))

    @property
    def plain(self) -> str:
        """The text without styles."""
        return "".join(text for text, _ in self.spans)

    def render(self, *, colour: bool) -> str:
        """The text with ANSI colour codes, or plain."""
        if not colour:
            return self.plain
        return "".join(f"\x1b[{style}m{text}\x1b[0m" if style else text for text, style in self.spans)

    def words(self) -> list[Styled]:
        """The text split at spaces, each word keeping its styles."""
        words: list[list[tuple[str, str]]] = [[]]
        for text, style in self.spans:
            for i, part in enumerate(text.split(" ")):
                if i:
                    words.append([])
                if part:
                    words[-1].append((part, style))
        return [Styled.of(word) for word in words if word]


def _styled(cell: str | Styled) -> Styled:
    return cell if isinstance(cell, Styled) else Styled(cell)


def wrap_words(text: str | Styled, width: int) -> list[Styled]:
    """``text`` folded at spaces into lines of at most ``width`` columns (a longer word keeps its own line).

    >>> [line.plain for line in wrap_words("Player draws on 0–5", 10)]
    ['Player', 'draws on', '0–5']
    """
    lines: list[Styled] = []
    for paragraph in _split_lines(_styled(text)):
        line: list[tuple[str, str]] = []
        used = 0
        for word in paragraph.words():
            size = cell_width(word.plain)
            if line and used + 1 + size > width:
                lines.append(Styled.of(line))
                line, used = [], 0
            if line:
                line.append((" ", ""))
                used += 1
            line.extend(word.spans)
            used += size
        lines.append(Styled.of(line))
    return lines


def _split_lines(text: Styled) -> list[Styled]:
    lines: list[list[tuple[str, str]]] = [[]]
    for part, style in text.spans:
        for i, piece in enumerate(part.split("\n")):
            if i:
                lines.append([])
            lines[-1].append((piece, style))
    return [Styled.of(line) for line in lines]


class Column(NamedTuple):
    """A table column: ``fold`` lets its text fold onto several lines; a column with a ``drop`` rank
    may be left out when the table does not fit (the highest rank goes first)."""

    header: str
    justify: Literal["left", "right"] = "left"
    fold: bool = False
    drop: int | None = None


class TextTable:
    """A table of text: a title, a header, a rule under it and the rows, columns two spaces apart.

    ``repeat`` leading columns (the row names) head every block when the table is still too wide
    once its text has folded and its droppable columns are gone: the other columns are then shown
    in blocks one below the other, each as wide as fits.
    """

    __slots__ = ("caption", "columns", "repeat", "rows", "title")

    def __init__(self, title: str, columns: Sequence[Column], *, caption: str = "", repeat: int = 0) -> None:
        self.title = title
        self.columns = tuple(columns)
        self.rows: list[tuple[Styled, ...]] = []
        self.caption = caption
        self.repeat = repeat

    def add_row(self, *cells: str | Styled) -> None:
        """One row, a cell per column."""
        if len(cells) != len(self.columns):
            raise ValueError(f"{len(cells)} cells for {len(self.columns)} columns")
        self.rows.append(tuple(_styled(cell) for cell in cells))

    def render(self, *, width: int, colour: bool) -> str:
        """The table fitted to ``width`` columns, as lines of text."""
        keep, widths = self._fit(width)
        blocks = self._blocks(keep, widths, width)
        lines: list[str] = []
        for n, block in enumerate(blocks):
            columns = [self.columns[i] for i in block]
            block_widths = [widths[keep.index(i)] for i in block]
            total = sum(block_widths) + 2 * (len(block_widths) - 1) + 1
            if n:
                lines.append("")
            elif self.title:
                lines.append(_centre(Styled(self.title, BOLD), total).render(colour=colour).rstrip())
            header = [Styled(column.header, BOLD) for column in columns]
            lines.extend(_render_row(header, columns, block_widths, colour))
            lines.append(" " + Styled("─" * (total - 1), DIM).render(colour=colour))
            for row in self.rows:
                lines.extend(_render_row([row[i] for i in block], columns, block_widths, colour))
        dropped = [column.header for i, column in enumerate(self.columns) if i not in keep]
        notes = [self.caption] if self.caption else []
        if dropped:
            notes.append(
                f"Left out to fit {width} columns: {', '.join(dropped)} (a wider terminal shows every column)."
            )
        for note in notes:
            lines.extend(" " + line.render(colour=colour) for line in wrap_words(Styled(note, DIM), max(20, width - 1)))
        return "\n".join(lines)

    def _blocks(self, keep: list[int], widths: list[int], width: int) -> list[list[int]]:
        """The kept columns in blocks that each fit ``width`` (one block when the table fits, or cannot fold)."""
        if sum(widths) + 2 * (len(widths) - 1) + 1 <= width or not 0 < self.repeat < len(keep):
            return [keep]
        head = keep[: self.repeat]
        used = sum(widths[: self.repeat]) + 2 * (self.repeat - 1) + 1
        blocks: list[list[int]] = []
        block: list[int] = []
        room = used
        for i, size in zip(keep[self.repeat :], widths[self.repeat :], strict=True):
            if block and room + 2 + size > width:
                blocks.append(head + block)
                block, room = [], used
            block.append(i)
            room += 2 + size
        blocks.append(head + block)
        return blocks

    def _natural(self, index: int) -> tuple[int, int]:
        """(natural, narrowest) width of a column: its longest line, and its longest word when it folds."""
        cells = [Styled(self.columns[index].header), *(row[index] for row in self.rows)]
        natural = max(cell_width(line.plain) for cell in cells for line in _split_lines(cell))
        if not self.columns[index].fold:
            return natural, natural
        narrow = max((cell_width(word.plain) for cell in cells for word in cell.words()), default=1)
        return natural, max(narrow, 1)

    def _fit(self, width: int) -> tuple[list[int], list[int]]:
        """The columns kept and their widths: fold what folds, then drop columns, never cut a figure."""
        keep = list(range(len(self.columns)))
        sizes = {i: self._natural(i) for i in keep}
        droppable = sorted((c.drop, i) for i, c in enumerate(self.columns) if c.drop is not None)
        while True:
            widths = _shrink([sizes[i] for i in keep], width - 2 * (len(keep) - 1) - 1)
            if sum(widths) + 2 * (len(keep) - 1) + 1 <= width or not droppable:
                return keep, widths
            _, dropped = droppable.pop()
            keep.remove(dropped)


def _shrink(sizes: list[tuple[int, int]], room: int) -> list[int]:
    """Column widths in ``room``: natural widths, less from the widest folding columns first."""
    widths = [natural for natural, _ in sizes]
    while sum(widths) > room:
        candidates = [i for i, (_, narrow) in enumerate(sizes) if widths[i] > narrow]
        if not candidates:
            break
        widest = max(candidates, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def _centre(text: Styled, width: int) -> Styled:
    pad = max(0, (width - cell_width(text.plain)) // 2)
    return Styled(" " * pad).plus(text)


def _pad(text: Styled, width: int, justify: str) -> Styled:
    gap = " " * max(0, width - cell_width(text.plain))
    return Styled(gap).plus(text) if justify == "right" else text.plus(gap)


def _render_row(cells: Sequence[Styled], columns: Sequence[Column], widths: Sequence[int], colour: bool) -> list[str]:
    folded = [
        wrap_words(cell, width) if column.fold else _split_lines(cell)
        for cell, column, width in zip(cells, columns, widths, strict=True)
    ]
    height = max(len(lines) for lines in folded)
    out = []
    for n in range(height):
        parts = [
            _pad(lines[n] if n < len(lines) else Styled(), width, column.justify).render(colour=colour)
            for lines, column, width in zip(folded, columns, widths, strict=True)
        ]
        out.append((" " + "  ".join(parts)).rstrip())
    return out


def echo(text: str | Styled = "", *, stream: TextIO | None = None) -> None:
    """Print one line (styles only where the stream takes colour)."""
    out = sys.stdout if stream is None else stream
    out.write((text.render(colour=colour_enabled(out)) if isinstance(text, Styled) else text) + "\n")
