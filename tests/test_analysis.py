"""The exact analyser: the compiled enumeration against the engine and the published figures (REFERENCE.md)."""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccarat.analysis import par_sheet
from baccarat.analysis.exact import drawing_tables, falling_factorial, feature_ways, resolve_composition
from baccarat.bets import Bet, BetKind
from baccarat.cards import ALL_CARDS, Card, parse_cards
from baccarat.composition import Composition, parse_removal
from baccarat.coup import CoupDealer, Winner, banker_draws, deal_coup, player_draws
from baccarat.errors import InputError
from baccarat.features import FEATURE_KEYS, KEY_PLAYER_PAIR, CoupFeatures
from baccarat.settlement import settle_bets
from baccarat.variants import VARIANTS, Variant

EIGHT_DECK_TOTAL = 416 * 415 * 414 * 413 * 412 * 411
PUBLISHED_WAYS = {
    Winner.BANKER: 2_292_252_566_437_888,
    Winner.PLAYER: 2_230_518_282_592_256,
    Winner.TIE: 475_627_426_473_216,
}


def engine_ways_by_permutation(cards: list[Card]) -> Counter[int]:
    """Deal every ordered arrangement of six of the shoe's physical cards with the engine (R11–R17)."""
    seen: dict[tuple[Card, ...], int] = {}
    ways: Counter[int] = Counter()
    for order in itertools.permutations(cards, 6):
        key = seen.get(order)
        if key is None:
            key = seen[order] = CoupFeatures.of(deal_coup(order)).encode()
        ways[key] += 1
    return ways


def engine_ways_by_prefix(composition: Composition) -> Counter[int]:
    """The same count, grouping orders by the cards the coup actually uses (the rest are unused cards)."""
    left = {card: n for card, n in zip(ALL_CARDS, composition.counts, strict=True) if n}
    total = composition.total
    ways: Counter[int] = Counter()

    def extend(dealer: CoupDealer, weight: int) -> None:
        if dealer.due is None:
            used = len(dealer.cards)
            ways[CoupFeatures.of(dealer.result()).encode()] += weight * falling_factorial(total - used, 6 - used)
            return
        for card, n in left.items():
            if n:
                left[card] = n - 1
                child = CoupDealer(cards=dict(dealer.cards), reasons=list(dealer.reasons))
                child.enter(card)
                extend(child, weight * n)
                left[card] = n

    extend(CoupDealer(), 1)
    return ways


def as_counter(ways: np.ndarray) -> Counter[int]:
    return Counter({int(key): int(ways[key]) for key in np.flatnonzero(ways)})


# --- published figures (REFERENCE.md) ---------------------------------------------------------


def test_r17_eight_deck_outcome_ways_match_the_published_table() -> None:
    dist = feature_ways(8)
    assert dist.total_ways == EIGHT_DECK_TOTAL == 4_998_398_275_503_360
    assert int(dist.ways.sum()) == EIGHT_DECK_TOTAL
    assert dist.outcome_ways() == PUBLISHED_WAYS


def test_r17_published_probabilities_to_six_places() -> None:
    ways = feature_ways(8).outcome_ways()
    published = {Winner.BANKER: 0.458597, Winner.PLAYER: 0.446247, Winner.TIE: 0.095156}
    for winner, probability in published.items():
        assert round(ways[winner] / EIGHT_DECK_TOTAL, 6) == probability


def test_r1_pair_probability_is_the_published_formula() -> None:
    """13·n·(n−1) / (N·(N−1)) = 31/415 for 8 decks, for either hand; suits do not matter (R1)."""
    dist = feature_ways(8)
    player_pair = dist.probability_where(_bit_mask(0))
    banker_pair = dist.probability_where(_bit_mask(1))
    assert player_pair == banker_pair == Fraction(13 * 32 * 31, 416 * 415) == Fraction(31, 415)


