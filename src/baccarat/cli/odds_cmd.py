"""``baccarat odds``: the exact par sheet (or the effects of removal) of a variant or paytable, for any shoe."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from baccarat.cards import Rank
from baccarat.cli.app import PANEL_MATHEMATICS, app, cli_errors, console, emit_json
from baccarat.errors import InputError
from baccarat.paytables import format_pays
from baccarat.shoe import ShoeConfig

if TYPE_CHECKING:  # the analysis (and numba) load only when `odds` runs, keeping the other commands quick
    from baccarat.analysis.eor import EffectsOfRemoval
    from baccarat.analysis.par_sheet import ParSheet

__all__ = ["OutputFormat", "odds"]

#: Cards behind the cut card by default (R4): the shoe's default.
DEFAULT_CUT_CARDS = ShoeConfig().cut_card_from_end


class OutputFormat(StrEnum):
    """How ``baccarat odds`` prints its figures."""

    TABLE = "table"
    JSON = "json"
    CSV = "csv"
    MARKDOWN = "markdown"


def _output_format(as_json: bool, as_csv: bool, as_markdown: bool) -> OutputFormat:
    chosen = [
        fmt
        for fmt, on in ((OutputFormat.JSON, as_json), (OutputFormat.CSV, as_csv), (OutputFormat.MARKDOWN, as_markdown))
        if on
    ]
    if len(chosen) > 1:
        raise InputError(
            f"choose one output format, not {' and '.join('--' + fmt.value for fmt in chosen)}",
            hint="give at most one of --json, --csv, --markdown",
        )
    return chosen[0] if chosen else OutputFormat.TABLE


def _print_wide(table: Table) -> None:
    """Print a table at its natural width even on a narrow (or piped) console: figures are never cut."""
    natural = Measurement.get(console, console.options.update_width(400), table).maximum
    if natural <= console.width:
        console.print(table)
    else:
        Console(width=natural).print(table)


def _pct(value: float, digits: int = 4) -> str:
    return f"{value * 100:.{digits}f}%"


def _print_sheet(sheet: ParSheet) -> None:
    from baccarat.analysis.report import shoe_description

    shoe = shoe_description(sheet.decks, sheet.cards_in_shoe)
    outcomes = Table(title=f"{sheet.paytable.title} {sheet.paytable.title_zh}: {shoe}", header_style="bold")
    outcomes.add_column("Outcome")
    outcomes.add_column("Ways", justify="right")
    outcomes.add_column("Probability", justify="right")
    for winner, figures in sheet.outcomes.items():
        outcomes.add_row(winner.value.capitalize(), f"{figures.ways:,}", f"{float(figures.probability):.6f}")
    outcomes.add_row("[dim]all deals[/]", f"[dim]{sheet.total_ways:,}[/]", "[dim]1[/]")
    console.print(outcomes)

    bets = Table(title="Bets (per unit stake)", header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("Bet", "Pays", "Win", "Push", "Lose", "EV", "Edge", "Resolved", "Std dev"):
        bets.add_column(name, justify="left" if name == "Bet" else "right", no_wrap=True)
    for kind, bet in sheet.bets.items():
        bets.add_row(
            kind.value,
            format_pays(bet.pays) if len(bet.levels) == 1 else f"{format_pays(bet.pays)} …",
            f"{float(bet.probability_win):.5f}",
            f"{float(bet.probability_push):.5f}" if bet.probability_push else "–",
            f"{float(bet.probability_lose):.5f}",
            f"{float(bet.expected_value):+.5f}",
            _pct(float(bet.house_edge), 3),
            _pct(float(bet.house_edge_resolved), 3) if bet.probability_push else "–",
            f"{bet.std_dev:.3f}",
        )
    _print_wide(bets)

    multi = [(kind, bet) for kind, bet in sheet.bets.items() if len(bet.levels) > 1]
    if multi:
        levels = Table(title="Paying levels", header_style="bold")
        for name in ("Bet", "Level", "Pays", "Probability"):
            levels.add_column(name, justify="left" if name in ("Bet", "Level") else "right")
        for kind, bet in multi:
            for result in bet.results:
                if result.result.value == "win":
                    levels.add_row(
                        kind.value, result.name, format_pays(result.pays), f"{float(result.probability):.8f}"
                    )
        console.print(levels)

    total = sheet.total_ways
    naturals = ", ".join(f"{label} {ways / total:.4%}" for label, ways in sheet.naturals.items())
    cards = ", ".join(f"{n} cards {ways / total:.4%}" for n, ways in sheet.cards.items())
    console.print(f"Naturals: {naturals}")
    console.print(f"Cards dealt: {cards}")


def _print_eor(effects: EffectsOfRemoval) -> None:
    from baccarat.analysis.report import shoe_description

    shoe = shoe_description(effects.decks, effects.composition.total)
    table = Table(
        title=f"Effects of removal: {effects.paytable.title}, {shoe}",
        caption="change in EV when one card of the rank is removed, in basis points (0.01%) of a unit stake",
        header_style="bold",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("Bet", no_wrap=True)
    table.add_column("EV", justify="right", no_wrap=True)
    for rank in Rank:
        table.add_column(rank.symbol, justify="right", no_wrap=True)
    for kind, bet in effects.bets.items():
        table.add_row(
            kind.value,
            _pct(float(bet.expected_value), 2),
            *("–" if e is None else f"{float(e) * 10_000:+.1f}" for e in bet.eor),
        )
    _print_wide(table)
    summary = Table(
        title=f"Countability (cut card {effects.cut_cards} cards from the end)",
        caption="ρ: betting correlation of the level-1 count (tags A…K); +EV coups: share of the shoe's coups on "
        "which that count sees a positive EV (normal approximation); countable: at least 1%",
        header_style="bold",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for name in ("Bet", "Σ EoR²", "Tags A…K", "ρ", "+EV coups", "Countable"):
        summary.add_column(name, justify="left" if name in ("Bet", "Tags A…K", "Countable") else "right", no_wrap=True)
    for kind, bet in effects.bets.items():
        c = bet.countability
        summary.add_row(
            kind.value,
            f"{c.sum_squared:.2e}",
            " ".join(f"{t:+d}" if t else "0" for t in c.tags),
            f"{c.betting_correlation:.2f}",
            _pct(c.positive_share, 2),
            "[bold green]yes[/]" if c.countable else "no",
        )
    _print_wide(summary)


@app.command(rich_help_panel=PANEL_MATHEMATICS)
@cli_errors
def odds(
    decks: Annotated[int, typer.Option(help="Decks in the shoe, 1–12.")] = 8,
    variant: Annotated[str, typer.Option(help="Variant: macau, standard, no_commission, western, ez.")] = "macau",
    paytable: Annotated[
        Path | None, typer.Option(help="An operator's paytable (TOML); prices all of its bets.", dir_okay=False)
    ] = None,
    remove: Annotated[
        str | None, typer.Option(help='Cards already dealt, e.g. "5S 5H K" (a bare rank: the suit with most left).')
    ] = None,
    eor: Annotated[bool, typer.Option("--eor", help="Effects of removal of one card of each rank, per bet.")] = False,
    cut_card: Annotated[
        int, typer.Option("--cut-card", help="Cards behind the cut card, for the countability summary.")
    ] = DEFAULT_CUT_CARDS,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (the stable interface of DESIGN.md).")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (every figure, full precision).")] = False,
    as_markdown: Annotated[bool, typer.Option("--markdown", help="Print a Markdown par sheet.")] = False,
) -> None:
    """Exact odds of every bet: ways over every ordered six-card deal, expected values, house edges.

    Examples: [bold]baccarat odds --decks 8 --variant standard[/], [bold]baccarat odds --remove "5S 5H K" --json[/],
    [bold]baccarat odds --eor --variant ez[/], [bold]baccarat odds --paytable my_table.toml --markdown[/]
    """
    from baccarat.analysis import effects_of_removal, feature_ways, par_sheet
    from baccarat.analysis.report import eor_csv, eor_markdown, par_sheet_csv, par_sheet_markdown

    fmt = _output_format(as_json, as_csv, as_markdown)
    if eor:
        effects = effects_of_removal(decks, variant=variant, paytable=paytable, remove=remove, cut_cards=cut_card)
        if fmt is OutputFormat.JSON:
            emit_json(effects.to_dict())
        elif fmt is OutputFormat.CSV:
            typer.echo(eor_csv(effects), nl=False)
        elif fmt is OutputFormat.MARKDOWN:
            typer.echo(eor_markdown(effects), nl=False)
        else:
            _print_eor(effects)
        return
    sheet = par_sheet(feature_ways(decks, remove=remove), variant=variant, paytable=paytable)
    if fmt is OutputFormat.JSON:
        emit_json(sheet.to_dict())
    elif fmt is OutputFormat.CSV:
        typer.echo(par_sheet_csv(sheet), nl=False)
    elif fmt is OutputFormat.MARKDOWN:
        typer.echo(par_sheet_markdown(sheet), nl=False)
    else:
        _print_sheet(sheet)
