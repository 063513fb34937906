"""``baccarat count``: counting systems for the side bets, fitted to the exact effects of removal, with their
exact indices and win rates, next to the published counts and to perfect knowledge (the oracle).

The module does without ``from __future__ import annotations``: its parameters' annotations are
objects when Typer reads them, not text that it would compile first.
"""

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baccarat.cli.app import PANEL_MATHEMATICS, cli_errors, command, emit_json
from baccarat.cli.params import VARIANT_HELP
from baccarat.cli.progress import working
from baccarat.cli.text import Column, TextTable, colour_enabled, echo, terminal_width
from baccarat.errors import InputError

if TYPE_CHECKING:  # the analysis (numpy, numba) loads only when the command runs
    from baccarat.bets import BetKind

__all__ = ["MAX_SHOES", "count_command", "print_study"]

#: The most shoes ``--shoes``, ``--sample-shoes`` and ``--oracle-shoes`` take (the study's own bound).
MAX_SHOES = 10_000_000


def _ci(estimate: dict[str, Any] | None, digits: int = 3) -> str:
    if estimate is None:
        return "–"
    low, high = estimate["ci95"]
    return f"{estimate['value']:+.{digits}f} ({low:+.{digits}f}…{high:+.{digits}f})"


def _tags(tags: dict[str, int]) -> str:
    values = list(tags.values())
    head = " ".join(f"{v:+d}" if v else "0" for v in values[:9])
    tail = values[9:]
    return head + (f" | {tail[0]:+d}" if len(set(tail)) == 1 and tail[0] else " | 0" if len(set(tail)) == 1 else "")


def _index(value: float | None) -> str:
    return "–" if value is None else f"{value:g}"


def _bet_table(name: str, bet: dict[str, Any], data: dict[str, Any]) -> TextTable:
    table = TextTable(
        f"{name}: EV {bet['expected_value'] * 100:+.3f}% fresh; {data['shoes']:,} shoes of {data['decks']} decks, "
        f"cut card {data['cut_card']}, seed {data['seed']}",
        [
            Column("Count"),
            Column("Tags A…9 | T-K", drop=3),
            Column("Corr.", justify="right"),
            Column("Linear idx", justify="right", drop=2),
            Column("Exact idx", justify="right"),
            Column("Played at", justify="right"),
            Column("Bets /shoe", justify="right", drop=1),
            Column("Expected /shoe (95%)", justify="right"),
            Column("Realised /shoe (95%)", justify="right", drop=2),
            Column("Expected /100", justify="right", drop=1),
        ],
        caption="Tags are added as cards are seen; true count = running count per deck unseen. One unit bet at or "
        "above the index; expected = sum of the exact EVs of the bets placed.",
    )
    for s in bet["systems"]:
        search = s["index_search"]
        linear = search["linear_index"]
        table.add_row(
            s["name"],
            _tags(s["tags"]),
            f"{s['betting_correlation']:.4f}",
            "–" if linear is None else f"{linear:.2f}",
            _index(search["index"]) + ("" if search["crossing"] is None else f" ({search['crossing']:.2f})"),
            _index(s["index_used"]),
            f"{s['whole_shoe']['bets_per_shoe']:.2f}",
            _ci(s["whole_shoe"]["expected_per_shoe"]),
            _ci(s["whole_shoe"]["realised_per_shoe"], 2),
            _ci(s["whole_shoe"]["expected_per_100_coups"], 3),
        )
    return table


def _band_table(bet: dict[str, Any]) -> TextTable:
    first = bet["systems"][0]["by_penetration"]
    columns = [Column("Count")] + [
        Column(f"{b['penetration'][0]:.0%}–{b['penetration'][1]:.0%} /shoe · /100", justify="right") for b in first
    ]
    table = TextTable(
        "Expected gain by penetration (cards dealt before the coup), per shoe and per 100 coups of the band",
        columns,
        repeat=1,
    )
    for s in bet["systems"]:
        cells = []
        for b in s["by_penetration"]:
            per100 = b["expected_per_100_coups"]
            cells.append(
                f"{b['expected_per_shoe']['value']:+.3f}±{1.96 * b['expected_per_shoe']['std_error']:.3f} · "
                + ("–" if per100 is None else f"{per100['value']:+.2f}")
            )
        table.add_row(s["name"], *cells)
    return table


