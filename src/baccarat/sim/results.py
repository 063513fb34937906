"""Folding chunks into results, and the statistics reported beside the exact figures.

Every estimate comes with a 95% confidence interval and the exact value of the odds engine
(:func:`baccarat.analysis.par_sheet`): outcome frequencies, each bet's expected value per unit
when it is bet on every coup, and for a strategy its expected value per unit wagered (a ratio
estimator over shoes), the house edge realised, the risk of ruin, the distribution of final
bankrolls and maximum drawdowns, and the result per shoe (for a counting strategy: the edge it
actually captured).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from baccarat.analysis import par_sheet
from baccarat.bets import BetKind
from baccarat.coup import Winner
from baccarat.features import FEATURE_KEYS
from baccarat.settlement import FeatureArrays, OutcomeTable, outcome_table
from baccarat.sim import kernel as k
from baccarat.sim.bankroll import MINOR_UNITS
from baccarat.variants import get_variant

if TYPE_CHECKING:
    from baccarat.sim.runner import Plan, SimulationJob

__all__ = ["Z95", "Accumulator", "ChunkResult", "Estimate", "SimulationResult", "wilson_interval"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
_PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A simulated mean with its standard error, 95% interval and the exact value it estimates.

    >>> e = Estimate(-0.0105, 0.001, exact=-0.010579)
    >>> e.contains_exact, round(e.z, 3), [round(x, 4) for x in e.interval]
    (True, 0.079, [-0.0125, -0.0085])
    """

    value: float
    std_error: float
    exact: float | None = None

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval."""
        return self.value - Z95 * self.std_error, self.value + Z95 * self.std_error

    @property
    def z(self) -> float:
        """Standard errors between the estimate and the exact value (0 when there is none)."""
        if self.exact is None or self.std_error == 0:
            return 0.0
        return (self.value - self.exact) / self.std_error

    @property
    def contains_exact(self) -> bool:
        """Whether the 95% interval holds the exact value."""
        low, high = self.interval
        return self.exact is not None and low <= self.exact <= high

    def to_dict(self) -> dict[str, Any]:
        """``{"value", "std_error", "ci95", "exact", "z"}``."""
        return {
            "value": self.value,
            "std_error": self.std_error,
            "ci95": list(self.interval),
            "exact": self.exact,
            "z": self.z,
        }


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson 95% interval of a proportion.

    >>> [round(x, 4) for x in wilson_interval(0, 100)]
    [0.0, 0.037]
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, eq=False)
class ChunkResult:
    """What one chunk returns: hands, shoes, its feature-key histogram (sparse) and, with a strategy,
    the sessions, the strategy's results and money by bet, per-shoe sums and bankroll paths."""

    index: int
    hands: int
    shoes: int
    keys: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]
    sessions: npt.NDArray[np.int64] | None = None
    results: npt.NDArray[np.int64] | None = None
    money: npt.NDArray[np.int64] | None = None
    shoe_sums: npt.NDArray[np.float64] | None = None
    track: npt.NDArray[np.int64] | None = None
    seconds: float = 0.0


def _pay_vector(table: OutcomeTable, kind: BetKind) -> npt.NDArray[np.float64]:
    """Net per unit indexed by settlement level + 2 (push, lose, then the paying levels)."""
    return np.array([0.0, -1.0, *(float(level.pays) for level in table.levels[kind])])


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """A finished (or interrupted) simulation; :meth:`to_dict` is the ``simulate --json`` document."""

    data: dict[str, Any]
    #: Convergence: cumulative hands, and the running expected value per unit (strategy, else Banker).
    series_hands: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    series_mean: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    series_exact: float | None = None
    series_sd: float | None = None
    #: Bankroll paths of the first sessions (currency units), one row per session, and hands per point.
    track: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 0)))
    track_stride: int = 1

    @property
    def hands(self) -> int:
        """Scored coups dealt."""
        return int(self.data["hands"])

    @property
    def outcomes(self) -> dict[str, int]:
        """Banker, Player and Tie counts."""
        return dict(self.data["outcomes"])

    @property
    def strategy(self) -> dict[str, Any] | None:
        """The strategy section, or ``None``."""
        return self.data.get("strategy")

    def to_dict(self) -> dict[str, Any]:
        """The JSON document."""
        return self.data


