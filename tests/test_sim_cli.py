"""``baccarat simulate``: the JSON contract, the charts and clear errors."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pytest
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.sim.plot import chart_figure
from baccarat.sim.results import SimulationResult

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

runner = CliRunner()


def test_json_has_the_contract_fields() -> None:
    result = runner.invoke(app, ["simulate", "--hands", "50000", "--seed", "7", "--json", "--workers", "2"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 50000 == sum(data["outcomes"].values())
    assert set(data["outcomes"]) == {"banker", "player", "tie"}
    assert data["workers"] == 2 and data["elapsed_seconds"] > 0 and data["hands_per_second"] > 0
    banker = data["bets"]["banker"]["results"]
    assert banker["win"] == data["outcomes"]["banker"] and banker["push"] == data["outcomes"]["tie"]
    again = json.loads(runner.invoke(app, ["simulate", "--hands", "50000", "--seed", "7", "--json"]).stdout)
    assert again["outcomes"] == data["outcomes"]


def test_strategy_report_and_plot(tmp_path: Path) -> None:
    target = tmp_path / "run.png"
    args = ["simulate", "--shoes", "300", "--seed", "1", "--strategy", "martingale:banker", "--table-max", "1600"]
    result = runner.invoke(app, [*args, "--bankroll", "5000", "--stop-win", "1000", "--plot", str(target), "--json"])
    assert result.exit_code == 0, result.output
    strategy = json.loads(result.stdout)["strategy"]
    assert strategy["name"] == "martingale:banker" and strategy["table_limit_hits"] > 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = runner.invoke(app, ["simulate", "--shoes", "50", "--seed", "1", "--strategy", "flat:chop"])
    assert text.exit_code == 0 and "risk of ruin" in text.stdout


def chart_of(data: dict[str, Any], track: npt.NDArray[np.float64] | None = None, **exact: float) -> Figure:
    """The charts of a made-up result: a three-point convergence series and ``track`` as bankroll paths."""
    return chart_figure(
        SimulationResult(
            data=data,
            series_hands=np.array([10.0, 100.0, 1000.0]),
            series_mean=np.array([0.1, -0.02, -0.01]),
            series_exact=exact.get("exact"),
            series_sd=exact.get("sd"),
            track=np.zeros((0, 0)) if track is None else track,
        )
    )


def legend_labels(ax: Axes) -> list[str]:
    legend = ax.get_legend()
    assert legend is not None
    return [text.get_text() for text in legend.get_texts()]


def test_charts_count_every_session_and_keep_the_legends_off_the_lines() -> None:
    import matplotlib.pyplot as plt

    track = np.linspace(10_000, 12_000, 1000 * 5).reshape(1000, 5)
    figure = chart_of({"strategy": {"name": "martingale:banker", "sessions": 10_000}}, track)
    try:
        bankroll, _ = figure.axes
        assert bankroll.get_title() == (
            "Bankroll percentiles, martingale:banker (10,000 sessions, paths of the first 1,000)"
        )
        assert legend_labels(bankroll) == ["5–95% of sessions", "25–75%", "median", "starting bankroll"]
        figure.canvas.draw()
        for ax in figure.axes:  # each legend lies wholly below its plotting area
            legend = ax.get_legend()
            assert legend is not None and legend.get_window_extent().y1 < ax.get_window_extent().y0
    finally:
        plt.close(figure)
    figure = chart_of({"strategy": {"name": "flat:banker", "sessions": 200}}, track[:200])
    assert figure.axes[0].get_title() == "Bankroll percentiles, flat:banker (200 sessions)"
    plt.close(figure)
    figure = chart_of({}, exact=-0.0106, sd=0.93)
    try:
        (convergence,) = figure.axes
        assert legend_labels(convergence) == [
            "simulated mean (Banker, per unit)",
            "exact -0.010600",
            "95% range of the mean after that many hands",
        ]
    finally:
        plt.close(figure)


def unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "-1"], "hands"),
        (["--shoes", "100000000000000"], "shoes"),
        (["--hands", "10", "--shoes", "1"], "not both"),
        (["--strategy", "labouchere"], "unknown strategy"),
        (["--strategy", "flat", "--bankroll", "5"], "table minimum"),
        (["--bankroll", "100"], "need a strategy"),
        (["--strategy", "count:panda8"], "not offered"),
        (["--decks", "13"], "decks"),
        (["--workers", "0"], "workers"),
        (["--scheduler", "localhost"], "tcp://"),
        (["--scheduler", f"tcp://127.0.0.1:{unused_port()}"], "cannot reach"),
        (["--plot", "chart.jpg"], ".png"),
        (["--strategy", "flat", "--bankroll", "-100"], "bankroll '-100' must be positive"),
        (["--strategy", "flat", "--stop-loss", "ten"], "stop-loss 'ten' is not a number"),
        (["--decks", "x"], "--decks: 'x' is not a whole number"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = runner.invoke(
        app,
        ["simulate", "--hands", "1000", *args]
        if "--hands" not in args and "--shoes" not in args
        else ["simulate", *args],
    )
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_the_report_fits_80_columns_and_names_only_the_stops_that_were_set(tmp_path: Path) -> None:
    target = tmp_path / "run.png"
    args = ["simulate", "--shoes", "60", "--seed", "2", "--strategy", "flat:banker", "--plot", str(target)]
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert max(len(line) for line in out.splitlines() if not line.startswith("Wrote")) <= 80
    assert "stop-loss" not in out and "stop-win" not in out
    assert f"Wrote the charts to {target}" in out
    assert result.stderr == ""  # no progress bar and no stray newline when stderr is not a terminal
    stopped = runner.invoke(app, [*args[:-2], "--bankroll", "1,000", "--stop-loss", "500"], env={"COLUMNS": "80"})
    assert "bankroll 1,000" in stopped.stdout and "stop-loss 500 ended" in stopped.stdout
    assert "stop-win" not in stopped.stdout


def test_a_count_is_set_against_the_same_bets_flat() -> None:
    args = ["simulate", "--variant", "ez", "--strategy", "count:dragon7", "--shoes", "200", "--seed", "3"]
    result = runner.invoke(app, args, env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "for the same bets flat (the count bets only where it sees an edge)" in text
    assert "exact" not in text.split("EV per unit wagered")[1].split(";")[0]
