"""Start-up of the ``baccarat`` command, as whole processes, against two yardsticks.

Run: ``.venv/bin/python benchmarks/bench_cli.py [--repeats N]``. Every command runs as a new
process, the processes of one round interleaved (so that load from elsewhere falls on all of them
alike), ``--repeats`` rounds; the figures are medians. The yardsticks:

* ``python -c "import typer"``: the least any Typer program costs. Goal: ``baccarat --help`` and
  ``baccarat deal --cards "AS 2H 3D KC 4S 8D"`` within 1.5 times of it.
* a plain-Python exact enumeration of the main bets (Banker, Player, Tie) of an 8-deck shoe, run
  as a program of its own (``bench_cli.py --baseline 8``: no numpy, no baccarat; what an odds program
  written the straightforward way costs). Goal: ``baccarat odds --decks 8 --json`` at least 3 times
  faster. ``odds`` keeps the par sheets it computes (:mod:`baccarat.cli.odds_cache`), so it is timed
  both with that cache in place and with an empty one (a first run: numpy, numba and the compiled
  kernels loaded; the kernels' machine code is still numba's disk cache).

The baseline's figures are checked against ``baccarat odds`` before anything is timed. The last
lines are the ratios, e.g. ``help_ratio=1.21`` (lower is better) and ``odds_speedup=5.3``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

#: Player draws on 0–5 and stands on 6–7 (R13).
PLAYER_DRAWS_TO = 5
#: Banker's two-card total → the Player third-card points on which Banker draws (R14).
BANKER_DRAWS_ON = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: set(range(10)) - {8},
    4: set(range(2, 8)),
    5: set(range(4, 8)),
    6: {6, 7},
    7: set(),
}


def _banker_draws(banker: int, third: int | None) -> bool:
    if banker >= 7:
        return False
    if third is None:  # Player stood: Banker draws on 0–5 (R15)
        return banker <= 5
    return third in BANKER_DRAWS_ON[banker]


def baseline_main_bets(decks: int) -> dict[str, int]:
    """Ways of Banker, Player and Tie over every ordered six-card deal: nested loops over the 13 ranks,
    the way a plain odds program counts (rank by rank, so that pair bets could be counted too)."""
    shoe = [4 * decks] * 13
    total = 52 * decks
    ways = {"banker": 0, "player": 0, "tie": 0}
    for p1 in range(13):
        w1 = shoe[p1]
        shoe[p1] -= 1
        for b1 in range(13):
            w2 = w1 * shoe[b1]
            shoe[b1] -= 1
            for p2 in range(13):
                w3 = w2 * shoe[p2]
                shoe[p2] -= 1
                for b2 in range(13):
                    w4 = w3 * shoe[b2]
                    if w4:
                        shoe[b2] -= 1
                        _third_cards(
                            shoe, total, (_POINT[p1] + _POINT[p2]) % 10, (_POINT[b1] + _POINT[b2]) % 10, w4, ways
                        )
                        shoe[b2] += 1
                shoe[p2] += 1
            shoe[b1] += 1
        shoe[p1] += 1
    return ways


#: Points of the 13 ranks, ace to king (R2).
_POINT = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]


def _score(ways: dict[str, int], p: int, b: int, w: int) -> None:
    ways["player" if p > b else "banker" if b > p else "tie"] += w


def _third_cards(shoe: list[int], total: int, pt: int, bt: int, w4: int, ways: dict[str, int]) -> None:
    """The draws after the first four cards; the unused cards of the six count as ordered ways."""
    if pt >= 8 or bt >= 8:  # a natural: nobody draws (R12)
        _score(ways, pt, bt, w4 * (total - 4) * (total - 5))
    elif pt <= PLAYER_DRAWS_TO:
        for p3 in range(13):
            w5 = w4 * shoe[p3]
            if not w5:
                continue
            shoe[p3] -= 1
            point = _POINT[p3]
            if _banker_draws(bt, point):
                for b3 in range(13):
                    _score(ways, (pt + point) % 10, (bt + _POINT[b3]) % 10, w5 * shoe[b3])
            else:
                _score(ways, (pt + point) % 10, bt, w5 * (total - 5))
            shoe[p3] += 1
    elif _banker_draws(bt, None):
        for b3 in range(13):
            _score(ways, pt, (bt + _POINT[b3]) % 10, w4 * shoe[b3] * (total - 5))
    else:
        _score(ways, pt, bt, w4 * (total - 4) * (total - 5))


def baseline_report(decks: int) -> dict[str, object]:
    """The baseline program's output: ways and exact expected values of the main bets."""
    ways = baseline_main_bets(decks)
    banker, player, tie = ways["banker"], ways["player"], ways["tie"]
    deals = banker + player + tie
    evs = {
        "banker": Fraction(banker * 19 - player * 20, 20 * deals),
        "player": Fraction(player - banker, deals),
        "tie": Fraction(tie * 8 - banker - player, deals),
    }
    return {"ways": ways, "total_ways": deals, "expected_value": {k: float(v) for k, v in evs.items()}}