class Accumulator:
    """Folds chunk results in chunk order (so float sums, too, are the same on any number of workers)."""

    def __init__(self, job: SimulationJob, plan: Plan) -> None:
        self.job = job
        self.plan = plan
        self.variant = get_variant(job.variant)
        self.table = outcome_table(self.variant.paytable)
        self.hist = np.zeros(FEATURE_KEYS, dtype=np.int64)
        self.hands = 0
        self.shoes = 0
        self.next_index = 0
        self.kernel_seconds = 0.0
        self.series: list[tuple[int, float, float]] = []  # (hands, wagered, net) after each chunk
        self.sessions: list[npt.NDArray[np.int64]] = []
        self.tracks: list[npt.NDArray[np.int64]] = []
        self.results: npt.NDArray[np.int64] | None = None
        self.money: npt.NDArray[np.int64] | None = None
        self.shoe_sums = np.zeros(k.B_SIZE, dtype=np.float64)
        self._banker = _pay_vector(self.table, BetKind.BANKER)
        self._banker_level = (self.table.index[BetKind.BANKER] + 2).astype(np.uint8)  # index of _banker by key

    def fold(self, chunk: ChunkResult) -> None:
        """Add the next chunk (chunks arrive in order)."""
        assert chunk.index == self.next_index, "chunks are folded in order"
        self.next_index += 1
        self.hist[chunk.keys] += chunk.counts  # a chunk's keys are distinct (np.add.at is ten times slower)
        self.hands += chunk.hands
        self.shoes += chunk.shoes
        self.kernel_seconds += chunk.seconds
        wagered, net = float(chunk.hands), 0.0
        if chunk.money is not None and chunk.results is not None and chunk.shoe_sums is not None:
            self.money = chunk.money.copy() if self.money is None else self.money + chunk.money
            self.results = chunk.results.copy() if self.results is None else self.results + chunk.results
            self.shoe_sums += chunk.shoe_sums
            assert chunk.sessions is not None and chunk.track is not None
            self.sessions.append(chunk.sessions)
            if chunk.track.size:
                self.tracks.append(chunk.track)
            wagered, net = float(chunk.money[:, 0].sum()), float(chunk.money[:, 1].sum())
        else:
            # Counts by settlement level, then a product of a few terms: an np.dot over the chunk's
            # keys (10,000 of them on long runs) wakes OpenBLAS's threads, which spin on the cores
            # the kernels are using.
            levels = self._banker_level[chunk.keys]
            by_level = np.bincount(levels, weights=chunk.counts, minlength=self._banker.size)
            net = float(np.dot(self._banker, by_level))
        previous = self.series[-1] if self.series else (0, 0.0, 0.0)
        self.series.append((previous[0] + chunk.hands, previous[1] + wagered, previous[2] + net))

    # --- the report ------------------------------------------------------------------------------

    def result(self, *, elapsed: float, workers: int, scheduler: str | None, interrupted: bool) -> SimulationResult:
        """The statistics of everything folded so far."""
        job = self.job
        composition = job.config.full_composition()
        sheet = par_sheet(composition, variant=self.variant)
        keys = np.flatnonzero(self.hist)
        counts = self.hist[keys]
        features = FeatureArrays.of_keys(keys)
        banker = int(counts[features.banker_total > features.player_total].sum())
        player = int(counts[features.player_total > features.banker_total].sum())
        tie = int(counts[features.player_total == features.banker_total].sum())
        hands = self.hands
        frequencies = {}
        for winner, count in ((Winner.BANKER, banker), (Winner.PLAYER, player), (Winner.TIE, tie)):
            p = float(sheet.outcomes[winner].probability)
            frequencies[winner.value] = Estimate(
                count / hands if hands else 0.0, math.sqrt(p * (1 - p) / hands) if hands else 0.0, p
            ).to_dict()
        bets = {}
        for kind in self.variant.bets:
            levels = self.table.index[kind][keys].astype(np.int64) + 2
            by_level = np.bincount(levels, weights=counts, minlength=2 + len(self.table.levels[kind])).astype(np.int64)
            names = ["push", "lose", *(level.name for level in self.table.levels[kind])]
            values = _pay_vector(self.table, kind)
            figures = sheet.bets[kind]
            mean = float(np.dot(values, by_level)) / hands if hands else 0.0
            second = float(np.dot(values * values, by_level)) / hands if hands else 0.0
            se = math.sqrt(max(second - mean * mean, 0.0) / hands) if hands > 1 else 0.0
            ev = Estimate(mean, se, float(figures.expected_value))
            results: dict[str, int] = {}
            for name, count in zip(names, by_level.tolist(), strict=True):
                results[name] = results.get(name, 0) + int(count)
            bets[kind.value] = {
                "results": {name: count for name, count in results.items() if count or name in ("push", "lose")},
                "expected_value": ev.to_dict(),
                "house_edge_realised": -mean,
                "house_edge_exact": float(figures.house_edge),
            }
        data: dict[str, Any] = {
            "hands": hands,
            "shoes": self.shoes,
            "outcomes": {"banker": banker, "player": player, "tie": tie},
            "outcome_frequencies": frequencies,
            "bets": bets,
            "variant": self.variant.name,
            "decks": job.config.decks,
            "config": job.config.to_dict(),
            "seed": job.seed,
            "strategy": None,
            "elapsed_seconds": elapsed,
            "hands_per_second": hands / elapsed if elapsed > 0 else 0.0,
            "hands_per_second_per_worker": hands / elapsed / workers if elapsed > 0 else 0.0,
            "kernel_seconds": self.kernel_seconds,
            "workers": workers,
            "scheduler": scheduler,
            "chunks": self.next_index,
            "interrupted": interrupted,
        }
        series = np.array(self.series, dtype=np.float64).reshape(-1, 3)
        with np.errstate(divide="ignore", invalid="ignore"):
            running = np.where(series[:, 1] > 0, series[:, 2] / series[:, 1], np.nan)
        exact = float(sheet.bets[BetKind.BANKER].expected_value) if BetKind.BANKER in sheet.bets else None
        sd = sheet.bets[BetKind.BANKER].std_dev if BetKind.BANKER in sheet.bets else None
        track = np.zeros((0, 0))
        stride = 1
        if job.strategy is not None and self.money is not None and self.results is not None:
            strategy = self._strategy(sheet)
            data["strategy"] = strategy
            exact = strategy["expected_value"]["exact"]
            sd = None
            track = np.concatenate(self.tracks) / MINOR_UNITS if self.tracks else np.zeros((0, 0))
            if self.sessions:  # convergence session by session: finer than chunks
                played = np.concatenate(self.sessions)
                series = np.cumsum(played[:, [k.S_HANDS, k.S_WAGERED, k.S_NET]].astype(np.float64), axis=0)
                with np.errstate(divide="ignore", invalid="ignore"):
                    running = np.where(series[:, 1] > 0, series[:, 2] / series[:, 1], np.nan)
            stride = int(strategy["track_stride"])
        return SimulationResult(
            data=data,
            series_hands=series[:, 0],
            series_mean=running,
            series_exact=exact,
            series_sd=sd,
            track=track,
            track_stride=stride,
        )

    def _strategy(self, sheet: Any) -> dict[str, Any]:
        job = self.job
        assert job.strategy is not None and self.money is not None and self.results is not None
        plan = self.plan
        assert plan.strategy is not None
        params = plan.strategy["params"]
        unit = int(params[k.P_UNIT])
        start = int(params[k.P_BANKROLL])
        sessions = np.concatenate(self.sessions) if self.sessions else np.zeros((0, k.S_SIZE), dtype=np.int64)
        count = int(sessions.shape[0])
        kinds = job.strategy.bets
        wagered = int(self.money[:, 0].sum())
        net = int(self.money[:, 1].sum())
        shoes, s_net, s_wag, s_net2, s_wag2, s_cross = (float(x) for x in self.shoe_sums[: k.B_SIZE])
        ratio = net / wagered if wagered else 0.0
        se = 0.0
        if wagered and shoes > 1:
            spread = max(s_net2 - 2 * ratio * s_cross + ratio * ratio * s_wag2, 0.0)
            se = math.sqrt(spread / (shoes * (shoes - 1))) / (s_wag / shoes)
        exact = (
            sum(int(self.money[row, 0]) * float(sheet.bets[kind].expected_value) for row, kind in enumerate(kinds))
            / wagered
            if wagered
            else float(sheet.bets[kinds[0]].expected_value)
        )
        ev = Estimate(ratio, se, exact)
        ends = np.bincount(sessions[:, k.S_END], minlength=4) if count else np.zeros(4, dtype=np.int64)
        ruined = int(ends[k.END_RUINED])
        final = sessions[:, k.S_FINAL] / MINOR_UNITS
        drawdown = sessions[:, k.S_MAX_DRAWDOWN] / MINOR_UNITS
        per_shoe = s_net / shoes if shoes else 0.0
        per_shoe_se = math.sqrt(max(s_net2 / shoes - per_shoe**2, 0.0) / (shoes - 1)) if shoes > 1 else 0.0
        by_bet = {}
        for row, kind in enumerate(kinds):
            names = ["push", "lose", *(level.name for level in self.table.levels[kind])]
            tally: dict[str, int] = {}
            for name, n in zip(names, self.results[row, : len(names)].tolist(), strict=True):
                tally[name] = tally.get(name, 0) + int(n)
            by_bet[kind.value] = {
                "results": tally,
                "wagered": int(self.money[row, 0]) / MINOR_UNITS,
                "net": int(self.money[row, 1]) / MINOR_UNITS,
                "exact_expected_value": float(sheet.bets[kind].expected_value),
            }
        bets_placed = int(sessions[:, k.S_BETS].sum())
        return {
            "name": job.strategy.name,
            "staking": job.strategy.staking.value,
            "selection": job.strategy.selection.value,
            "bankroll": start / MINOR_UNITS,
            "unit": unit / MINOR_UNITS,
            "stop_loss": int(params[k.P_STOP_LOSS]) / MINOR_UNITS or None,
            "stop_win": int(params[k.P_STOP_WIN]) / MINOR_UNITS or None,
            "table_limits": {
                kind.value: {
                    "min": int(plan.strategy["limits"][row, 0]) / MINOR_UNITS,
                    "max": int(plan.strategy["limits"][row, 1]) / MINOR_UNITS,
                }
                for row, kind in enumerate(kinds)
            },
            "session_shoes": job.block_shoes,
            "sessions": count,
            "hands_played": int(sessions[:, k.S_HANDS].sum()),
            "bets": bets_placed,
            "wagered": wagered / MINOR_UNITS,
            "net": net / MINOR_UNITS,
            "expected_value": ev.to_dict(),
            "house_edge_realised": -ratio,
            "house_edge_exact": -exact,
            "risk_of_ruin": {
                "value": ruined / count if count else 0.0,
                "ci95": list(wilson_interval(ruined, count)),
                "sessions_ruined": ruined,
            },
            "stop_loss_sessions": int(ends[k.END_STOP_LOSS]),
            "stop_win_sessions": int(ends[k.END_STOP_WIN]),
            "table_limit_hits": int(sessions[:, k.S_LIMIT_HITS].sum()),
            "final_bankroll": _distribution(final),
            "max_drawdown": _distribution(drawdown),
            "per_shoe": {
                "shoes": int(shoes),
                "net": Estimate(per_shoe / MINOR_UNITS, per_shoe_se / MINOR_UNITS).to_dict(),
                "net_units": Estimate(per_shoe / unit, per_shoe_se / unit).to_dict(),
                "bets": bets_placed / shoes if shoes else 0.0,
                "edge_per_bet": net / wagered if wagered else 0.0,
            },
            "by_bet": by_bet,
            "track_stride": int(params[k.P_TRACK_STRIDE]),
        }


def _distribution(values: npt.NDArray[np.float64]) -> dict[str, Any]:
    if not values.size:
        return {"mean": None, "std_dev": None, "min": None, "max": None, "percentiles": {}}
    points = np.percentile(values, _PERCENTILES)
    return {
        "mean": float(values.mean()),
        "std_dev": float(values.std()),
        "min": float(values.min()),
        "max": float(values.max()),
        "percentiles": {str(p): float(v) for p, v in zip(_PERCENTILES, points, strict=True)},
    }