@pytest.mark.parametrize("decks", [1, 2, 6, 8, 12])
def test_r31_perfect_pair_probability_is_the_suited_pair_formula(decks: int) -> None:
    """A perfect pair: the first two cards are the same card (rank and suit): 52·n·(n−1) / (N·(N−1))."""
    dist = feature_ways(decks)
    n, total = decks, 52 * decks
    expected = Fraction(52 * n * (n - 1), total * (total - 1))
    assert dist.probability_where(_bit_mask(2)) == expected
    assert dist.probability_where(_bit_mask(3)) == expected
    # both hands suited pairs of the same card need four copies of it
    both = dist.probability_where(_bit_mask(2) & _bit_mask(3))
    assert (both == 0) == (decks < 2)


def test_twelve_decks_fit_exact_int64_counts() -> None:
    dist = feature_ways(12)
    assert dist.total_ways == falling_factorial(624, 6)
    assert sum(int(w) for w in dist.ways) == dist.total_ways
    assert all(ways > 0 for ways in dist.outcome_ways().values())


# --- agreement with the engine ----------------------------------------------------------------


def test_kernel_agrees_with_the_engine_on_every_arrangement_of_a_small_shoe() -> None:
    """Nine physical cards from two decks (duplicates give perfect pairs): all 60,480 ordered six-card deals."""
    cards = parse_cards("AS AS 5H 5H KD QD 9C 3S TH")
    kernel = feature_ways(Composition.from_cards(cards))
    assert as_counter(kernel.ways) == engine_ways_by_permutation(cards)
    assert kernel.total_ways == 9 * 8 * 7 * 6 * 5 * 4


def test_kernel_agrees_with_the_engine_when_both_hands_pair_on_one_rank() -> None:
    """Four copies of a rank in two suits: every split of perfect and plain pairs on both hands."""
    composition = Composition.from_cards(parse_cards("7S 7S 7S 7H 7H 2D 6C 8S JH"))
    kernel = as_counter(feature_ways(composition).ways)
    assert kernel == engine_ways_by_prefix(composition)
    both_perfect = [key for key in kernel if CoupFeatures.decode(key).player_perfect_pair]
    assert any(CoupFeatures.decode(key).banker_perfect_pair for key in both_perfect)


# aces, fives, nines, tens and faces in two suits each: pairs, perfect pairs, naturals and every hand size
small_shoes = st.lists(st.sampled_from(parse_cards("AS AH 5S 5D 9C 9H TH TD KD QS 3H 7C")), min_size=6, max_size=9)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_shoes)
def test_kernel_agrees_with_the_engine_on_random_small_shoes(cards: list[Card]) -> None:
    composition = Composition.from_cards(cards)
    assert as_counter(feature_ways(composition).ways) == engine_ways_by_prefix(composition)


def test_drawing_tables_are_tabulated_from_the_engine_rules() -> None:
    """R12–R15: the kernel's arrays say exactly what coup.player_draws / banker_draws say."""
    player, banker = drawing_tables()
    for p in range(10):
        for b in range(10):
            assert bool(player[p, b]) == player_draws(p, b)
            assert bool(banker[p, b, 10]) == banker_draws(b, None, player_total=p)
            for third in range(10):
                assert bool(banker[p, b, third]) == banker_draws(b, third, player_total=p)
    assert not player.flags.writeable


# --- input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [0, 13, -1])
def test_r3_decks_outside_one_to_twelve_are_refused(decks: int) -> None:
    with pytest.raises(InputError, match="outside 1–12"):
        feature_ways(decks)


def test_a_shoe_too_small_for_a_coup_is_refused() -> None:
    with pytest.raises(InputError, match="too small to deal a coup"):
        feature_ways(Composition.from_cards(parse_cards("AS 2S 3S 4S 5S")))


def test_a_shoe_too_large_for_exact_counts_is_refused() -> None:
    with pytest.raises(InputError, match="too large"):
        feature_ways(Composition((30,) * 52))


def test_removing_a_card_the_shoe_does_not_hold_is_refused() -> None:
    with pytest.raises(InputError, match="cannot remove"):
        resolve_composition(1, remove="AS AS")


