"""The compiled kernel agrees with the engine coup by coup, and its outcomes with the exact odds."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from baccarat.analysis import par_sheet
from baccarat.composition import Composition
from baccarat.coup import Winner, banker_draws, player_draws
from baccarat.dealing import ShoeDealer
from baccarat.errors import InputError, ProcedureError
from baccarat.features import CoupFeatures
from baccarat.rng import GOLDEN_GAMMA, SHOE_STRIDE, SeededSource, Xoshiro256StarStar, seeded_state
from baccarat.settlement import FeatureArrays
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, ShoeConfig
from baccarat.sim.kernel import (
    _LANES,
    FASTMOD_MAX,
    FLAG_CUT_CARD_OUT,
    FLAG_DEMO,
    FLAG_LAST,
    _fast_mod,
    _lanes_shuffler,
    _mod_tables,
    _shuffle,
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
    # The layout laid past the cut card brings it out (R19, R6), with either last-coup rule.
    ShoeConfig(decks=8, mode=DealingMode.PRE_DEALT),
    ShoeConfig(decks=6, mode=DealingMode.PRE_DEALT, after_cut_card=AfterCutCard.FINISH),
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


# --- the division-free remainder of the shuffle ---------------------------------------------------

MASK64 = 2**64 - 1


@njit(cache=False)
def _remainder_mismatches(
    words: npt.NDArray[np.uint64],
    bounds: npt.NDArray[np.int64],
    fold: npt.NDArray[np.uint64],
    magic: npt.NDArray[np.uint64],
) -> int:
    """Compare ``_fast_mod`` with ``%`` for every bound and word, and for each bound's edge words."""
    bad = 0
    top = np.uint64(MASK64)
    for m in bounds:
        um = np.uint64(m)
        last = top - top % um  # the largest multiple of m
        edges = (last, last - np.uint64(1), last - um, last - um + np.uint64(1), um, um - np.uint64(1))
        for w in edges:
            bad += _fast_mod(w, um, fold[m], magic[m]) != w % um
        for w in words:
            bad += _fast_mod(w, um, fold[m], magic[m]) != w % um
    return bad


def _edge_words() -> npt.NDArray[np.uint64]:
    edges = {0, 1, 2, MASK64, MASK64 - 1, 2**63, 2**63 - 1, 2**63 + 1}
    for shift in (16, 31, 32, 33, 47, 48):
        edges |= {2**shift - 1, 2**shift, 2**shift + 1, MASK64 - 2**shift, MASK64 ^ (2**shift - 1)}
    edges |= {(2**32 - 1) << 32, (2**32 - 1) << 32 | 1, 0xFFFFFFFF}
    return np.array(sorted(edges), dtype=np.uint64)


