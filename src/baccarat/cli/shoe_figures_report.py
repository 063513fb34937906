"""``baccarat simulate --shoe-figures``: the cut-card effect of every bet and the coups per shoe, run and reported."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from baccarat.cli.app import emit_json
from baccarat.cli.text import Column, TextTable, colour_enabled, echo, terminal_width

if TYPE_CHECKING:
    from baccarat.shoe import ShoeConfig

__all__ = ["print_shoe_figures", "shoe_figures_command", "show_shoe_figures"]


def _pct(estimate: dict[str, Any], digits: int = 4) -> str:
    low, high = estimate["ci95"]
    return f"{estimate['value'] * 100:+.{digits}f} ({low * 100:+.{digits}f}…{high * 100:+.{digits}f})"


def _histogram(histogram: dict[str, int], width: int) -> list[str]:
    """One line per coup count: the count, the shoes, a bar."""
    top = max(histogram.values())
    room = max(10, min(50, width - 22))
    return [
        f" {int(coups):>4} coups {shoes:>7,} {'█' * max(1, round(room * shoes / top))}"
        for coups, shoes in histogram.items()
    ]


def print_shoe_figures(data: dict[str, Any]) -> None:
    """The figures as a table and a histogram fitted to the terminal."""
    width, colour = terminal_width(sys.stdout), colour_enabled(sys.stdout)
    table = TextTable(
        f"Whole shoes, {data['variant']}: {data['shoes']:,} shoes of {data['decks']} decks, cut card "
        f"{data['cut_card']} cards from the end, seed {data['seed']}",
        [
            Column("Bet"),
            Column("Fresh EV %", justify="right"),
            Column("Mean EV per coup dealt %", justify="right"),
            Column("Cut-card effect % (95%)", justify="right"),
            Column("Realised per coup % (95%)", justify="right", drop=1),
        ],
        caption="Every bet priced exactly at every scored coup from the cards not yet seen; the cut-card effect is "
        "the mean over the coups dealt less the fresh-shoe figure (positive favours the player).",
    )
    for name, bet in data["bets"].items():
        table.add_row(
            name,
            f"{bet['fresh_expected_value'] * 100:+.4f}",
            f"{bet['mean_expected_value_per_coup']['value'] * 100:+.4f}",
            _pct(bet["cut_card_effect"]),
            _pct(bet["realised_per_coup"], 2),
        )
    echo(table.render(width=width, colour=colour))
    if data["left_out"]:
        echo(f"Left out (not priced coup by coup): {', '.join(data['left_out'])}")
    coups = data["coups_per_shoe"]
    echo()
    echo(f"Coups per shoe: mean {coups['mean']:.2f}, sd {coups['sd']:.2f}, min {coups['min']}, max {coups['max']}")
    for line in _histogram(coups["histogram"], width):
        echo(line)


def shoe_figures_command(
    *, seed: int, shoes: int | None, variant: str, config: ShoeConfig, burn_seen: bool
) -> dict[str, Any]:
    """Run the shoe-level figures: their JSON form, for :func:`show_shoe_figures`."""
    from baccarat.sim.shoe_figures import DEFAULT_SHOES, ShoeFiguresJob, shoe_figures

    job = ShoeFiguresJob(variant=variant, config=config, shoes=shoes or DEFAULT_SHOES, seed=seed, burn_seen=burn_seen)
    return shoe_figures(job).to_dict()


def show_shoe_figures(data: dict[str, Any], *, as_json: bool) -> None:
    """Print the figures: JSON, or a table and a histogram."""
    if as_json:
        emit_json(data)
    else:
        print_shoe_figures(data)