def test_removal_changes_the_counts_and_the_total() -> None:
    dist = feature_ways(8, remove="5S 5H K")
    assert dist.composition.total == 413
    assert dist.total_ways == falling_factorial(413, 6) == int(dist.ways.sum())


def _bit_mask(bit: int) -> np.ndarray:
    return (np.arange(FEATURE_KEYS) // KEY_PLAYER_PAIR >> bit & 1).astype(bool)


def test_feature_distribution_items_decode_the_keys() -> None:
    dist = feature_ways(Composition.from_cards(parse_cards("AS AS 5H 5H KD QD 9C 3S TH")))
    items = dist.items()
    assert sum(ways for _, ways in items) == dist.total_ways
    assert all(dist[features] == ways for features, ways in items)
    assert dist.decks is None and feature_ways(2).decks == 2


# --- pricing through the settlement code --------------------------------------------------------

EIGHT = par_sheet(8)


def test_r27_published_expected_values_of_the_main_bets() -> None:
    """REFERENCE.md: Banker at 0.95 −0.010579, Player −0.012351, Tie at 8 to 1 −0.143596."""
    bets = EIGHT.bets
    assert round(float(bets[BetKind.BANKER].expected_value), 6) == -0.010579
    assert round(float(bets[BetKind.PLAYER].expected_value), 6) == -0.012351
    assert round(float(bets[BetKind.TIE].expected_value), 6) == -0.143596
    banker, player, tie = (PUBLISHED_WAYS[w] for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE))
    assert bets[BetKind.BANKER].expected_value == Fraction(banker * 19 - player * 20, 20 * EIGHT_DECK_TOTAL)
    assert (
        bets[BetKind.PLAYER].probability_push
        == bets[BetKind.BANKER].probability_push
        == Fraction(tie, EIGHT_DECK_TOTAL)
    )


def test_r1_pair_bet_at_11_to_1_has_the_published_expected_value() -> None:
    for kind in (BetKind.PLAYER_PAIR, BetKind.BANKER_PAIR):
        assert EIGHT.bets[kind].probability_win == Fraction(31, 415)
        assert EIGHT.bets[kind].expected_value == Fraction(-43, 415)


def test_r17_outcomes_and_json_shape_follow_the_contract() -> None:
    data = EIGHT.to_dict()
    assert data["decks"] == 8 and data["total_ways"] == EIGHT_DECK_TOTAL
    assert {k: v["ways"] for k, v in data["outcomes"].items()} == {w.value: n for w, n in PUBLISHED_WAYS.items()}
    for figures in data["bets"].values():
        assert {"pays", "probability_win", "expected_value", "house_edge", "std_dev"} <= set(figures)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_bet_of_every_variant_has_results_summing_to_one(variant: Variant) -> None:
    sheet = par_sheet(8, variant=variant)
    assert tuple(sheet.bets) == variant.bets
    for bet in sheet.bets.values():
        assert sum(r.probability for r in bet.results) == 1
        assert bet.probability_win + bet.probability_push + bet.probability_lose == 1
        assert bet.house_edge == -bet.expected_value
        assert bet.std_dev > 0
        if bet.probability_push == 0:
            assert bet.house_edge_resolved == bet.house_edge


def test_two_outcome_bet_variance_is_the_binomial_formula() -> None:
    """Tie at 8 to 1: X is 8 or −1, so Var X = 9² · p · (1 − p)."""
    tie = EIGHT.bets[BetKind.TIE]
    p = tie.probability_win
    assert tie.variance == 81 * p * (1 - p)
    assert tie.std_dev == pytest.approx(math.sqrt(81 * float(p) * (1 - float(p))), rel=1e-15)


def test_r24_house_edge_per_resolved_bet_excludes_ties() -> None:
    banker = EIGHT.bets[BetKind.BANKER]
    assert banker.house_edge_resolved == banker.house_edge / (1 - banker.probability_push)
    assert round(float(banker.house_edge_resolved), 5) == 0.01169  # the published 1.17% per resolved bet


