"""``baccarat simulate --strategy oracle[:BET,BET…]``: the perfect-knowledge bound, run and reported."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from baccarat.cli.app import emit_json, err_console
from baccarat.cli.text import Column, TextTable, colour_enabled, echo, terminal_width
from baccarat.errors import InputError

if TYPE_CHECKING:
    from baccarat.sim.oracle import OracleJob, OracleResult

__all__ = ["DEFAULT_SHOES", "oracle_command"]

#: Shoes the oracle deals when --shoes is not given.
DEFAULT_SHOES = 1000


def _pct(estimate: dict[str, Any] | None, scale: float = 100.0, digits: int = 2) -> str:
    if estimate is None:
        return "–"
    low, high = estimate["ci95"]
    return f"{estimate['value'] * scale:+.{digits}f} ({low * scale:+.{digits}f}…{high * scale:+.{digits}f})"


def _share(value: float, interval: list[float]) -> str:
    return f"{value:.2%} ({interval[0]:.2%}…{interval[1]:.2%})"


def print_oracle(result: OracleResult) -> None:
    """The figures as a table fitted to the terminal."""
    data = result.to_dict()
    width, colour = terminal_width(sys.stdout), colour_enabled(sys.stdout)
    table = TextTable(
        f"Perfect knowledge, {data['variant']}: {data['shoes']:,} shoes of {data['decks']} decks, "
        f"{data['coups']:,} coups, cut card {data['cut_card']}, burned cards {'seen' if data['burn_seen'] else 'unseen'}",
        [
            Column("Bet"),
            Column("+EV coups", justify="right"),
            Column("Shoes with one", justify="right", drop=2),
            Column("Mean edge %", justify="right"),
            Column("Expected /shoe", justify="right"),
            Column("Realised /shoe", justify="right", drop=1),
            Column("Expected /100", justify="right", drop=3),
            Column("Realised /100", justify="right", drop=3),
        ],
        caption="One unit on each bet whenever its exact EV for the next coup is positive; units per shoe and per "
        "100 coups, with 95% intervals.",
    )
    for name, bet in data["bets"].items():
        table.add_row(
            name,
            _share(bet["coup_share"], bet["coup_share_ci95"]),
            _share(bet["shoe_share"], bet["shoe_share_ci95"]),
            _pct(bet["mean_edge"]),
            _pct(bet["expected_per_shoe"], 1.0, 4),
            _pct(bet["realised_per_shoe"], 1.0, 3),
            _pct(bet["expected_per_100_coups"], 1.0, 4),
            _pct(bet["realised_per_100_coups"], 1.0, 3),
        )
    echo(table.render(width=width, colour=colour))
    echo(f"{data['seconds']:.1f} s on {data['workers']} workers, seed {data['seed']}")


def _run(job: OracleJob, workers: int | None, scheduler: str | None) -> OracleResult:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from baccarat.sim.oracle import simulate_oracle

    with Progress(
        TextColumn("[bold]oracle shoes"),
        BarColumn(),
        TextColumn("{task.completed:,} of {task.total:,}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console(),
        transient=True,
        disable=not err_console().is_terminal,
    ) as bar:
        task = bar.add_task("oracle", total=job.shoes)
        return simulate_oracle(job, workers=workers, scheduler=scheduler, progress=lambda n: bar.advance(task, n))


def oracle_command(
    strategy: str,
    *,
    seed: int,
    shoes: int | None,
    variant: str,
    config: Any,
    burn_seen: bool,
    workers: int | None,
    scheduler: str | None,
    as_json: bool,
) -> bool:
    """Run the oracle and print its figures; returns whether the run was interrupted."""
    from baccarat.sim.oracle import OracleJob
    from baccarat.sim.strategies import parse_oracle

    bets = parse_oracle(strategy)
    if bets is None:  # pragma: no cover - the caller checked
        raise InputError(f"{strategy!r} is not the oracle", hint="write oracle or oracle:BET,BET")
    job = OracleJob(
        seed=seed,
        shoes=shoes or DEFAULT_SHOES,
        config=config,
        variant=variant,
        bets=bets or None,
        burn_seen=burn_seen,
    )
    result = _run(job, workers, scheduler)
    if as_json:
        emit_json(result.to_dict())
    else:
        print_oracle(result)
    return result.interrupted
