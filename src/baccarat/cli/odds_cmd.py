"""``baccarat odds``: the exact par sheet (or the effects of removal) of a variant or paytable, for any shoe.

The par sheet of a builtin variant is kept between runs (:mod:`baccarat.cli.odds_cache`) and drawn
from its JSON form, so a repeated ``baccarat odds`` loads neither numpy nor the kernels.

The module does without ``from __future__ import annotations``: its parameters' annotations are
objects when Typer reads them, not text that it would compile first.
"""

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baccarat.cli import odds_cache
from baccarat.cli.app import PANEL_MATHEMATICS, cli_errors, command, emit_json
from baccarat.cli.params import VARIANT_HELP
from baccarat.cli.progress import working
from baccarat.cli.text import BOLD, DIM, GREEN, Column, Styled, TextTable, colour_enabled, echo, terminal_width
from baccarat.errors import InputError

if TYPE_CHECKING:  # the analysis (and numba) load only when figures must be computed
    from baccarat.analysis.eor import EffectsOfRemoval
    from baccarat.analysis.par_sheet import ParSheet

__all__ = ["OutputFormat", "odds", "par_sheet_entry"]

#: Cards behind the cut card when ``--cut-card`` is not given: the shoe's default (R4), checked by the tests.
DEFAULT_CUT_CARDS = 14


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


def _pct(value: float, digits: int = 4) -> str:
    return f"{value * 100:.{digits}f}%"


def par_sheet_entry(sheet: "ParSheet") -> dict[str, Any]:
    """What ``baccarat odds`` keeps of a par sheet: its JSON (``ParSheet.to_dict``), its title and its shoe in words."""
    from baccarat.analysis.report import shoe_description

    return {
        "sheet": sheet.to_dict(),
        "title": f"{sheet.paytable.title} {sheet.paytable.title_zh}",
        "shoe": shoe_description(sheet.decks, sheet.cards_in_shoe),
    }


def _print_sheet(entry: dict[str, Any]) -> None:
    """The par sheet as tables fitted to the terminal, drawn from its JSON form."""
    data = entry["sheet"]
    width, colour = terminal_width(sys.stdout), colour_enabled(sys.stdout)
    outcomes = TextTable(
        f"{entry['title']}: {entry['shoe']}",
        [Column("Outcome"), Column("Ways", justify="right"), Column("Probability", justify="right")],
    )
    for name, figures in data["outcomes"].items():
        outcomes.add_row(name.capitalize(), f"{figures['ways']:,}", f"{figures['probability']:.6f}")
    outcomes.add_row(Styled("all deals", DIM), Styled(f"{data['total_ways']:,}", DIM), Styled("1", DIM))
    echo(outcomes.render(width=width, colour=colour))
    echo()
    bets = TextTable(
        "Bets (per unit stake)",
        [
            Column("Bet"),
            Column("Pays", justify="right"),
            Column("Win", justify="right"),
            Column("Push", justify="right"),
            Column("Lose", justify="right", drop=2),
            Column("EV", justify="right"),
            Column("Edge", justify="right"),
            Column("Resolved", justify="right", drop=1),
            Column("Std dev", justify="right", drop=3),
        ],
        caption="Edge: house edge per unit bet; Resolved: per unit bet on coups that settle it (no push).",
    )
    for kind, bet in data["bets"].items():
        levels = sum(result["result"] == "win" for result in bet["results"])
        pushes = bool(bet["probability_push"])
        bets.add_row(
            kind,
            bet["pays_text"] if levels == 1 else f"{bet['pays_text']} …",
            f"{bet['probability_win']:.5f}",
            f"{bet['probability_push']:.5f}" if pushes else "–",
            f"{bet['probability_lose']:.5f}",
            f"{bet['expected_value']:+.5f}",
            _pct(bet["house_edge"], 3),
            _pct(bet["house_edge_resolved"], 3) if pushes else "–",
            f"{bet['std_dev']:.3f}",
        )
    echo(bets.render(width=width, colour=colour))
    _print_levels(data, width=width, colour=colour)
    naturals = ", ".join(f"{label} {figures['probability']:.4%}" for label, figures in data["naturals"].items())
    cards = ", ".join(f"{n} cards {figures['probability']:.4%}" for n, figures in data["cards_dealt"].items())
    echo(f"Naturals: {naturals}")
    echo(f"Cards dealt: {cards}")


def _print_levels(data: dict[str, Any], *, width: int, colour: bool) -> None:
    """The paying levels of the bets that have more than one."""
    multi = [
        (kind, [r for r in bet["results"] if r["result"] == "win"])
        for kind, bet in data["bets"].items()
        if sum(r["result"] == "win" for r in bet["results"]) > 1
    ]
    if not multi:
        return
    levels = TextTable(
        "Paying levels",
        [
            Column("Bet"),
            Column("Level", fold=True),
            Column("Pays", justify="right"),
            Column("Probability", justify="right"),
        ],
    )
    for kind, results in multi:
        for result in results:
            levels.add_row(kind, result["name"], _pays(result["pays"]), f"{result['probability']:.8f}")
    echo()
    echo(levels.render(width=width, colour=colour))
    echo()


def _pays(value: float) -> str:
    """A payout as the paytables write it: ``30``, ``0.95``."""
    return f"{value:g}" if value == int(value) else f"{value:.4f}".rstrip("0")


