"""``baccarat simulate``: Monte Carlo runs of whole shoes, with or without a betting system."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baccarat.cli.app import PANEL_MATHEMATICS, cli_errors, command, emit_json, err_console
from baccarat.cli.params import VARIANT_HELP
from baccarat.cli.text import YELLOW, Column, Styled, TextTable, colour_enabled, echo, terminal_width, wrap_words
from baccarat.errors import InputError
from baccarat.rng import seed_to_int
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, ShoeConfig

if TYPE_CHECKING:
    from baccarat.sim.results import SimulationResult
    from baccarat.sim.runner import SimulationJob

__all__ = ["simulate_command"]

#: Exit status after Ctrl-C (128 + SIGINT), once the completed part has been printed.
INTERRUPTED = 130
#: The most hands, shoes, workers and shoes per session the command takes (the simulator's own bounds).
MAX_HANDS, MAX_SHOES, MAX_WORKERS, MAX_SESSION_SHOES = 10**13, 10**11, 4096, 100_000


def _money(text: str, what: str) -> int:
    """An amount of ``--bankroll``, ``--unit``, the limits or the stops: currency units, as minor units."""
    from baccarat.play.money import parse_money

    return parse_money(text, what=what)


def _job(
    *,
    shoe: ShoeConfig,
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
) -> SimulationJob:
    from baccarat.sim.bankroll import Bankroll, TableLimits
    from baccarat.sim.runner import SimulationJob
    from baccarat.sim.strategies import Strategy

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
        unit_minor = _money(unit, "unit") if unit else _money(table_min, "table minimum") if table_min else None
        if unit_minor is None:
            from baccarat.variants import get_variant

            offered = get_variant(variant)
            unit_minor = max(offered.limit(kind).minimum for kind in chosen.bets)
        purse = Bankroll(
            start=_money(bankroll, "bankroll") if bankroll else 100 * unit_minor,
            unit=unit_minor,
            stop_loss=_money(stop_loss, "stop-loss") if stop_loss else 0,
            stop_win=_money(stop_win, "stop-win") if stop_win else 0,
        )
    limits = None
    if table_min or table_max:
        assert chosen is not None  # limits without a strategy were refused above
        from baccarat.variants import get_variant

        offered = get_variant(variant)
        low = (
            _money(table_min, "table minimum")
            if table_min
            else min(offered.limit(kind).minimum for kind in chosen.bets)
        )
        high = (
            _money(table_max, "table maximum")
            if table_max
            else max(offered.limit(kind).maximum for kind in chosen.bets)
        )
        limits = TableLimits(minimum=low, maximum=high)
    return SimulationJob(
        seed=seed_to_int(int(seed) if seed.isdigit() else seed) if seed is not None else secrets.randbits(64),
        config=shoe,
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
    width, colour = terminal_width(sys.stdout), colour_enabled(sys.stdout)
    outcomes = TextTable(
        f"{data['hands']:,} hands, {data['shoes']:,} shoes ({data['variant']}, seed {data['seed']})",
        [
            Column("Outcome"),
            *(Column(name, justify="right") for name in ("Count", "Frequency", "95% interval", "Exact")),
        ],
    )
    for name, figures in data["outcome_frequencies"].items():
        low, high = figures["ci95"]
        outcomes.add_row(
            name,
            f"{data['outcomes'][name]:,}",
            f"{figures['value']:.6f}",
            f"{low:.6f} … {high:.6f}",
            f"{figures['exact']:.6f}",
        )
    echo(outcomes.render(width=width, colour=colour))
    echo()
    bets = TextTable(
        "Every bet, one unit every hand: expected value per unit",
        [Column("Bet"), *(Column(name, justify="right") for name in ("Simulated", "95% interval", "Exact", "z"))],
    )
    for name, figures in data["bets"].items():
        ev = figures["expected_value"]
        bets.add_row(
            name,
            f"{ev['value']:+.5f}",
            f"{ev['ci95'][0]:+.5f} … {ev['ci95'][1]:+.5f}",
            f"{ev['exact']:+.5f}",
            f"{ev['z']:+.2f}",
        )
    echo(bets.render(width=width, colour=colour))
    if data["strategy"]:
        echo()
        for line in strategy_lines(data["strategy"]):
            for folded in wrap_words(line, width - 4):
                echo(("  " if not line.startswith(data["strategy"]["name"]) else "") + folded.render(colour=colour))
    speed = f"{data['elapsed_seconds']:.2f} s, {data['hands_per_second']:,.0f} hands/s on {data['workers']} workers"
    echo(Styled(speed).plus(" (interrupted: the completed part is shown)" if data["interrupted"] else "", YELLOW))


def strategy_lines(strategy: dict[str, Any]) -> list[str]:
    """The betting system's figures (the ``strategy`` of the JSON) in sentences: sessions, money, expected
    value, ruin, the stops that were set, bankrolls."""
    ev, ruin, final, per_shoe = (
        strategy[key] for key in ("expected_value", "risk_of_ruin", "final_bankroll", "per_shoe")
    )
    name = strategy["name"]
    if name.startswith("count:"):
        exact = f"against {ev['exact']:+.5f} for the same bets flat (the count bets only where it sees an edge)"
    else:
        exact = f"exact {ev['exact']:+.5f}"
    stops = [
        f"stop-loss {_units(strategy['stop_loss'])} ended {strategy['stop_loss_sessions']:,}"
        if strategy["stop_loss"]
        else "",
        f"stop-win {_units(strategy['stop_win'])} ended {strategy['stop_win_sessions']:,}"
        if strategy["stop_win"]
        else "",
        f"table-limit hits {strategy['table_limit_hits']:,}",
    ]
    return [
        f"{name}: {strategy['sessions']:,} sessions of {strategy['session_shoes']} shoes, "
        f"bankroll {_units(strategy['bankroll'])}, unit {_units(strategy['unit'])}",
        f"{strategy['bets']:,} bets, wagered {_units(strategy['wagered'])}, net {_units(strategy['net'], sign=True)}",
        f"EV per unit wagered {ev['value']:+.5f} (95%: {ev['ci95'][0]:+.5f} … {ev['ci95'][1]:+.5f}), {exact}; "
        f"house edge realised {strategy['house_edge_realised']:.5f}",
        f"risk of ruin {ruin['value']:.2%} (95%: {ruin['ci95'][0]:.2%} … {ruin['ci95'][1]:.2%}); "
        + ", ".join(stop for stop in stops if stop),
        f"final bankroll: mean {_units(final['mean'] or 0)}, median {_units(final['percentiles'].get('50', 0))}; "
        f"max drawdown mean {_units(strategy['max_drawdown']['mean'] or 0)}",
        f"per shoe: {per_shoe['bets']:.2f} bets, net {per_shoe['net_units']['value']:+.4f} units "
        f"(95%: {per_shoe['net_units']['ci95'][0]:+.4f} … {per_shoe['net_units']['ci95'][1]:+.4f})",
    ]


def _units(value: float, *, sign: bool = False) -> str:
    """An amount of the report (currency units, as a float) as people read money: ``1,234.50``."""
    from baccarat.play.money import format_money

    text = format_money(round(value * 100))
    return f"+{text}" if sign and value >= 0 else text


def _run(job: SimulationJob, *, workers: int | None, scheduler: str | None) -> SimulationResult:
    """Run the simulation, with a progress bar on stderr when it is a terminal."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from baccarat.sim.runner import simulate

    unit_name = "hands" if job.hands is not None else "shoes"
    with Progress(
        TextColumn(f"[bold]simulating {unit_name}"),
        BarColumn(),
        TextColumn("{task.completed:,} of {task.total:,}"),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=err_console(),
        transient=True,
        disable=not err_console().is_terminal,
    ) as bar:
        task = bar.add_task("simulate", total=job.hands or job.shoes)
        return simulate(job, workers=workers, scheduler=scheduler, progress=lambda n: bar.advance(task, n))


