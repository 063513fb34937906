"""Betting systems: parsing, the compiled play agrees with the tables' settlement, and no system wins."""

from __future__ import annotations

import pytest

from baccarat.bets import Bet, BetKind
from baccarat.errors import InputError
from baccarat.settlement import settle_bets
from baccarat.shoe import ShoeConfig
from baccarat.sim.bankroll import Bankroll, TableLimits
from baccarat.sim.kernel import FLAG_DEMO, deal_features
from baccarat.sim.runner import SimulationJob, simulate
from baccarat.sim.strategies import MAIN_BET_SYSTEMS, Progression, Selection, Staking, Strategy
from baccarat.variants import get_variant


@pytest.mark.parametrize(
    "text",
    [
        "flat:banker",
        "martingale:player",
        "paroli:chop",
        "1326:streak3",
        "flat:pattern=BPPB",
        "count:dragon7",
        "fibonacci:tie",
    ],
)
def test_strategy_names_read_back(text: str) -> None:
    assert Strategy.parse(text).name == text


@pytest.mark.parametrize(
    "text", ["", "martingale:nothing", "flat:pattern=BXP", "count:dragon7@x", "paroli:streak0", "martingale:count"]
)
def test_bad_strategies_are_refused(text: str) -> None:
    with pytest.raises(InputError):
        Strategy.parse(text)


def test_progressions_move_as_the_systems_say() -> None:
    fib = Progression.of(Staking.FIBONACCI)
    assert fib.levels[:7] == (1, 1, 2, 3, 5, 8, 13) and fib.on_win[5] == 3 and fib.on_loss[5] == 6
    dalembert = Progression.of(Staking.DALEMBERT)
    assert dalembert.levels[:3] == (1, 2, 3) and dalembert.on_win[0] == 0 and dalembert.on_loss[2] == 3
    paroli = Progression.of(Staking.PAROLI)
    assert paroli.levels == (1, 2, 4) and paroli.on_win == (1, 2, 0) and paroli.on_loss == (0, 0, 0)


def replay_martingale(seed: int, shoes: int, *, start: int, unit: int, maximum: int) -> tuple[int, int]:
    """The Martingale on Banker played coup by coup in Python, settled by the tables' own code."""
    variant = get_variant("macau")
    step = variant.limit(BetKind.BANKER).step
    dealt = deal_features(ShoeConfig(), seed=seed, shoes=shoes)
    bankroll, level, hits = start, 0, 0
    for key, flag in zip(dealt.keys.tolist(), dealt.flags.tolist(), strict=True):
        if flag & FLAG_DEMO or bankroll < unit:
            continue
        stake = unit * 2**level
        if stake > maximum:
            hits += 1
            level, stake = 0, unit
        stake = min(stake, bankroll)
        stake -= stake % step
        settlement = settle_bets(key, [Bet(BetKind.BANKER, stake)], variant.paytable)[0]
        bankroll += settlement.net
        if settlement.result.value == "win":
            level = 0
        elif settlement.result.value == "lose":
            level += 1
    return bankroll, hits


def test_compiled_play_settles_like_the_tables() -> None:
    start, unit, maximum = 10_000_000, 10_000, 160_000
    job = SimulationJob(
        seed=77,
        shoes=3,
        session_shoes=3,
        strategy=Strategy(staking=Staking.MARTINGALE),
        bankroll=Bankroll(start=start, unit=unit),
        limits=TableLimits(minimum=unit, maximum=maximum),
    )
    result = simulate(job, workers=1).strategy
    assert result is not None
    bankroll, hits = replay_martingale(77, 3, start=start, unit=unit, maximum=maximum)
    assert result["final_bankroll"]["mean"] * 100 == bankroll
    assert result["table_limit_hits"] == hits > 0  # the Martingale hits the table maximum


def test_every_system_on_the_main_bets_loses_as_the_exact_odds_say() -> None:
    for strategy in MAIN_BET_SYSTEMS:
        bankroll = Bankroll(start=10**11, unit=10_000)  # deep pockets: nobody is ruined, every coup is bet
        job = SimulationJob(seed=2, shoes=20_000, session_shoes=1000, strategy=strategy, bankroll=bankroll)
        result = simulate(job).strategy
        assert result is not None
        ev = result["expected_value"]
        low, high = ev["ci95"]
        assert ev["value"] < 0 and ev["exact"] < 0, strategy.name
        assert low <= ev["exact"] <= high, strategy.name  # the reported 95% interval holds the exact value
        assert result["risk_of_ruin"]["sessions_ruined"] == 0


def test_stop_loss_stop_win_and_ruin_end_sessions() -> None:
    job = SimulationJob(
        seed=5,
        shoes=400,
        session_shoes=4,
        strategy=Strategy(staking=Staking.MARTINGALE, bet=BetKind.PLAYER),
        bankroll=Bankroll(start=200_000, unit=10_000, stop_win=50_000),
    )
    result = simulate(job, workers=2).strategy
    assert result is not None
    assert result["stop_win_sessions"] > 0 and result["risk_of_ruin"]["sessions_ruined"] > 0
    assert result["final_bankroll"]["max"] < 2_000 + 500 + 1  # stop-win fires at +500 (the last bet overshoots little)
    assert result["final_bankroll"]["min"] >= 0


def test_counting_side_bets_bets_only_when_the_count_says_so() -> None:
    dragon = simulate(
        SimulationJob(seed=8, variant="ez", shoes=3000, strategy=Strategy.parse("count:dragon7")), workers=2
    )
    strategy = dragon.strategy
    assert strategy is not None
    assert 0 < strategy["bets"] < dragon.hands / 5
    assert set(strategy["per_shoe"]) >= {"net_units", "bets", "edge_per_bet"}
    # A pair's effects of removal are all zero in a full shoe: a linear count never finds it positive.
    pair = simulate(
        SimulationJob(seed=8, shoes=300, strategy=Strategy(selection=Selection.COUNT, bet=BetKind.PLAYER_PAIR))
    )
    assert pair.strategy is not None and pair.strategy["bets"] == 0


def test_a_bet_the_variant_does_not_offer_is_refused() -> None:
    with pytest.raises(InputError, match="dragon7"):
        simulate(SimulationJob(seed=1, shoes=1, strategy=Strategy.parse("count:dragon7")))
