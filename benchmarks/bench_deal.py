"""Coups per second of the pure-Python engine dealing whole shoes with every procedure.

Run: ``.venv/bin/python benchmarks/bench_deal.py [--shoes N]``. Prints the rate for the plain
shoe procedure, with a burn before each coup, and with the pre-dealt layout; the last line is
``deal_coups_per_s=<value>`` (plain procedure). No target: the compiled simulator is measured
against this figure.
"""

from __future__ import annotations

import argparse
import statistics
import time

from baccarat.dealing import ShoeDealer
from baccarat.rng import SeededSource
from baccarat.shoe import DealingMode, ShoeConfig


def coups_per_second(config: ShoeConfig, shoes: int, repeats: int) -> float:
    rates = []
    for repeat in range(repeats):
        dealer = ShoeDealer(config, source=SeededSource(repeat))
        start = time.perf_counter()
        coups = sum(len(dealer.deal_shoe()) for _ in range(shoes))
        rates.append(coups / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=40, help="shoes per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (the median is reported)")
    args = parser.parse_args()
    cases = {
        "shoe": ShoeConfig(),
        "shoe+burn_each_coup": ShoeConfig(burn_each_coup=True),
        "pre_dealt": ShoeConfig(mode=DealingMode.PRE_DEALT),
    }
    results = {name: coups_per_second(config, args.shoes, args.repeats) for name, config in cases.items()}
    for name, rate in results.items():
        print(f"{name:>22}: {rate:12,.0f} coups/s")
    print(f"deal_coups_per_s={results['shoe']:.0f}")


if __name__ == "__main__":
    main()
