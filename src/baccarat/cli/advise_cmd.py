"""``baccarat advise``: follow a shoe as it is dealt and show the exact EV of every bet for the next coup.

The cards come from ``--cards``, from standard input (one coup per line; a line ``new`` or ``shuffle``
starts a new shoe) or from a live table of the server (``--follow URL --table ID``, public messages only).

The module does without ``from __future__ import annotations``: its parameters' annotations are
objects when Typer reads them.
"""

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baccarat.cli.app import PANEL_MATHEMATICS, cli_errors, command, console
from baccarat.cli.params import VARIANT_HELP
from baccarat.cli.progress import working
from baccarat.cli.text import DIM, Styled, echo
from baccarat.errors import InputError

if TYPE_CHECKING:
    from baccarat.analysis.advisor import Advice, Advisor

__all__ = ["advise", "show"]

#: Lines of standard input that start a new shoe.
NEW_SHOE = ("new", "shuffle", "new shoe")


def show(advice: "Advice", *, as_json: bool, title: str = "", where: dict[str, Any] | None = None) -> None:
    """Print one update: a table (the +EV bets marked) under ``title``, or one JSON object on one line
    (``where``: fields added to it, the table and round a followed update is for)."""
    if as_json:
        import json

        typer.echo(json.dumps(advice.to_dict() | (where or {}), ensure_ascii=False))
        return
    from rich.table import Table

    if title:
        console().print(title, style="bold", highlight=False)
    heading = f"Next coup: {advice.cards_left} cards left, {advice.cards_seen} seen"
    table = Table(title=heading, title_justify="left")
    for name, justify in (("Bet", "left"), ("Pays", "right"), ("Win", "right"), ("EV", "right"), ("+EV", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for kind, bet in advice.figures.items():
        positive = bet.expected_value > 0
        style = "bold green" if positive else None
        table.add_row(
            kind.value,
            f"{float(bet.pays):g}",
            f"{float(bet.probability_win):.5f}",
            f"{float(bet.expected_value):+.5f}",
            "yes" if positive else "",
            style=style,
        )
    console().print(table)


def _from_stdin(advisor: "Advisor", as_json: bool, first: "Advice | None" = None) -> None:
    """One update before the first line (``first``, if already priced), then one after each line (a coup's cards)."""
    show(first or advisor.advice(), as_json=as_json)
    for number, raw in enumerate(sys.stdin, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower() in NEW_SHOE:
            advisor.new_shoe()
        else:
            try:
                advisor.see(line)
            except InputError as error:
                raise InputError(f"line {number}: {error.message}", hint=error.hint) from None
        show(advisor.advice(), as_json=as_json)


@command(PANEL_MATHEMATICS)
@cli_errors
def advise(
    decks: Annotated[int, typer.Option(help="Decks in the shoe, 1–12.")] = 8,
    variant: Annotated[str, typer.Option(help=VARIANT_HELP)] = "macau",
    cards: Annotated[
        str | None, typer.Option(help='Cards seen so far, e.g. "5S 5H K" (a bare rank: the suit with most left).')
    ] = None,
    follow: Annotated[
        str | None, typer.Option(help="Follow a live table of the server at this URL, e.g. http://127.0.0.1:8000.")
    ] = None,
    table: Annotated[str | None, typer.Option(help="With --follow: the table's id.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per update, one a line.")] = False,
) -> None:
    """Follow a shoe as it is dealt: the exact EV of every bet for the next coup, from the cards that remain.

    Examples: [bold]baccarat advise --cards "AS 2H 3D KC 4S 8D"[/], [bold]printf '9S 8H KD 5C\\n' | baccarat advise --json[/],
    [bold]baccarat advise --follow http://127.0.0.1:8000 --table macau-1[/]
    """
    from baccarat.analysis.advisor import Advisor

    if (follow is None) != (table is None):
        raise InputError(
            "--follow and --table go together", hint="give both, e.g. --follow http://HOST:8000 --table ID"
        )
    if follow is not None and cards is not None:
        raise InputError("give --cards or --follow, not both", hint="--follow reads the cards from the table")
    with working("preparing the exact pricing of the next coup"):
        advisor = Advisor(decks, variant=variant)
        if cards is not None:
            advisor.see(cards)
        first = None if follow is not None else advisor.advice()  # the first pricing is the slow one
    if follow is not None and table is not None:
        _follow(advisor, follow, table, as_json=as_json)
    elif cards is not None and first is not None:
        show(first, as_json=as_json)
    else:
        _from_stdin(advisor, as_json, first)


def _follow(advisor: "Advisor", url: str, table: str, *, as_json: bool) -> None:
    """``--follow``: every update titled with the table, shoe and round it follows; the connection's news on stderr."""
    from baccarat.cli.advise_follow import TablePosition, follow_table

    position = TablePosition(table)

    def emit(advice: "Advice") -> None:
        show(advice, as_json=as_json, title=position.label(), where=position.to_dict())

    def say(text: str) -> None:
        echo(Styled(text, DIM), stream=sys.stderr)

    follow_table(advisor, url, table, emit, position=position, connected=say)
    say(f"the server closed the connection to table {table}")
