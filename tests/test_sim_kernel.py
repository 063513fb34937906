"""The compiled kernel agrees with the engine coup by coup, and its outcomes with the exact odds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.analysis import par_sheet
from baccarat.composition import Composition
from baccarat.coup import Winner, banker_draws, player_draws
from baccarat.dealing import ShoeDealer
from baccarat.errors import InputError, ProcedureError
from baccarat.features import CoupFeatures
from baccarat.rng import SeededSource
from baccarat.settlement import FeatureArrays
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, ShoeConfig
from baccarat.sim.kernel import (
    FLAG_CUT_CARD_OUT,
    FLAG_DEMO,
    FLAG_LAST,
    count_features,
    deal_features,
    kernel_tables,
)

CONFIGS = [
    ShoeConfig(decks=8),
    ShoeConfig(decks=6, burn=BurnMethod.DECKS, after_cut_card=AfterCutCard.FINISH),
    ShoeConfig(decks=1, burn=BurnMethod.FIXED, burn_count=8, demo_coups=3, burn_each_coup=True, cut_card_from_end=20),
    ShoeConfig(decks=2, burn=BurnMethod.FIXED, burn_count=1, cut_card_from_end=0),
    ShoeConfig(decks=3, mode=DealingMode.PRE_DEALT, cut_card_from_end=100, demo_coups=1),
    ShoeConfig(decks=12, burn_each_coup=True, cut_card_from_end=1),
    ShoeConfig(composition=Composition.from_rank_counts([3, 0, 5, 1, 0, 7, 2, 9, 4, 8, 2, 0, 6])),
]


def engine_coups(config: ShoeConfig, seed: int, shoes: int) -> tuple[list[int], list[int]]:
    dealer = ShoeDealer(config, source=SeededSource(seed))
    keys, flags = [], []
    for _ in range(shoes):
        for coup in dealer.deal_shoe():
            keys.append(CoupFeatures.of(coup.result).encode())
            flags.append(
                (FLAG_DEMO if coup.demo else 0)
                | (FLAG_LAST if coup.last else 0)
                | (FLAG_CUT_CARD_OUT if coup.cut_card_out else 0)
            )
    return keys, flags


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.decks}d-{c.burn.value}-{c.mode.value}")
def test_kernel_deals_the_engines_coups_bit_for_bit(config: ShoeConfig) -> None:
    for seed in (0, 2024, 2**64 - 1):
        keys, flags = engine_coups(config, seed, 6)
        dealt = deal_features(config, seed=seed, shoes=6)
        assert dealt.keys.tolist() == keys
        assert dealt.flags.tolist() == flags


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), first=st.integers(1, 10**9))
def test_shoe_k_uses_stream_k(seed: int, first: int) -> None:
    config = ShoeConfig(decks=8, demo_coups=1)
    dealer = ShoeDealer(config, source=SeededSource(seed), first_shoe_number=first)
    expected = [CoupFeatures.of(c.result).encode() for c in dealer.deal_shoe()]
    assert deal_features(config, seed=seed, first_shoe=first, shoes=1).keys.tolist() == expected


def test_continuous_shuffler_deals_one_coup_per_shoe_number() -> None:
    config = ShoeConfig(decks=8, mode=DealingMode.CONTINUOUS, burn_each_coup=True)
    dealer = ShoeDealer(config, source=SeededSource(9))
    expected = [CoupFeatures.of(dealer.next_coup().result).encode() for _ in range(300)]
    dealt = deal_features(config, seed=9, shoes=300)
    assert dealt.keys.tolist() == expected
    assert dealt.coups_per_shoe.tolist() == [1] * 300


def test_a_shoe_too_short_for_a_coup_deals_none_as_the_engine_refuses() -> None:
    config = ShoeConfig(
        composition=Composition.from_rank_counts([1] * 12 + [0]),
        burn=BurnMethod.FIXED,
        burn_count=7,
        cut_card_from_end=2,
    )
    with pytest.raises(ProcedureError):
        ShoeDealer(config, source=SeededSource(1)).deal_shoe()
    assert deal_features(config, seed=1, shoes=3).coups_per_shoe.tolist() == [0, 0, 0]


def test_drawing_tables_are_the_engines_rules() -> None:
    tables = kernel_tables()
    for p in range(10):
        for b in range(10):
            assert tables.player_draws(p, b) == player_draws(p, b)
            for third in (None, *range(10)):
                assert tables.banker_draws(p, b, third) == banker_draws(b, third, player_total=p)


def test_hand_limit_and_histogram() -> None:
    config = ShoeConfig(decks=8, demo_coups=2)
    hist, hands = count_features(config, seed=5, shoes=50, hand_limit=1234)
    assert hands == 1234 == int(hist.sum())
    dealt = deal_features(config, seed=5, shoes=50)
    scored = dealt.keys[(dealt.flags & FLAG_DEMO) == 0][:1234]
    assert np.array_equal(np.bincount(scored, minlength=hist.size), hist)


def test_bad_input_is_refused() -> None:
    with pytest.raises(InputError):
        deal_features(ShoeConfig(), seed=-1, shoes=1)
    with pytest.raises(InputError):
        count_features(ShoeConfig(), seed=1, shoes=-3)


def test_outcome_frequencies_within_four_standard_errors_of_the_exact_odds() -> None:
    config = ShoeConfig(decks=8)
    hist, hands = count_features(config, seed=20240601, shoes=40_000)
    assert hands > 3_000_000
    keys = np.flatnonzero(hist)
    f = FeatureArrays.of_keys(keys)
    observed = {
        Winner.BANKER: hist[keys][f.banker_total > f.player_total].sum(),
        Winner.PLAYER: hist[keys][f.player_total > f.banker_total].sum(),
        Winner.TIE: hist[keys][f.player_total == f.banker_total].sum(),
    }
    sheet = par_sheet(8)
    for winner, count in observed.items():
        p = float(sheet.outcomes[winner].probability)
        assert abs(count / hands - p) < 4 * math.sqrt(p * (1 - p) / hands), winner
