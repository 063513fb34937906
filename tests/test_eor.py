"""Effects of removal: exact changes in every bet's expected value when one card of a rank leaves the shoe."""

from __future__ import annotations

from fractions import Fraction

import pytest

from baccarat.analysis import effects_of_removal, par_sheet
from baccarat.analysis.eor import EffectsOfRemoval, countability
from baccarat.bets import BetKind
from baccarat.cards import Rank
from baccarat.composition import Composition
from baccarat.errors import InputError

MACAU = effects_of_removal(8, variant="macau")
STANDARD = effects_of_removal(8, variant="standard")
EZ = effects_of_removal(8, variant="ez")


def test_eor_is_the_exact_change_in_expected_value() -> None:
    before = par_sheet(8, variant="ez")
    for rank in (Rank.ACE, Rank.SEVEN, Rank.KING):
        after = par_sheet(Composition.from_decks(8).remove([rank]), variant="ez")
        for kind in (BetKind.BANKER, BetKind.DRAGON7, BetKind.PANDA8):
            expected = after.bets[kind].expected_value - before.bets[kind].expected_value
            assert EZ.bets[kind].effect(rank) == expected


@pytest.mark.parametrize("effects", [MACAU, STANDARD, EZ], ids=["macau", "standard", "ez"])
def test_removing_a_random_card_leaves_the_expected_value_unchanged_on_average(effects: EffectsOfRemoval) -> None:
    """A full shoe: the EoRs weighted by the cards of each rank sum to exactly zero (a fair draw is a martingale)."""
    counts = Composition.from_decks(8).rank_counts()
    for bet in effects.bets.values():
        assert sum(n * (e or 0) for n, e in zip(counts, bet.eor, strict=True)) == 0


def test_r1_pair_bets_do_not_move_when_one_card_leaves_a_full_shoe() -> None:
    for kind in (BetKind.BANKER_PAIR, BetKind.PLAYER_PAIR):
        assert all(e == 0 for e in MACAU.bets[kind].eor)
        assert not MACAU.bets[kind].countability.countable


def test_r15_small_cards_favour_banker_and_large_ones_player() -> None:
    """Published direction: removing a 4 helps Banker the most, removing a 6 hurts it the most."""
    banker = [float(e or 0) for e in MACAU.bets[BetKind.BANKER].eor]
    player = [float(e or 0) for e in MACAU.bets[BetKind.PLAYER].eor]
    assert max(banker) == banker[Rank.FOUR - 1] > 0 > banker[Rank.SIX - 1] == min(banker)
    assert player[Rank.FOUR - 1] < 0 < player[Rank.SIX - 1]


def test_r17_sixes_and_sevens_make_ties_and_eights_nines_break_them() -> None:
    tie = [e or 0 for e in MACAU.bets[BetKind.TIE].eor]
    assert tie[Rank.SIX - 1] < 0 and tie[Rank.SEVEN - 1] < 0
    assert tie[Rank.EIGHT - 1] > 0 and tie[Rank.NINE - 1] > 0


def test_countability_main_bets_no_dragon7_and_big_small_yes() -> None:
    """Banker and Player cannot be counted in practice; Dragon 7 and Big/Small are the known countable bets."""
    assert not MACAU.bets[BetKind.BANKER].countability.countable
    assert not MACAU.bets[BetKind.PLAYER].countability.countable
    dragon7 = EZ.bets[BetKind.DRAGON7].countability
    assert dragon7.countable and dragon7.betting_correlation > 0.8
    # 8s and 9s left in the shoe hurt Dragon 7 (a Banker three-card 7): removing them helps, tag +1
    assert dragon7.tags[Rank.EIGHT - 1] == dragon7.tags[Rank.NINE - 1] == 1
    assert STANDARD.bets[BetKind.BIG].countability.countable


def test_countability_of_a_flat_bet() -> None:
    flat = countability(Fraction(-1, 100), [Fraction(0)] * 13, [32] * 13, cut_cards=14)
    assert flat.eor_sd == 0 and flat.positive_share == 0 and not flat.countable
    assert flat.tags == (0,) * 13


def test_a_rank_the_shoe_no_longer_holds_has_no_effect_of_removal() -> None:
    effects = effects_of_removal(1, variant="macau", remove="AS AH AD AC")
    assert effects.bets[BetKind.BANKER].effect(Rank.ACE) is None
    assert effects.bets[BetKind.BANKER].effect(Rank.TWO) is not None
    assert effects.decks is None and effects.composition.total == 48


def test_eor_refuses_bad_input() -> None:
    with pytest.raises(InputError, match="outside 1–12"):
        effects_of_removal(0)
    with pytest.raises(InputError, match="cut card"):
        effects_of_removal(8, cut_cards=-1)
    with pytest.raises(InputError, match="too small"):
        effects_of_removal(Composition.from_cards(Composition.from_decks(1).cards()[:6]))


def test_eor_json_names_every_rank() -> None:
    data = EZ.to_dict()
    assert data["decks"] == 8
    assert list(data["bets"]["dragon7"]["eor"]) == [rank.symbol for rank in Rank]
    assert isinstance(data["bets"]["dragon7"]["countability"]["countable"], bool)