# Published house edges (Wizard of Odds, 8 decks), checked with a tolerance: the code computes them.
PUBLISHED_EDGES = [
    ("standard", BetKind.PLAYER_DRAGON_BONUS, 0.0265),
    ("standard", BetKind.BANKER_DRAGON_BONUS, 0.0937),
    ("ez", BetKind.DRAGON7, 0.0761),
    ("ez", BetKind.PANDA8, 0.1019),
    ("ez", BetKind.BANKER, 0.0102),
    ("no_commission", BetKind.BANKER, 0.0146),
]


@pytest.mark.parametrize(("variant", "kind", "edge"), PUBLISHED_EDGES)
def test_r26_r28_r31_side_bets_match_published_house_edges(variant: str, kind: BetKind, edge: float) -> None:
    assert float(par_sheet(8, variant=variant).bets[kind].house_edge) == pytest.approx(edge, abs=5e-5)


def test_r25_small_is_the_four_card_share_and_big_the_rest() -> None:
    sheet = par_sheet(8, variant="standard")
    assert sheet.bets[BetKind.SMALL].win_ways == sheet.cards[4]
    assert sheet.bets[BetKind.BIG].win_ways == sheet.cards[5] + sheet.cards[6]
    assert sum(sheet.cards.values()) == sum(sheet.naturals.values()) == sheet.total_ways
    assert sheet.naturals["player"] == sheet.naturals["banker"]  # the first four cards are exchangeable


def test_an_operator_paytable_prices_all_its_bets(tmp_path: Path) -> None:
    path = tmp_path / "tie9.toml"
    path.write_text('name = "tie9"\n[bets.tie]\npays = 9\n[bets.player]\npays = 1\n', encoding="utf-8")
    sheet = par_sheet(8, paytable=path)
    assert tuple(sheet.bets) == (BetKind.TIE, BetKind.PLAYER)
    p_tie = Fraction(PUBLISHED_WAYS[Winner.TIE], EIGHT_DECK_TOTAL)
    assert sheet.bets[BetKind.TIE].expected_value == 10 * p_tie - 1


def test_an_unreadable_paytable_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("name = \n", encoding="utf-8")
    with pytest.raises(InputError, match="not valid TOML"):
        par_sheet(8, paytable=path)


@functools.cache
def small_shoe_deals() -> tuple[Composition, Counter[int]]:
    """Nine cards with pairs, perfect pairs, naturals, sixes and sevens: every deal counted by the engine."""
    composition = Composition.from_cards(parse_cards("AS AS 5H 5H 7H KD 9C 8C 6D"))
    return composition, engine_ways_by_prefix(composition)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_prices_agree_with_the_engine_and_scalar_settlement_on_a_small_shoe(variant: Variant) -> None:
    """Every deal of a small shoe by the engine, every bet settled by settle_bets: the same exact EVs."""
    composition, ways = small_shoe_deals()
    total = sum(ways.values())
    stake = 100  # every built-in payout is a whole number of hundredths: no rounding (R32)
    bets = [Bet(kind, stake) for kind in variant.bets]
    expected = dict.fromkeys(variant.bets, Fraction(0))
    for key, n in ways.items():
        for settlement in settle_bets(key, bets, variant.paytable):
            expected[settlement.bet.kind] += Fraction(settlement.net * n, stake * total)
    sheet = par_sheet(composition, variant=variant)
    assert {kind: bet.expected_value for kind, bet in sheet.bets.items()} == expected


def test_par_sheet_after_removing_cards() -> None:
    sheet = par_sheet(8, remove="5S 5H K")
    assert sheet.total_ways == falling_factorial(413, 6)
    assert sheet.decks is None and sheet.cards_in_shoe == 413
    again = par_sheet(Composition.from_decks(8).remove(parse_removal("5S 5H K")))
    assert again.bets[BetKind.BANKER].expected_value == sheet.bets[BetKind.BANKER].expected_value
