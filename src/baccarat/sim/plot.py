"""Charts of a simulation (matplotlib, Agg backend): bankroll percentiles over time, and the running
mean converging on the exact expected value.

Every line, band and reference line is named in a legend set below its chart, never over the data.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from baccarat.errors import InputError
from baccarat.sim.results import Z95, SimulationResult

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["chart_figure", "plot_result"]


def plot_result(result: SimulationResult, path: str | Path) -> Path:
    """Write the charts of ``result`` to a PNG file and return its path."""
    target = Path(path)
    if target.suffix.lower() != ".png":
        raise InputError(f"cannot write a plot to {str(target)!r}", hint="give a file name ending in .png")
    figure = chart_figure(result)
    try:
        figure.savefig(target, dpi=110, bbox_inches="tight")
    except OSError as error:
        raise InputError(f"cannot write {str(target)!r}: {error.strerror}", hint="choose a writable path") from None
    finally:
        import matplotlib.pyplot as plt

        plt.close(figure)
    return target


def chart_figure(result: SimulationResult) -> Figure:
    """The charts of ``result`` as a matplotlib figure: with a strategy, the bankroll percentiles of
    its sessions beside the convergence of the mean; without, the convergence only."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    has_track = result.track.size > 0
    figure, axes = plt.subplots(
        1, 2 if has_track else 1, figsize=(13 if has_track else 7, 5.4), squeeze=False, layout="constrained"
    )
    if has_track:
        _bankroll_chart(axes[0, 0], result)
    _convergence_chart(axes[0, -1], result)
    return figure


def _legend_below(ax: Axes, columns: int) -> None:
    """The legend under the chart's axis label, outside the plotting area."""
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=columns, frameon=False)


def _bankroll_chart(ax: Axes, result: SimulationResult) -> None:
    from matplotlib.ticker import StrMethodFormatter

    tracked = int(result.track.shape[0])
    strategy: dict[str, Any] = result.strategy or {}
    sessions = int(strategy.get("sessions", tracked))
    hands = np.arange(result.track.shape[1]) * result.track_stride
    bands = np.percentile(result.track, [5, 25, 50, 75, 95], axis=0)
    ax.fill_between(hands, bands[0], bands[4], alpha=0.2, color="tab:blue", label="5–95% of sessions")
    ax.fill_between(hands, bands[1], bands[3], alpha=0.35, color="tab:blue", label="25–75%")
    ax.plot(hands, bands[2], color="tab:blue", label="median")
    ax.axhline(result.track[0, 0], color="grey", linewidth=0.8, linestyle=":", label="starting bankroll")
    shown = (
        f"{sessions:,} sessions" if tracked >= sessions else f"{sessions:,} sessions, paths of the first {tracked:,}"
    )
    ax.set_title(f"Bankroll percentiles, {strategy.get('name', '')} ({shown})")
    ax.set_xlabel("hands into the session")
    ax.set_ylabel("bankroll")
    ax.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    _legend_below(ax, 4)


def _convergence_chart(ax: Axes, result: SimulationResult) -> None:
    label = "strategy, per unit wagered" if result.strategy else "Banker, per unit"
    ax.plot(result.series_hands, result.series_mean, color="tab:red", label=f"simulated mean ({label})")
    if result.series_exact is not None:
        ax.axhline(result.series_exact, color="black", linewidth=1, label=f"exact {result.series_exact:+.6f}")
        if result.series_sd is not None and result.series_hands.size:
            n = np.maximum(result.series_hands, 1)
            half = Z95 * result.series_sd / np.sqrt(n)
            ax.fill_between(
                n,
                result.series_exact - half,
                result.series_exact + half,
                alpha=0.15,
                color="grey",
                label="95% range of the mean after that many hands",
            )
    ax.set_xscale("log")
    ax.set_title("Convergence of the mean to the exact expected value")
    ax.set_xlabel("hands")
    ax.set_ylabel("expected value per unit")
    _legend_below(ax, 2)