def _oracle(strategy: str, extra: tuple[object, ...], seed: str | None, **options: Any) -> None:
    """``--strategy oracle``: the perfect-knowledge bound (``extra``: the options it does not take)."""
    if any(option is not None for option in extra):
        raise InputError(
            "the oracle counts whole shoes and stakes one unit a bet",
            hint="give --shoes; leave out --hands, money, limits, sessions and --plot",
        )
    from baccarat.cli.oracle_report import oracle_command

    number = seed_to_int(int(seed) if seed.isdigit() else seed) if seed is not None else secrets.randbits(64)
    if oracle_command(strategy, seed=number, **options):
        raise typer.Exit(code=INTERRUPTED)


def _shoe_figures(extra: tuple[object, ...], seed: str | None, *, as_json: bool, **options: Any) -> None:
    """``--shoe-figures``: the cut-card effect and the coups per shoe (``extra``: the options it does not take)."""
    if any(option is not None for option in extra):
        raise InputError(
            "--shoe-figures prices every bet at every coup of whole shoes",
            hint="give --shoes and the shoe's options; leave out --strategy, --hands, money, limits and --plot",
        )
    from baccarat.cli.progress import working
    from baccarat.cli.shoe_figures_report import shoe_figures_command, show_shoe_figures

    number = seed_to_int(int(seed) if seed.isdigit() else seed) if seed is not None else secrets.randbits(64)
    with working("pricing every bet at every coup of whole shoes"):
        data = shoe_figures_command(seed=number, **options)
    show_shoe_figures(data, as_json=as_json)