def print_study(data: dict[str, Any]) -> None:
    """The study as tables fitted to the terminal (from its JSON form)."""
    width, colour = terminal_width(sys.stdout), colour_enabled(sys.stdout)
    for name, bet in data["bets"].items():
        echo(_bet_table(name, bet, data).render(width=width, colour=colour))
        echo(_band_table(bet).render(width=width, colour=colour))
        best = next(s for s in bet["systems"] if s["name"] == bet["best"])
        oracle = bet["oracle_expected_per_shoe"]
        if oracle is not None:
            mine = best["expected_per_shoe_on_oracle_shoes"]
            echo(
                f"Perfect knowledge on the first {data['oracle_shoes']:,} of these shoes: {_ci(oracle)} units per shoe "
                f"expected, against {mine['value']:+.3f} for the best count ({best['name']}) on the same shoes: "
                f"the oracle gains {oracle['value'] - mine['value']:+.3f} more per shoe."
            )
        echo()
    echo(f"{data['coups_per_shoe']:.1f} coups per shoe; index search on {data['sample_shoes']:,} other shoes.")


def _bets(variant: str, names: list[str] | None) -> "tuple[BetKind, ...] | None":
    if not names:
        return None
    from baccarat.analysis.par_sheet import resolve_pricing
    from baccarat.bets import parse_bet_kind

    _, _, menu = resolve_pricing(variant, None)
    chosen = tuple(
        parse_bet_kind(part.strip(), menu=menu) for name in names for part in name.split(",") if part.strip()
    )
    for kind in chosen:
        if kind not in menu:
            raise InputError(
                f"{variant} does not offer {kind.value}", hint="choose among " + ", ".join(k.value for k in menu)
            )
    return tuple(dict.fromkeys(chosen))


@command(PANEL_MATHEMATICS, "count")
@cli_errors
def count_command(
    variant: Annotated[str, typer.Option(help=VARIANT_HELP)] = "ez",
    bet: Annotated[
        list[str] | None,
        typer.Option(
            metavar="BET", help="Bet to count (repeat, or BET,BET); default: the side bets with a published count."
        ),
    ] = None,
    decks: Annotated[int, typer.Option(help="Decks in the shoe, 1–12.", min=1, max=12)] = 8,
    cut_card: Annotated[int, typer.Option("--cut-card", help="Cut card position from the end.")] = 14,
    levels: Annotated[int, typer.Option(help="Fitted tags run from −LEVELS to +LEVELS (1–6).", min=1, max=6)] = 3,
    shoes: Annotated[int, typer.Option(help="Shoes dealt to measure the win rates.", min=1, max=MAX_SHOES)] = 2000,
    sample_shoes: Annotated[
        int,
        typer.Option("--sample-shoes", help="Other shoes dealt for the exact index search.", min=1, max=MAX_SHOES),
    ] = 400,
    oracle_shoes: Annotated[
        int,
        typer.Option(
            "--oracle-shoes", help="Of those shoes, how many the oracle deals too (0: none).", min=0, max=MAX_SHOES
        ),
    ] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the shoes (a whole number).", min=0)] = 1,
    bands: Annotated[int, typer.Option(help="Penetration bands (1–20).", min=1, max=20)] = 4,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Counting systems for the side bets: tags fitted to the exact effects of removal, exact indices, win rates.

    For each bet: a balanced count with tags from −LEVELS to +LEVELS fitted to the exact effects of removal,
    and the published count where there is one (Jacobson's Dragon 7 and Panda 8 counts); their betting
    correlations; the true count at which the bet turns positive, from exact EVs of compositions met in dealt
    shoes; their win rates by penetration; and what perfect knowledge (the oracle) wins on the same shoes.

    Examples: [bold]baccarat count[/], [bold]baccarat count --bet dragon7 --levels 2 --shoes 10000[/],
    [bold]baccarat count --variant macau --bet tie --json[/]
    """
    from baccarat.shoe import ShoeConfig
    from baccarat.sim.count_study import CountStudyJob, count_study

    job = CountStudyJob(
        variant=variant,
        bets=_bets(variant, bet),
        config=ShoeConfig(decks=decks, cut_card_from_end=cut_card),
        levels=levels,
        shoes=shoes,
        sample_shoes=sample_shoes,
        oracle_shoes=oracle_shoes,
        seed=seed,
        bands=bands,
    )
    with working(f"fitting, searching and playing the counts over {shoes + sample_shoes:,} shoes"):
        data = count_study(job).to_dict()
    if as_json:
        emit_json(data)
    else:
        print_study(data)
