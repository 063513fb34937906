"""Simulator speed: hands per second per core of the outcome-counting kernel (full shoe procedures)
and of the compiled strategy kernel, against the Python engine's ``ShoeDealer.deal_shoe`` loop.

Run: ``.venv/bin/python benchmarks/bench_sim.py [--shoes N] [--workers W]``. The last line is
``sim_hands_per_s_per_core=<value>``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from baccarat.dealing import ShoeDealer
from baccarat.features import FEATURE_KEYS
from baccarat.rng import SeededSource
from baccarat.shoe import ShoeConfig
from baccarat.sim import kernel as k
from baccarat.sim.runner import SimulationJob, build_plan, run_chunk, simulate
from baccarat.sim.strategies import Strategy


def best_of(runs: int, func: object) -> float:
    assert callable(func)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shoes", type=int, default=40_000, help="shoes per timed kernel run")
    parser.add_argument("--workers", type=int, default=0, help="also time a run on this many threads (0: skip)")
    args = parser.parse_args()
    config = ShoeConfig(decks=8)
    tables, shoe = k.kernel_tables(), k.shoe_tables(config)
    hist = np.zeros(FEATURE_KEYS, dtype=np.int64)

    def count() -> int:
        hands, _ = k._count_kernel(
            np.uint64(1), 1, args.shoes, -1, shoe.deck, shoe.config, tables.packed, tables.draws, hist
        )
        return int(hands)

    hands = count()  # compiles or loads the cache
    seconds = best_of(3, count)
    per_core = hands / seconds
    print(f"outcome kernel: {hands:,} hands in {seconds:.3f} s = {per_core / 1e6:.2f} M hands/s on one core")

    plan = build_plan(
        SimulationJob(seed=1, shoes=args.shoes, strategy=Strategy.parse("martingale:banker"), session_shoes=10)
    )
    run_chunk(plan, 0, 1)
    blocks = args.shoes // 10
    strategy_seconds = best_of(3, lambda: run_chunk(plan, 0, blocks))
    strategy_hands = run_chunk(plan, 0, blocks).hands
    print(
        f"strategy kernel (martingale:banker, bankroll, limits): {strategy_hands / strategy_seconds / 1e6:.2f} M hands/s on one core"
    )

    dealer = ShoeDealer(config, source=SeededSource(1))
    python_shoes = 50
    started = time.perf_counter()
    python_hands = sum(len(dealer.deal_shoe()) for _ in range(python_shoes))
    python_rate = python_hands / (time.perf_counter() - started)
    print(
        f"python engine (ShoeDealer.deal_shoe loop): {python_rate:,.0f} hands/s; kernel is {per_core / python_rate:,.0f}x faster"
    )

    if args.workers:
        job = SimulationJob(seed=1, shoes=args.workers * args.shoes)
        result = simulate(job, workers=args.workers).to_dict()
        rate = result["hands"] / result["kernel_seconds"] * args.workers
        print(
            f"{args.workers} threads: {result['hands_per_second'] / 1e6:.2f} M hands/s wall "
            f"({result['hands_per_second'] / args.workers / 1e6:.2f} per worker; kernel-time rate {rate / 1e6:.2f} M/s)"
        )
    print(f"sim_hands_per_s_per_core={per_core:.0f}")


if __name__ == "__main__":
    main()