def _amount(*names: str, help: str) -> Any:
    """An option that takes an amount in currency units (``--bankroll``, ``--unit``, the limits, the stops)."""
    return typer.Option(*names, metavar="AMOUNT", help=help)


_STRATEGY_HELP = (
    "A system: STAKING[:TARGET] (flat, martingale, paroli, fibonacci, dalembert, 1326; banker, player, streak, "
    "chop, pattern=BBP), count:BET (dragon7, panda8, player_pair …) or oracle[:BET,BET…] (perfect knowledge: "
    "every +EV bet, priced exactly at every coup)."
)
_SHOE_FIGURES_HELP = (
    "Whole-shoe figures instead: each bet's edge over the coups dealt to the cut card against the fresh-shoe "
    "figure (the cut-card effect), and the coups per shoe (default 1,000 shoes)."
)
_SEED_HELP = "Seed (integer or text); a run with a seed is reproducible."


def _run_and_report(
    job: SimulationJob, *, workers: int | None, scheduler: str | None, plot: Path | None, as_json: bool
) -> None:
    """Run a simulation (with or without a betting system) and print it, its charts written to ``plot``."""
    if plot is not None and plot.suffix.lower() != ".png":
        raise InputError(f"cannot write a plot to {str(plot)!r}", hint="give a file name ending in .png")
    result = _run(job, workers=workers, scheduler=scheduler)
    if plot is not None:
        from baccarat.sim.plot import plot_result

        plot_result(result, plot)
    if as_json:
        emit_json(result.to_dict())
    else:
        _report(result)
    if plot is not None:
        typer.echo(f"Wrote the charts to {plot}", err=as_json)
    if result.to_dict()["interrupted"]:
        raise typer.Exit(code=INTERRUPTED)