def test_mod_tables_are_the_rejection_thresholds_and_the_remainder_constants() -> None:
    thresh, fold, magic = _mod_tables(700)
    for m in range(1, 702):
        assert int(thresh[m]) == ((1 << 64) - m) % m
        assert int(fold[m]) == (1 << 32) % m
        assert int(magic[m]) == -(-(1 << 64) // m) % (1 << 64)  # ceil(2**64 / m) mod 2**64


def test_fast_remainder_equals_the_modulo_for_every_shoe_bound() -> None:
    rng = np.random.default_rng(2024)
    words = np.concatenate([_edge_words(), rng.integers(0, MASK64, 20_000, dtype=np.uint64, endpoint=True)])
    _thresh, fold, magic = _mod_tables(624)
    assert _remainder_mismatches(words, np.arange(1, 625, dtype=np.int64), fold, magic) == 0


def test_fast_remainder_equals_the_modulo_up_to_its_largest_bound() -> None:
    rng = np.random.default_rng(7)
    words = np.concatenate([_edge_words(), rng.integers(0, MASK64, 2_000, dtype=np.uint64, endpoint=True)])
    _thresh, fold, magic = _mod_tables(FASTMOD_MAX)
    bounds = np.unique(
        np.concatenate(
            [
                np.arange(FASTMOD_MAX - 300, FASTMOD_MAX + 1),
                2 ** np.arange(16),
                2 ** np.arange(1, 16) - 1,
                2 ** np.arange(1, 15) + 1,
                rng.integers(1, FASTMOD_MAX, 500, endpoint=True),
            ]
        )
    ).astype(np.int64)
    assert _remainder_mismatches(words, bounds, fold, magic) == 0


def test_a_shoe_larger_than_the_fast_remainder_serves_is_shuffled_by_the_modulo() -> None:
    config = ShoeConfig(composition=Composition.from_rank_counts([2600] * 13), burn=BurnMethod.FIXED)
    assert config.size > FASTMOD_MAX
    keys, flags = engine_coups(config, 3, 1)
    dealt = deal_features(config, seed=3, shoes=1)
    assert dealt.keys.tolist() == keys and dealt.flags.tolist() == flags
    hist, hands = count_features(config, seed=3, shoes=1)
    assert hands == len(keys) and np.array_equal(hist, np.bincount(keys, minlength=hist.size))


# --- the counting kernel agrees with the recording kernel -----------------------------------------


@pytest.mark.parametrize(
    "config",
    [
        *CONFIGS,
        ShoeConfig(decks=8, mode=DealingMode.CONTINUOUS),
        ShoeConfig(
            decks=1, burn_each_coup=True, demo_coups=2, after_cut_card=AfterCutCard.FINISH, cut_card_from_end=40
        ),
        ShoeConfig(decks=1, burn=BurnMethod.FIXED, burn_count=8, burn_each_coup=True, cut_card_from_end=0),
    ],
    ids=lambda c: f"{c.decks}d-{c.burn.value}-{c.mode.value}-{c.after_cut_card.value}",
)
def test_counting_two_shoes_at_a_time_gives_the_recorded_histogram(config: ShoeConfig) -> None:
    for seed, shoes in ((0, 1), (3, 7), (2**64 - 1, 40)):
        dealt = deal_features(config, seed=seed, shoes=shoes)
        scored = dealt.keys[(dealt.flags & FLAG_DEMO) == 0]
        hist, hands = count_features(config, seed=seed, shoes=shoes)
        assert hands == scored.size
        assert np.array_equal(hist, np.bincount(scored, minlength=hist.size))
        for limit in sorted({1, 5, scored.size // 2, scored.size} & set(range(1, scored.size + 1))):
            limited, counted = count_features(config, seed=seed, shoes=shoes, hand_limit=limit)
            assert counted == limit
            assert np.array_equal(limited, np.bincount(scored[:limit], minlength=hist.size))


# --- the shuffle of several shoes at once -----------------------------------------------------------


def _unxorshift(y: int, k: int) -> int:
    """The ``x`` with ``x ^ (x >> k) == y``."""
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def seed_whose_stream_starts_with(word: int, shoe: int) -> int:
    """A seed whose stream for shoe number ``shoe`` draws ``word`` first: xoshiro256**'s first output
    depends on ``s1`` only, and ``s1`` is SplitMix64's second output, both invertible."""
    x = word * pow(9, -1, 1 << 64) & MASK64  # undo * 9
    s1 = ((x >> 7) | (x << 57)) & MASK64  # undo the rotation by 7
    s1 = s1 * pow(5, -1, 1 << 64) & MASK64
    z = _unxorshift(s1, 31) * pow(0x94D049BB133111EB, -1, 1 << 64) & MASK64
    z = _unxorshift(z, 27) * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & MASK64
    z = _unxorshift(z, 30)
    seed = (z - 2 * GOLDEN_GAMMA - shoe * SHOE_STRIDE) & MASK64
    assert Xoshiro256StarStar(seeded_state(seed, shoe)).next64() == word
    return seed


_SHUFFLERS = {lanes: _lanes_shuffler(lanes) for lanes in sorted({8, 16, _LANES})}


@pytest.mark.parametrize("lanes", sorted(_SHUFFLERS))
def test_the_lanes_shuffle_is_the_one_shoe_shuffle_and_flags_small_words(lanes: int) -> None:
    shuffle_lanes = _SHUFFLERS[lanes]

    @njit(cache=False)
    def run(rows: npt.NDArray[np.int64], n: int, consts: npt.NDArray[np.uint64], state: npt.NDArray[np.uint64]) -> int:
        suspect: int = shuffle_lanes(rows, n, consts, state)
        return suspect

    n = 416
    thresh, fold, magic = _mod_tables(n)
    consts = np.stack([fold, magic], axis=1)
    rows = np.tile(np.arange(2 * n + 40, dtype=np.int64), (lanes, 1))
    suspect_lane = lanes - 3
    small = 1000  # accepted (threshold 224 for 416 cards) but below FASTMOD_MAX: the lane is suspect
    assert int(thresh[n]) < small < FASTMOD_MAX
    seeds = [2024 + lane for lane in range(lanes)]
    seeds[suspect_lane] = seed_whose_stream_starts_with(small, 0)
    state = np.array([seeded_state(seed, 0) for seed in seeds], dtype=np.uint64).T.copy()
    assert run(rows, n, consts, state) == 1 << suspect_lane
    for lane, seed in enumerate(seeds):
        cards = np.arange(n, dtype=np.int64)
        expected_state = _shuffle(cards, n, thresh, fold, magic, *np.array(seeded_state(seed, 0), dtype=np.uint64))
        assert rows[lane, :n].tolist() == cards.tolist()
        assert state[:, lane].tolist() == [int(w) for w in expected_state]
        assert rows[lane, n:].tolist() == list(range(n, 2 * n + 40))


@pytest.mark.parametrize("word", [5, 223, 224, 1000, FASTMOD_MAX - 1, FASTMOD_MAX])
def test_a_shoe_whose_stream_draws_a_small_word_is_counted_as_the_engine_deals_it(word: int) -> None:
    # The first word of shoe 20 is drawn for a bound of 416 (threshold 224): below it the engine
    # rejects the word and draws another; below FASTMOD_MAX the lanes shuffle redoes the shoe.
    config = ShoeConfig(decks=8, demo_coups=1)
    seed = seed_whose_stream_starts_with(word, 20)
    first = 20 - 3  # shoe 20 in the fourth lane
    keys = []
    dealer = ShoeDealer(config, source=SeededSource(seed), first_shoe_number=first)
    for _ in range(_LANES):
        for coup in dealer.deal_shoe():
            if not coup.demo:
                keys.append(CoupFeatures.of(coup.result).encode())
    hist, hands = count_features(config, seed=seed, first_shoe=first, shoes=_LANES)
    assert hands == len(keys)
    assert np.array_equal(hist, np.bincount(keys, minlength=hist.size))
