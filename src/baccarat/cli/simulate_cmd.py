"""``baccarat simulate``: Monte Carlo runs of whole shoes, with or without a betting system."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from baccarat.cli.app import PANEL_MATHEMATICS, app, cli_errors, console, emit_json, err_console
from baccarat.errors import InputError
from baccarat.rng import seed_to_int
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, ShoeConfig
from baccarat.sim.bankroll import Bankroll, TableLimits, parse_money
from baccarat.sim.results import SimulationResult
from baccarat.sim.runner import SimulationJob, simulate
from baccarat.sim.strategies import Strategy

__all__ = ["simulate_command"]

#: Exit status after Ctrl-C (128 + SIGINT), once the completed part has been printed.
INTERRUPTED = 130


def _job(
    *,
    decks: int,
    variant: str,
    hands: int | None,
    shoes: int | None,
    strategy: str | None,
    seed: str | None,
    bankroll: str | None,
    unit: str | None,
    table_min: str | None,
    table_max: str | None,
    stop_loss: str | None,
    stop_win: str | None,
    session_shoes: int | None,
    config: dict[str, Any],
) -> SimulationJob:
    if hands is not None and shoes is not None:
        raise InputError("give --hands or --shoes, not both", hint="e.g. --hands 1000000")
    if hands is None and shoes is None:
        hands = 1_000_000
    chosen = Strategy.parse(strategy) if strategy else None
    money_options = (bankroll, unit, table_min, table_max, stop_loss, stop_win, session_shoes)
    if chosen is None and any(option is not None for option in money_options):
        raise InputError("bankroll, unit, limits, stops and sessions need a strategy", hint="add e.g. --strategy flat")
    purse = None
    if chosen is not None and (bankroll or unit or stop_loss or stop_win):
        unit_minor = parse_money(unit) if unit else parse_money(table_min) if table_min else None
        if unit_minor is None:
            from baccarat.variants import get_variant

            offered = get_variant(variant)
            unit_minor = max(offered.limit(kind).minimum for kind in chosen.bets)
        purse = Bankroll(
            start=parse_money(bankroll) if bankroll else 100 * unit_minor,
            unit=unit_minor,
            stop_loss=parse_money(stop_loss) if stop_loss else 0,
            stop_win=parse_money(stop_win) if stop_win else 0,
        )
    limits = None
    if table_min or table_max:
        from baccarat.variants import get_variant

        offered = get_variant(variant)
        low = parse_money(table_min) if table_min else min(offered.limit(kind).minimum for kind in chosen.bets)  # type: ignore[union-attr]
        high = parse_money(table_max) if table_max else max(offered.limit(kind).maximum for kind in chosen.bets)  # type: ignore[union-attr]
        limits = TableLimits(minimum=low, maximum=high)
    return SimulationJob(
        seed=seed_to_int(int(seed) if seed.isdigit() else seed) if seed is not None else secrets.randbits(64),
        config=ShoeConfig(decks=decks, **config),
        variant=variant,
        hands=hands,
        shoes=shoes,
        strategy=chosen,
        bankroll=purse,
        limits=limits,
        session_shoes=session_shoes,
    )


def _report(result: SimulationResult) -> None:
    data = result.to_dict()
    outcomes = Table(title=f"{data['hands']:,} hands, {data['shoes']:,} shoes ({data['variant']}, seed {data['seed']})")
    for column in ("Outcome", "Count", "Frequency", "95% interval", "Exact"):
        outcomes.add_column(column, justify="right" if column != "Outcome" else "left")
    for name, figures in data["outcome_frequencies"].items():
        low, high = figures["ci95"]
        outcomes.add_row(
            name,
            f"{data['outcomes'][name]:,}",
            f"{figures['value']:.6f}",
            f"{low:.6f} … {high:.6f}",
            f"{figures['exact']:.6f}",
        )
    console.print(outcomes)
    bets = Table(title="Every bet, one unit every hand: expected value per unit")
    for column in ("Bet", "Simulated", "95% interval", "Exact", "z"):
        bets.add_column(column, justify="right" if column != "Bet" else "left")
    for name, figures in data["bets"].items():
        ev = figures["expected_value"]
        bets.add_row(
            name,
            f"{ev['value']:+.5f}",
            f"{ev['ci95'][0]:+.5f} … {ev['ci95'][1]:+.5f}",
            f"{ev['exact']:+.5f}",
            f"{ev['z']:+.2f}",
        )
    console.print(bets)
    strategy = data["strategy"]
    if strategy:
        ev = strategy["expected_value"]
        ruin = strategy["risk_of_ruin"]
        final = strategy["final_bankroll"]
        per_shoe = strategy["per_shoe"]
        console.print(
            f"[bold]{strategy['name']}[/]: {strategy['sessions']:,} sessions of {strategy['session_shoes']} shoes, "
            f"bankroll {strategy['bankroll']:,.2f}, unit {strategy['unit']:,.2f}\n"
            f"  {strategy['bets']:,} bets, wagered {strategy['wagered']:,.2f}, net {strategy['net']:+,.2f}\n"
            f"  EV per unit wagered {ev['value']:+.5f} (95%: {ev['ci95'][0]:+.5f} … {ev['ci95'][1]:+.5f}), "
            f"exact {ev['exact']:+.5f}; house edge realised {strategy['house_edge_realised']:.5f}\n"
            f"  risk of ruin {ruin['value']:.2%} (95%: {ruin['ci95'][0]:.2%} … {ruin['ci95'][1]:.2%}); "
            f"stop-loss {strategy['stop_loss_sessions']:,}, stop-win {strategy['stop_win_sessions']:,}, "
            f"table-limit hits {strategy['table_limit_hits']:,}\n"
            f"  final bankroll: mean {final['mean'] or 0:,.2f}, median {final['percentiles'].get('50', 0):,.2f}; "
            f"max drawdown mean {strategy['max_drawdown']['mean'] or 0:,.2f}\n"
            f"  per shoe: {per_shoe['bets']:.2f} bets, net {per_shoe['net_units']['value']:+.4f} units "
            f"(95%: {per_shoe['net_units']['ci95'][0]:+.4f} … {per_shoe['net_units']['ci95'][1]:+.4f})",
            highlight=False,
        )
    console.print(
        f"{data['elapsed_seconds']:.2f} s, {data['hands_per_second']:,.0f} hands/s on {data['workers']} workers"
        + (" [yellow](interrupted: completed part shown)[/]" if data["interrupted"] else ""),
        highlight=False,
    )


@app.command("simulate", rich_help_panel=PANEL_MATHEMATICS)
@cli_errors
def simulate_command(
    decks: Annotated[int, typer.Option(help="Decks in the shoe, 1–12.")] = 8,
    variant: Annotated[str, typer.Option(help="Variant: macau, standard, no_commission, western, ez.")] = "macau",
    hands: Annotated[int | None, typer.Option(help="Scored coups to deal (default 1,000,000).")] = None,
    shoes: Annotated[int | None, typer.Option(help="Shoes to deal, instead of --hands.")] = None,
    strategy: Annotated[
        str | None,
        typer.Option(
            help="A system: STAKING[:TARGET] (flat, martingale, paroli, fibonacci, dalembert, 1326; "
            "banker, player, streak, chop, pattern=BBP) or count:BET (dragon7, panda8, player_pair …)."
        ),
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Seed (integer or text); a run with a seed is reproducible.")] = None,
    bankroll: Annotated[str | None, typer.Option(help="Starting bankroll per session (default 100 units).")] = None,
    unit: Annotated[str | None, typer.Option(help="Base stake (default: the table minimum).")] = None,
    table_min: Annotated[str | None, typer.Option("--table-min", help="Table minimum for the strategy's bets.")] = None,
    table_max: Annotated[str | None, typer.Option("--table-max", help="Table maximum for the strategy's bets.")] = None,
    stop_loss: Annotated[str | None, typer.Option("--stop-loss", help="End a session after losing this much.")] = None,
    stop_win: Annotated[str | None, typer.Option("--stop-win", help="End a session after winning this much.")] = None,
    session_shoes: Annotated[int | None, typer.Option("--session-shoes", help="Shoes per session.")] = None,
    burn: Annotated[BurnMethod, typer.Option(help="Burn method (R4).")] = BurnMethod.FIRST_CARD,
    burn_count: Annotated[int, typer.Option(help="Cards to burn with --burn fixed (1–8).")] = 3,
    cut_card: Annotated[int, typer.Option("--cut-card", help="Cut card position from the end.")] = 14,
    after_cut_card: Annotated[AfterCutCard, typer.Option(help="Last coup rule (R6).")] = AfterCutCard.ONE_MORE,
    demo: Annotated[int, typer.Option(help="Demonstration coups per shoe (0–3, R5).")] = 0,
    burn_each_coup: Annotated[bool, typer.Option(help="Burn one card before every coup (R7).")] = False,
    continuous: Annotated[bool, typer.Option(help="Continuous shuffler (R8): every coup from a full shoe.")] = False,
    workers: Annotated[int | None, typer.Option(help="Local worker threads (default: every core).")] = None,
    scheduler: Annotated[str | None, typer.Option(help="Run on a Dask cluster: tcp://HOST:8786.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Write charts to this PNG file.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON (counts of every outcome and bet result).")
    ] = False,
) -> None:
    """Deal millions of shoes with the full procedure and measure outcomes, bets and betting systems.

    Examples: [bold]baccarat simulate --hands 10000000 --seed 1[/],
    [bold]baccarat simulate --strategy martingale:banker --shoes 100000 --plot run.png[/],
    [bold]baccarat simulate --variant ez --strategy count:dragon7 --shoes 200000[/]
    """
    job = _job(
        decks=decks,
        variant=variant,
        hands=hands,
        shoes=shoes,
        strategy=strategy,
        seed=seed,
        bankroll=bankroll,
        unit=unit,
        table_min=table_min,
        table_max=table_max,
        stop_loss=stop_loss,
        stop_win=stop_win,
        session_shoes=session_shoes,
        config={
            "burn": burn,
            "burn_count": burn_count,
            "cut_card_from_end": cut_card,
            "after_cut_card": after_cut_card,
            "demo_coups": demo,
            "burn_each_coup": burn_each_coup,
            "mode": DealingMode.CONTINUOUS if continuous else DealingMode.SHOE,
        },
    )
    if plot is not None and plot.suffix.lower() != ".png":
        raise InputError(f"cannot write a plot to {str(plot)!r}", hint="give a file name ending in .png")
    unit_name = "hands" if job.hands is not None else "shoes"
    with Progress(
        TextColumn(f"[bold]simulating {unit_name}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task("simulate", total=job.hands or job.shoes)
        result = simulate(job, workers=workers, scheduler=scheduler, progress=lambda n: bar.advance(task, n))
    if plot is not None:
        from baccarat.sim.plot import plot_result

        plot_result(result, plot)
    if as_json:
        emit_json(result.to_dict())
    else:
        _report(result)
    if result.to_dict()["interrupted"]:
        raise typer.Exit(code=INTERRUPTED)