@command(PANEL_MATHEMATICS, "simulate")
@cli_errors
def simulate_command(
    decks: Annotated[int, typer.Option(help="Decks in the shoe, 1–12.")] = 8,
    variant: Annotated[str, typer.Option(help=VARIANT_HELP)] = "macau",
    hands: Annotated[
        int | None, typer.Option(help="Scored coups to deal (default 1,000,000).", min=1, max=MAX_HANDS)
    ] = None,
    shoes: Annotated[int | None, typer.Option(help="Shoes to deal, instead of --hands.", min=1, max=MAX_SHOES)] = None,
    strategy: Annotated[str | None, typer.Option(help=_STRATEGY_HELP)] = None,
    seed: Annotated[str | None, typer.Option(help=_SEED_HELP)] = None,
    bankroll: Annotated[
        str | None, _amount(help="Starting bankroll per session (default: 100 times the unit).")
    ] = None,
    unit: Annotated[str | None, _amount(help="Base stake (default: the table minimum).")] = None,
    table_min: Annotated[str | None, _amount("--table-min", help="Table minimum for the strategy's bets.")] = None,
    table_max: Annotated[str | None, _amount("--table-max", help="Table maximum for the strategy's bets.")] = None,
    stop_loss: Annotated[str | None, _amount("--stop-loss", help="End a session after losing this much.")] = None,
    stop_win: Annotated[str | None, _amount("--stop-win", help="End a session after winning this much.")] = None,
    session_shoes: Annotated[
        int | None, typer.Option("--session-shoes", help="Shoes per session.", min=1, max=MAX_SESSION_SHOES)
    ] = None,
    burn: Annotated[BurnMethod, typer.Option(help="Burn method (R4).")] = BurnMethod.FIRST_CARD,
    burn_count: Annotated[int, typer.Option(help="Cards to burn with --burn fixed (1–8).")] = 3,
    cut_card: Annotated[int, typer.Option("--cut-card", help="Cut card position from the end.")] = 14,
    after_cut_card: Annotated[AfterCutCard, typer.Option(help="Last coup rule (R6).")] = AfterCutCard.ONE_MORE,
    demo: Annotated[int, typer.Option(help="Demonstration coups per shoe (0–3, R5).")] = 0,
    burn_each_coup: Annotated[bool, typer.Option(help="Burn one card before every coup (R7).")] = False,
    continuous: Annotated[bool, typer.Option(help="Continuous shuffler (R8): every coup from a full shoe.")] = False,
    burn_seen: Annotated[
        bool, typer.Option("--burn-seen", help="With --strategy oracle: the oracle sees the cards burned face down.")
    ] = False,
    shoe_figures: Annotated[bool, typer.Option("--shoe-figures", help=_SHOE_FIGURES_HELP)] = False,
    workers: Annotated[
        int | None, typer.Option(help="Local worker threads (default: every core).", min=1, max=MAX_WORKERS)
    ] = None,
    scheduler: Annotated[str | None, typer.Option(help="Run on a Dask cluster: tcp://HOST:8786.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Write charts to this PNG file.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON (counts of every outcome and bet result).")
    ] = False,
) -> None:
    """Deal millions of shoes with the full procedure and measure outcomes, bets and betting systems.

    Amounts (--bankroll, --unit, --table-min, --table-max, --stop-loss, --stop-win) are in currency units:
    100 is 100.00, 1,000 a thousand, 12.50 twelve and a half.

    Examples: [bold]baccarat simulate --hands 10000000 --seed 1[/],
    [bold]baccarat simulate --strategy martingale:banker --shoes 100000 --plot run.png[/],
    [bold]baccarat simulate --variant ez --strategy count:dragon7 --shoes 200000[/],
    [bold]baccarat simulate --strategy oracle --shoes 10000 --seed 1[/],
    [bold]baccarat simulate --shoe-figures --cut-card 60 --seed 1[/]
    """
    procedure: dict[str, Any] = {"burn": burn, "burn_count": burn_count, "cut_card_from_end": cut_card}
    procedure |= {"after_cut_card": after_cut_card, "demo_coups": demo, "burn_each_coup": burn_each_coup}
    shoe = ShoeConfig(decks=decks, mode=DealingMode.CONTINUOUS if continuous else DealingMode.SHOE, **procedure)
    money: dict[str, Any] = {"bankroll": bankroll, "unit": unit, "table_min": table_min, "table_max": table_max}
    money |= {"stop_loss": stop_loss, "stop_win": stop_win}
    common: dict[str, Any] = {"shoes": shoes, "variant": variant, "config": shoe, "burn_seen": burn_seen}
    if strategy is not None and strategy.strip().lower().partition(":")[0] == "oracle":
        extra = (hands, *money.values(), session_shoes, plot)
        _oracle(strategy, extra, seed, workers=workers, scheduler=scheduler, as_json=as_json, **common)
        return
    if shoe_figures:
        _shoe_figures((strategy, hands, *money.values(), session_shoes, plot), seed, as_json=as_json, **common)
        return
    if burn_seen:
        raise InputError("--burn-seen is a setting of the oracle", hint="add --strategy oracle, or leave it out")
    plain: dict[str, Any] = {"hands": hands, "shoes": shoes, "strategy": strategy, "seed": seed}
    plain["session_shoes"] = session_shoes
    job = _job(shoe=shoe, variant=variant, **plain, **money)
    _run_and_report(job, workers=workers, scheduler=scheduler, plot=plot, as_json=as_json)