def _print_eor(effects: "EffectsOfRemoval") -> None:
    from baccarat.analysis.report import shoe_description
    from baccarat.cards import Rank

    width, colour = terminal_width(sys.stdout), colour_enabled(sys.stdout)
    shoe = shoe_description(effects.decks, effects.composition.total)
    table = TextTable(
        f"Effects of removal: {effects.paytable.title}, {shoe}",
        [Column("Bet"), Column("EV", justify="right"), *(Column(rank.symbol, justify="right") for rank in Rank)],
        caption="change in EV when one card of the rank is removed, in basis points (0.01%) of a unit stake",
        repeat=1,
    )
    for kind, bet in effects.bets.items():
        table.add_row(
            kind.value,
            _pct(float(bet.expected_value), 2),
            *("–" if e is None else f"{float(e) * 10_000:+.1f}" for e in bet.eor),
        )
    echo(table.render(width=width, colour=colour))
    echo()
    summary = TextTable(
        f"Countability (cut card {effects.cut_cards} cards from the end)",
        [
            Column("Bet"),
            Column("Σ EoR²", justify="right"),
            Column("Tags A…K", fold=True),
            Column("ρ", justify="right"),
            Column("+EV coups", justify="right"),
            Column("Countable"),
        ],
        caption="ρ: betting correlation of the level-1 count (tags A…K); +EV coups: share of the shoe's coups on "
        "which that count sees a positive EV (normal approximation); countable: at least 1%",
        repeat=1,
    )
    for kind, bet in effects.bets.items():
        c = bet.countability
        summary.add_row(
            kind.value,
            f"{c.sum_squared:.2e}",
            " ".join(f"{t:+d}" if t else "0" for t in c.tags),
            f"{c.betting_correlation:.2f}",
            _pct(c.positive_share, 2),
            Styled("yes", f"{BOLD};{GREEN}") if c.countable else "no",
        )
    echo(summary.render(width=width, colour=colour))


@command(PANEL_MATHEMATICS)
@cli_errors
def odds(
    decks: Annotated[int, typer.Option(help="Decks in the shoe, 1–12.")] = 8,
    variant: Annotated[str, typer.Option(help=VARIANT_HELP)] = "macau",
    paytable: Annotated[
        Path | None, typer.Option(help="An operator's paytable (TOML); prices all of its bets.")
    ] = None,
    remove: Annotated[
        list[str] | None,
        typer.Option(
            metavar="CARDS",
            help='Cards already dealt, e.g. "5S 5H K" (a bare rank: the suit with most left); repeated, the cards '
            "add up.",
        ),
    ] = None,
    eor: Annotated[bool, typer.Option("--eor", help="Effects of removal of one card of each rank, per bet.")] = False,
    cut_card: Annotated[
        int | None,
        typer.Option(
            "--cut-card",
            help=f"With --eor: cards behind the cut card, for the countability summary (default {DEFAULT_CUT_CARDS}).",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print JSON (a stable interface: fields are added, never renamed or removed)."),
    ] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV (every figure, full precision).")] = False,
    as_markdown: Annotated[bool, typer.Option("--markdown", help="Print a Markdown par sheet.")] = False,
) -> None:
    """Exact odds of every bet: ways over every ordered six-card deal, expected values, house edges.

    Examples: [bold]baccarat odds --decks 8 --variant standard[/], [bold]baccarat odds --remove "5S 5H K" --json[/],
    [bold]baccarat odds --eor --variant ez[/], [bold]baccarat odds --paytable my_table.toml --markdown[/]
    """
    fmt = _output_format(as_json, as_csv, as_markdown)
    removed = " ".join(remove) if remove else None
    if eor:
        _odds_eor(decks, variant, paytable, removed, DEFAULT_CUT_CARDS if cut_card is None else cut_card, fmt)
        return
    if cut_card is not None:
        raise InputError(
            "--cut-card sets the cut card of --eor's countability summary", hint="add --eor, or leave it out"
        )
    cacheable = paytable is None and fmt in (OutputFormat.JSON, OutputFormat.TABLE)
    key = {"figures": "par_sheet", "decks": decks, "variant": variant, "remove": removed}
    entry = odds_cache.load(key) if cacheable else None
    if entry is None:
        from baccarat.cli.files import read_paytable

        table = None if paytable is None else read_paytable(paytable)
        with working("counting every deal of the shoe"):
            from baccarat.analysis import feature_ways, par_sheet
            from baccarat.analysis.report import par_sheet_csv, par_sheet_markdown

            sheet = par_sheet(feature_ways(decks, remove=removed), variant=variant, paytable=table)
        if fmt is OutputFormat.CSV:
            typer.echo(par_sheet_csv(sheet), nl=False)
            return
        if fmt is OutputFormat.MARKDOWN:
            typer.echo(par_sheet_markdown(sheet), nl=False)
            return
        entry = par_sheet_entry(sheet)
        if cacheable:
            odds_cache.store(key, entry)
    if fmt is OutputFormat.JSON:
        emit_json(entry["sheet"])
    else:
        _print_sheet(entry)


def _odds_eor(
    decks: int, variant: str, paytable: Path | None, remove: str | None, cut_card: int, fmt: OutputFormat
) -> None:
    from baccarat.cli.files import read_paytable

    table = None if paytable is None else read_paytable(paytable)
    with working("effects of removal: every deal, less one card of each rank"):
        from baccarat.analysis import effects_of_removal
        from baccarat.analysis.report import eor_csv, eor_markdown

        effects = effects_of_removal(decks, variant=variant, paytable=table, remove=remove, cut_cards=cut_card)
    cards = effects.composition.total
    if cut_card >= cards:
        raise InputError(
            f"cut card {cut_card} cards from the end is outside the shoe of {cards} cards",
            hint=f"give 0 to {cards - 1} cards",
        )
    if fmt is OutputFormat.JSON:
        emit_json(effects.to_dict())
    elif fmt is OutputFormat.CSV:
        typer.echo(eor_csv(effects), nl=False)
    elif fmt is OutputFormat.MARKDOWN:
        typer.echo(eor_markdown(effects), nl=False)
    else:
        _print_eor(effects)
