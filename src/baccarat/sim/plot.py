"""Charts of a simulation (matplotlib, Agg backend): bankroll percentiles over time, and the running
mean converging on the exact expected value."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from baccarat.errors import InputError
from baccarat.sim.results import Z95, SimulationResult

__all__ = ["plot_result"]


def plot_result(result: SimulationResult, path: str | Path) -> Path:
    """Write the charts of ``result`` to a PNG file and return its path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    target = Path(path)
    if target.suffix.lower() != ".png":
        raise InputError(f"cannot write a plot to {str(target)!r}", hint="give a file name ending in .png")
    has_track = result.track.size > 0
    figure, axes = plt.subplots(1, 2 if has_track else 1, figsize=(13 if has_track else 7, 4.8), squeeze=False)
    if has_track:
        ax = axes[0, 0]
        hands = np.arange(result.track.shape[1]) * result.track_stride
        bands = np.percentile(result.track, [5, 25, 50, 75, 95], axis=0)
        ax.fill_between(hands, bands[0], bands[4], alpha=0.2, color="tab:blue", label="5–95%")
        ax.fill_between(hands, bands[1], bands[3], alpha=0.35, color="tab:blue", label="25–75%")
        ax.plot(hands, bands[2], color="tab:blue", label="median")
        ax.axhline(result.track[0, 0], color="grey", linewidth=0.8, linestyle=":")
        strategy = result.strategy or {}
        ax.set_title(f"Bankroll percentiles, {strategy.get('name', '')} ({result.track.shape[0]} sessions)")
        ax.set_xlabel("hands into the session")
        ax.set_ylabel("bankroll")
        ax.legend(loc="upper left")
    ax = axes[0, -1]
    label = "strategy, per unit wagered" if result.strategy else "Banker, per unit"
    ax.plot(result.series_hands, result.series_mean, color="tab:red", label=f"simulated mean ({label})")
    if result.series_exact is not None:
        ax.axhline(result.series_exact, color="black", linewidth=1, label=f"exact {result.series_exact:+.6f}")
        if result.series_sd is not None and result.series_hands.size:
            n = np.maximum(result.series_hands, 1)
            half = Z95 * result.series_sd / np.sqrt(n)
            ax.fill_between(n, result.series_exact - half, result.series_exact + half, alpha=0.15, color="grey")
    ax.set_xscale("log")
    ax.set_title("Convergence of the mean to the exact expected value")
    ax.set_xlabel("hands")
    ax.set_ylabel("expected value per unit")
    ax.legend(loc="lower right")
    figure.tight_layout()
    try:
        figure.savefig(target, dpi=110)
    except OSError as error:
        raise InputError(f"cannot write {str(target)!r}: {error.strerror}", hint="choose a writable path") from None
    finally:
        plt.close(figure)
    return target
