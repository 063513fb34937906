"""Milliseconds per update of ``baccarat advise``, and the oracle's shoes per second.

Run: ``.venv/bin/python benchmarks/bench_advise.py [--shoes N] [--oracle-shoes N]``. An update is what the
command does after each coup: take the coup's cards out of the shoe, price every bet of the variant for
the next coup exactly, and write the JSON object. The shoes are dealt by the engine (8 decks, macau, every
coup of each shoe), after a warm-up. The comparison is a full par sheet of the cards left (what
``baccarat odds --remove`` computes). Then the oracle (``simulate --strategy oracle``) deals 8-deck shoes on
one worker, every bet priced at every coup. The last line is ``advise_ms=<median>``; the goal is at most 5 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from baccarat.analysis import par_sheet
from baccarat.analysis.advisor import Advisor
from baccarat.dealing import ShoeDealer
from baccarat.rng import SeededSource
from baccarat.shoe import ShoeConfig
from baccarat.sim.oracle import OracleJob, simulate_oracle


def _coups(shoes: int) -> list[list[str]]:
    dealer = ShoeDealer(ShoeConfig(decks=8), source=SeededSource(2026))
    return [[" ".join(str(c) for c in coup.result.cards) for coup in dealer.deal_shoe()] for _ in range(shoes)]


def advise_times(shoes: list[list[str]]) -> list[float]:
    """Milliseconds of each update over the shoes."""
    times = []
    for coups in shoes:
        advisor = Advisor(8, variant="macau")
        for cards in coups:
            started = time.perf_counter()
            advisor.see(cards)
            json.dumps(advisor.advice().to_dict())
            times.append((time.perf_counter() - started) * 1e3)
    return times


def par_sheet_times(coups: list[str]) -> list[float]:
    """Milliseconds of a full par sheet of the cards left after each coup of one shoe."""
    times, seen = [], ""
    for cards in coups:
        seen = f"{seen} {cards}"
        started = time.perf_counter()
        json.dumps({k.value: b.to_dict() for k, b in par_sheet(8, variant="macau", remove=seen).bets.items()})
        times.append((time.perf_counter() - started) * 1e3)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shoes", type=int, default=5)
    parser.add_argument("--oracle-shoes", type=int, default=200)
    args = parser.parse_args()
    shoes = _coups(args.shoes + 1)
    advise_times(shoes[:1])  # warm-up: the kernels load (or compile) once
    times = advise_times(shoes[1:])
    slow = par_sheet_times(shoes[1])
    median, slow_median = statistics.median(times), statistics.median(slow)
    print(f"advise: {len(times)} updates, median {median:.3f} ms, p95 {sorted(times)[int(0.95 * len(times))]:.3f} ms")
    print(f"par sheet of the cards left: median {slow_median:.3f} ms ({slow_median / median:.1f}x slower)")
    simulate_oracle(OracleJob(seed=1, shoes=2), workers=1)
    started = time.perf_counter()
    result = simulate_oracle(OracleJob(seed=1, shoes=args.oracle_shoes), workers=1)
    seconds = time.perf_counter() - started
    per_shoe = seconds / result.shoes * 1e3
    print(
        f"oracle: {result.shoes} shoes, {result.coups} coups in {seconds:.2f} s on one worker: {per_shoe:.1f} ms a shoe, "
        f"{seconds / result.coups * 1e3:.3f} ms a coup; 10,000 shoes: {per_shoe * 10:.0f} s on one core"
    )
    print(f"advise_ms={median:.3f}")


if __name__ == "__main__":
    main()