def _baccarat() -> list[str]:
    script = Path(sys.executable).with_name("baccarat")
    return [str(script)] if script.exists() else [sys.executable, "-m", "baccarat"]


def _time(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run of ``argv``."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    error = child.stderr.read().decode() if child.stderr else ""
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {error[-500:]}")
    return elapsed, usage.ru_utime + usage.ru_stime


def check_baseline(env: dict[str, str]) -> None:
    """The baseline must count what ``baccarat odds`` counts."""
    mine = baseline_report(8)
    odds = json.loads(
        subprocess.run(
            [*_baccarat(), "odds", "--decks", "8", "--json"], env=env, capture_output=True, check=True
        ).stdout
    )
    theirs = {name: figures["ways"] for name, figures in odds["outcomes"].items()}
    if mine["ways"] != theirs or mine["total_ways"] != odds["total_ways"]:
        raise SystemExit(f"the baseline counts {mine['ways']}, baccarat odds {theirs}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="rounds of timed processes (medians are reported)")
    parser.add_argument("--baseline", type=int, metavar="DECKS", help="run the plain-Python enumeration and exit")
    args = parser.parse_args()
    if args.baseline is not None:
        print(json.dumps(baseline_report(args.baseline)))
        return

    cache = tempfile.mkdtemp(prefix="bench-cli-")
    # byte-compiled as an installed package is (into a cache of this run's own, not the source tree)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"BACCARAT_CACHE_DIR": cache, "PYTHONPYCACHEPREFIX": f"{cache}/pycache", "COLUMNS": "80", "NO_COLOR": "1"}
    baccarat = _baccarat()
    check_baseline(env)  # also fills the odds cache
    commands = {
        "python -c 'import typer'": ([sys.executable, "-c", "import typer"], env),
        "baccarat --help": ([*baccarat, "--help"], env),
        "baccarat deal --cards ...": ([*baccarat, "deal", "--cards", "AS 2H 3D KC 4S 8D"], env),
        "baccarat odds --decks 8 --json": ([*baccarat, "odds", "--decks", "8", "--json"], env),
        "  (odds cache off: computed)": (
            [*baccarat, "odds", "--decks", "8", "--json"],
            {**env, "BACCARAT_CACHE_DIR": "off"},
        ),
        "plain-Python baseline, 8 decks": ([sys.executable, __file__, "--baseline", "8"], env),
    }
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for argv, run_env in commands.values():  # warm-up: byte-compiles every module the commands load
        _time(argv, run_env)
    for _ in range(args.repeats):
        for name, (argv, run_env) in commands.items():
            elapsed, used = _time(argv, run_env)
            wall[name].append(elapsed)
            cpu[name].append(used)
    _report(
        {name: statistics.median(v) for name, v in wall.items()},
        {name: statistics.median(v) for name, v in cpu.items()},
    )


def _report(wall: dict[str, float], cpu: dict[str, float]) -> None:
    print(f"{'median of each':34} {'wall':>9} {'cpu':>9}")
    for name in wall:
        print(f"{name:34} {wall[name] * 1000:6.1f} ms {cpu[name] * 1000:6.1f} ms")
    typer, help_, deal = "python -c 'import typer'", "baccarat --help", "baccarat deal --cards ..."
    odds, computed, baseline = (
        "baccarat odds --decks 8 --json",
        "  (odds cache off: computed)",
        "plain-Python baseline, 8 decks",
    )
    for figures, label in ((wall, ""), (cpu, "cpu_")):
        print(
            f"{label}help_ratio={figures[help_] / figures[typer]:.2f} {label}deal_ratio={figures[deal] / figures[typer]:.2f}"
            f" (goal: at most 1.5)  {label}odds_speedup={figures[baseline] / figures[odds]:.2f} (goal: at least 3)"
            f"  {label}odds_speedup_cache_off={figures[baseline] / figures[computed]:.2f}"
        )


if __name__ == "__main__":
    main()
