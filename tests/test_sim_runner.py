"""Runs are reproducible bit for bit on any number of workers, locally or on a Dask cluster."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from baccarat.errors import InputError
from baccarat.settlement import FeatureArrays
from baccarat.shoe import ShoeConfig
from baccarat.sim.kernel import count_features
from baccarat.sim.runner import CHUNK_SHOES, SimulationJob, simulate
from baccarat.sim.strategies import Strategy

TIMING = (
    "elapsed_seconds",
    "hands_per_second",
    "hands_per_second_per_worker",
    "kernel_seconds",
    "workers",
    "scheduler",
)


def stable(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in TIMING}


def test_same_seed_same_result_on_any_number_of_workers() -> None:
    job = SimulationJob(seed=11, shoes=3 * CHUNK_SHOES + 5, config=ShoeConfig(decks=6, demo_coups=1))
    one, three = simulate(job, workers=1), simulate(job, workers=3)
    assert stable(one.to_dict()) == stable(three.to_dict())
    assert one.to_dict()["chunks"] == 4 and one.to_dict()["shoes"] == 3 * CHUNK_SHOES + 5


def test_shoe_k_is_dealt_from_stream_k_in_every_chunk() -> None:
    config = ShoeConfig(decks=8)
    result = simulate(SimulationJob(seed=5, shoes=CHUNK_SHOES + 5, config=config), workers=2)
    hist, hands = count_features(config, seed=5, shoes=CHUNK_SHOES + 5)
    features = FeatureArrays.of_keys(np.flatnonzero(hist))
    counts = hist[hist > 0]
    assert result.hands == hands and result.to_dict()["chunks"] == 2
    assert result.outcomes["tie"] == int(counts[features.banker_total == features.player_total].sum())
    limited = simulate(SimulationJob(seed=5, hands=hands - 3, config=config), workers=2)
    assert limited.hands == hands - 3 and limited.to_dict()["shoes"] == CHUNK_SHOES + 5


def test_strategy_runs_are_reproducible_and_hands_are_exact() -> None:
    job = SimulationJob(seed=12, hands=123_457, strategy=Strategy.parse("fibonacci:streak2"), session_shoes=3)
    one, two = simulate(job, workers=1), simulate(job, workers=2)
    assert one.hands == 123_457 == sum(one.outcomes.values())
    assert stable(one.to_dict()) == stable(two.to_dict())
    other = simulate(SimulationJob(seed=13, hands=123_457, strategy=job.strategy, session_shoes=3), workers=2)
    assert stable(other.to_dict()) != stable(one.to_dict())


def test_interrupted_run_reports_the_completed_chunks() -> None:
    job = SimulationJob(seed=3, shoes=6 * CHUNK_SHOES)
    calls = []

    def progress(amount: int) -> None:
        calls.append(amount)
        if len(calls) == 2:
            raise KeyboardInterrupt

    result = simulate(job, workers=1, progress=progress)
    data = result.to_dict()
    assert data["interrupted"] and 0 < data["shoes"] < 6 * CHUNK_SHOES
    prefix = simulate(SimulationJob(seed=3, shoes=data["shoes"]), workers=1).to_dict()
    assert prefix["outcomes"] == data["outcomes"]


def test_dask_cluster_gives_the_same_result() -> None:
    from distributed import LocalCluster

    job = SimulationJob(seed=21, shoes=2 * CHUNK_SHOES + 17, strategy=Strategy.parse("paroli:player"))
    local = simulate(job, workers=2)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None, protocol="tcp"
    ) as cluster:
        remote = simulate(job, scheduler=cluster.scheduler_address)
    assert stable(remote.to_dict()) == stable(local.to_dict())
    assert remote.to_dict()["workers"] == 2 and remote.to_dict()["scheduler"] == cluster.scheduler_address


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"shoes": 0}, "shoes"),
        ({"hands": -5}, "hands"),
        ({"shoes": 5, "hands": 5}, "either"),
        ({"hands": 10**15}, "hands"),
        ({"hands": 10, "session_shoes": 0, "strategy": Strategy()}, "sessions"),
    ],
)
def test_bad_jobs_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        SimulationJob(seed=1, **kwargs)


def test_bad_scheduler_and_workers_are_refused() -> None:
    with pytest.raises(InputError, match="tcp://"):
        simulate(SimulationJob(seed=1, shoes=1), scheduler="http://example")
    with pytest.raises(InputError, match="workers"):
        simulate(SimulationJob(seed=1, shoes=1), workers=0)
