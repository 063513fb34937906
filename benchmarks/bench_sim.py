"""Simulator speed: hands per second per core of the outcome-counting kernel (full shoe procedures)
and of the compiled strategy kernel, against the Python engine's ``ShoeDealer.deal_shoe`` loop, the
scaling of a whole run over local threads, and the Dask efficiency: the same run on a local Dask
cluster of one-thread worker processes, as a share of the run on as many threads (outcome counting
and the oracle).

Run: ``.venv/bin/python benchmarks/bench_sim.py [--shoes N] [--workers 1,2] [--dask-hands N]``.
Kernel timings are the best of five runs, whole runs the best of three (on a cluster whose workers
have warmed their kernels); the load average is printed first, since other work on the machine slows
every figure. The last lines are ``dask_efficiency=<share>``, ``dask_oracle_efficiency=<share>``
and ``sim_hands_per_s_per_core=<value>`` (the outcome kernel).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

from baccarat.dealing import ShoeDealer
from baccarat.features import FEATURE_KEYS
from baccarat.rng import SeededSource
from baccarat.shoe import ShoeConfig
from baccarat.sim import kernel as k
from baccarat.sim.oracle import OracleJob, simulate_oracle
from baccarat.sim.runner import SimulationJob, build_plan, run_chunk, simulate
from baccarat.sim.strategies import Strategy


def best_of(runs: int, func: Callable[[], object]) -> float:
    """The shortest wall-clock time of ``runs`` calls."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shoes", type=int, default=20_000, help="shoes per timed kernel run (and per worker)")
    parser.add_argument("--workers", default="1,2", help="thread counts for the scaling runs ('' to skip)")
    parser.add_argument("--dask-hands", type=int, default=500_000_000, help="hands of the Dask run (0 to skip)")
    parser.add_argument("--dask-oracle-shoes", type=int, default=256, help="shoes of the oracle's Dask run (0 to skip)")
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average: {load} on {os.cpu_count()} cores")
    config = ShoeConfig(decks=8)
    tables, shoe = k.kernel_tables(), k.shoe_tables(config)
    hist = np.zeros(FEATURE_KEYS, dtype=np.int64)

    def count() -> int:
        hands, _ = k._count_kernel(
            np.uint64(1), 1, args.shoes, -1, shoe.deck, shoe.config, tables.packed, tables.draws, hist
        )
        return int(hands)

    hands = count()  # compiles or loads the cache
    seconds = best_of(5, count)
    per_core = hands / seconds
    print(f"outcome kernel: {hands:,} hands in {seconds:.3f} s = {per_core / 1e6:.2f} M hands/s on one core")

    plan = build_plan(
        SimulationJob(seed=1, shoes=args.shoes, strategy=Strategy.parse("martingale:banker"), session_shoes=10)
    )
    run_chunk(plan, 0, 1)
    blocks = args.shoes // 10
    strategy_seconds = best_of(5, lambda: run_chunk(plan, 0, blocks))
    strategy_rate = run_chunk(plan, 0, blocks).hands / strategy_seconds
    print(f"strategy kernel (martingale:banker, bankroll, limits): {strategy_rate / 1e6:.2f} M hands/s on one core")

    dealer = ShoeDealer(config, source=SeededSource(1))
    python_shoes = 50
    started = time.perf_counter()
    python_hands = sum(len(dealer.deal_shoe()) for _ in range(python_shoes))
    python_rate = python_hands / (time.perf_counter() - started)
    print(
        f"python engine (ShoeDealer.deal_shoe loop): {python_rate:,.0f} hands/s; "
        f"outcome kernel {per_core / python_rate:,.0f}x, strategy kernel {strategy_rate / python_rate:,.0f}x faster"
    )

    single = 0.0
    for workers in [int(w) for w in args.workers.split(",") if w]:
        job = SimulationJob(seed=1, shoes=workers * args.shoes)
        rate = max(simulate(job, workers=workers).to_dict()["hands_per_second"] for _ in range(2))
        single = single or rate / workers
        print(
            f"simulate on {workers} thread(s): {rate / 1e6:.2f} M hands/s wall, "
            f"{rate / workers / 1e6:.2f} per thread ({rate / workers / single:.0%} of the first row's)"
        )
    if args.dask_hands or args.dask_oracle_shoes:
        dask_efficiency(args.dask_hands, args.dask_oracle_shoes, max(int(w) for w in args.workers.split(",") if w))
    print(f"sim_hands_per_s_per_core={per_core:.0f}")


def dask_efficiency(hands: int, oracle_shoes: int, workers: int) -> None:
    """The same seeded runs on ``workers`` threads and on a local cluster of ``workers`` one-thread
    worker processes: the cluster's speed as a share of the threads' (the figures are the same)."""
    from distributed import LocalCluster

    count_job = SimulationJob(seed=1, hands=hands) if hands else None
    oracle_job = OracleJob(seed=1, shoes=oracle_shoes) if oracle_shoes else None
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        if count_job is not None:
            simulate(SimulationJob(seed=2, hands=hands // 20), scheduler=address)  # the workers warm up
            threads = max(simulate(count_job, workers=workers).to_dict()["hands_per_second"] for _ in range(3))
            dask = max(simulate(count_job, scheduler=address).to_dict()["hands_per_second"] for _ in range(3))
            print(
                f"simulate --hands {hands:,}: {threads / 1e6:.1f} M hands/s on {workers} threads, "
                f"{dask / 1e6:.1f} M on {workers} Dask workers ({dask / threads:.0%})"
            )
            print(f"dask_efficiency={dask / threads:.3f}")
        if oracle_job is not None:
            simulate_oracle(OracleJob(seed=2, shoes=2 * workers), scheduler=address)
            threads_s = min(simulate_oracle(oracle_job, workers=workers).seconds for _ in range(3))
            dask_s = min(simulate_oracle(oracle_job, scheduler=address).seconds for _ in range(3))
            print(
                f"oracle, {oracle_shoes} shoes: {threads_s:.2f} s on {workers} threads, "
                f"{dask_s:.2f} s on {workers} Dask workers ({threads_s / dask_s:.0%})"
            )
            print(f"dask_oracle_efficiency={threads_s / dask_s:.3f}")


if __name__ == "__main__":
    main()
