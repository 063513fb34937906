"""R3–R9, R18, R19: the shoe, its procedures, the dealer-entry mode and the pre-dealt layout."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.cards import Card, Rank, parse_cards
from baccarat.composition import Composition, parse_removal
from baccarat.coup import CoupDealer, Position, deal_coup, deal_coups
from baccarat.dealing import DealtCoup, ShoeDealer
from baccarat.errors import InputError, ProcedureError
from baccarat.rng import SeededSource
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, Shoe, ShoeConfig, ShoeEventKind, burn_value

# --- R3 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 6, 8, 12])
def test_r3_a_shoe_holds_1_to_12_decks(decks: int) -> None:
    shoe = Shoe.prepare(ShoeConfig(decks=decks), source=SeededSource(decks))
    assert shoe.size == 52 * decks
    assert Counter(shoe.cards) == Counter(dict.fromkeys(set(shoe.cards), decks))
    assert len(set(shoe.cards)) == 52


@pytest.mark.parametrize("decks", [0, 13, -1])
def test_r3_decks_outside_1_to_12_are_refused(decks: int) -> None:
    with pytest.raises(InputError, match="outside 1–12"):
        ShoeConfig(decks=decks)


def test_r3_an_explicit_composition_is_accepted() -> None:
    comp = Composition.from_decks(8).remove(parse_removal("5S 5H K"))
    shoe = Shoe.prepare(ShoeConfig(composition=comp), source=SeededSource(3))
    assert shoe.size == 413
    assert Composition.from_cards(shoe.cards) == comp


def test_r3_remaining_composition_tracks_dealt_and_burned_cards() -> None:
    shoe = Shoe.prepare(ShoeConfig(decks=1), source=SeededSource(5))
    dealt = [shoe.draw() for _ in range(10)]
    remaining = shoe.remaining_composition()
    assert remaining == Composition.from_decks(1).remove([*shoe.burned, *dealt])
    assert remaining.total == 52 - len(shoe.burned) - 10


# --- R4 ---------------------------------------------------------------------------------------


def test_r4_shuffle_cut_and_cut_card_position() -> None:
    shoe = Shoe.prepare(ShoeConfig(decks=8, cut_card_from_end=16), source=SeededSource(11))
    kinds = [e.kind for e in shoe.events]
    assert kinds[:3] == [ShoeEventKind.SHUFFLED, ShoeEventKind.CUT, ShoeEventKind.BURNED]
    assert shoe.cut_index == 416 - 16


def test_r4_cut_card_outside_the_shoe_is_refused() -> None:
    with pytest.raises(InputError, match="outside the shoe"):
        ShoeConfig(decks=1, cut_card_from_end=52)


def test_r4_burn_method_a_burns_one_card_per_deck() -> None:
    shoe = Shoe.prepare(ShoeConfig(decks=6, burn=BurnMethod.DECKS), source=SeededSource(1))
    assert len(shoe.burned) == 6
    assert shoe.position == 6


@pytest.mark.parametrize("seed", range(20))
def test_r4_burn_method_b_turns_a_card_and_burns_its_value(seed: int) -> None:
    shoe = Shoe.prepare(ShoeConfig(decks=8, burn=BurnMethod.FIRST_CARD), source=SeededSource(seed))
    first = shoe.burned[0]
    assert len(shoe.burned) == 1 + burn_value(first)
    assert shoe.burned == shoe.cards[: len(shoe.burned)]


def test_r4_burn_value_counts_ten_and_faces_as_ten_and_ace_as_one() -> None:
    assert [burn_value(Card.parse(t)) for t in ("AS", "5H", "9D", "TC", "JS", "QH", "KD")] == [1, 5, 9, 10, 10, 10, 10]


@pytest.mark.parametrize("count", [1, 4, 8])
def test_r4_burn_method_c_burns_a_fixed_number(count: int) -> None:
    shoe = Shoe.prepare(ShoeConfig(burn=BurnMethod.FIXED, burn_count=count), source=SeededSource(2))
    assert len(shoe.burned) == count


@pytest.mark.parametrize("count", [0, 9])
def test_r4_fixed_burn_outside_1_to_8_is_refused(count: int) -> None:
    with pytest.raises(InputError, match="outside 1–8"):
        ShoeConfig(burn=BurnMethod.FIXED, burn_count=count)


# --- R5, R6, R7 -------------------------------------------------------------------------------


@pytest.mark.parametrize("demo", [0, 1, 3])
def test_r5_demonstration_coups_are_flagged(demo: int) -> None:
    coups = ShoeDealer(ShoeConfig(demo_coups=demo), source=SeededSource(4)).deal_shoe()
    assert [c.demo for c in coups[: demo + 1]] == [True] * demo + [False]
    assert sum(c.demo for c in coups) == demo


def test_r5_more_than_three_demonstration_coups_are_refused() -> None:
    with pytest.raises(InputError):
        ShoeConfig(demo_coups=4)


@pytest.mark.parametrize("seed", range(10))
def test_r6_finish_ends_the_shoe_with_the_coup_in_which_the_cut_card_came_out(seed: int) -> None:
    coups = ShoeDealer(ShoeConfig(after_cut_card=AfterCutCard.FINISH), source=SeededSource(seed)).deal_shoe()
    assert coups[-1].last and coups[-1].cut_card_out
    assert not any(c.cut_card_out for c in coups[:-1])


@pytest.mark.parametrize("seed", range(10))
def test_r6_one_more_deals_one_more_coup_after_the_cut_card(seed: int) -> None:
    dealer = ShoeDealer(ShoeConfig(after_cut_card=AfterCutCard.ONE_MORE), source=SeededSource(seed))
    coups = dealer.deal_shoe()
    first_out = next(i for i, c in enumerate(coups) if c.cut_card_out)
    assert first_out == len(coups) - 2
    assert coups[-1].last and dealer.shoe_over
    assert dealer.events[-1].kind is ShoeEventKind.SHOE_ENDED
    assert any(e.kind is ShoeEventKind.CUT_CARD_OUT for e in dealer.events)


def test_r6_the_house_may_change_the_shoe_after_any_coup() -> None:
    dealer = ShoeDealer(ShoeConfig(), source=SeededSource(9))
    first = dealer.next_coup()
    old_shoe = dealer.shoe
    dealer.new_shoe()
    assert old_shoe is not None and old_shoe.events[-1].kind is ShoeEventKind.SHOE_ENDED
    second = dealer.next_coup()
    assert (first.shoe_number, second.shoe_number) == (1, 2)
    assert second.number == 1


def test_r6_next_coup_after_the_last_starts_a_new_shoe() -> None:
    dealer = ShoeDealer(ShoeConfig(decks=1, cut_card_from_end=12), source=SeededSource(9))
    dealer.deal_shoe()
    assert dealer.next_coup().shoe_number == 2


def test_r7_burn_one_card_before_each_coup() -> None:
    dealer = ShoeDealer(ShoeConfig(burn_each_coup=True), source=SeededSource(6))
    coups = dealer.deal_shoe()
    assert all(len(c.burned) == 1 for c in coups)
    assert dealer.shoe is not None
    used = len(dealer.shoe.burned)
    assert used == len(coups) + len(dealer.events[2].cards)  # per-coup burns plus the start burn
    for coup in coups:
        assert dealer.shoe.cards[coup.start - 1] == coup.burned[0]


# --- R8 ---------------------------------------------------------------------------------------


def test_r8_continuous_shuffler_has_no_cut_no_burn_and_a_fresh_shoe_each_coup() -> None:
    dealer = ShoeDealer(ShoeConfig(mode=DealingMode.CONTINUOUS), source=SeededSource(8))
    for expected_number in range(1, 6):
        coup = dealer.next_coup()
        assert coup.start == 0 and not coup.burned and not coup.last
        assert dealer.shoe is not None and dealer.shoe.remaining == 416 - coup.result.cards_used
        kinds = {e.kind for e in dealer.events}
        assert ShoeEventKind.CUT not in kinds and ShoeEventKind.BURNED not in kinds
        assert coup.number == expected_number
    with pytest.raises(ProcedureError):
        dealer.deal_shoe()


# --- R9, R18 ----------------------------------------------------------------------------------


def test_r9_a_face_up_card_is_recorded_and_the_coup_continues() -> None:
    dealer = CoupDealer()
    for text in ("5S", "3H"):
        dealer.enter(Card.parse(text))
    dealer.enter(Card.parse("KD"), face_up=True)
    dealer.enter(Card.parse("2C"))
    dealer.enter(Card.parse("4S"))
    dealer.enter(Card.parse("8D"))
    result = dealer.result()
    assert result.face_up == (Position.PLAYER_2,)
    assert result.cards == deal_coup(parse_cards("5S 3H KD 2C 4S 8D")).cards


def test_r18_dealer_entry_says_which_card_is_due() -> None:
    dealer = CoupDealer()
    expected = [Position.PLAYER_1, Position.BANKER_1, Position.PLAYER_2, Position.BANKER_2, Position.PLAYER_3]
    for due, text in zip(expected, ["KS", "7H", "2D", "KC", "9S"], strict=True):
        assert dealer.due is due
        dealer.enter(Card.parse(text))
    assert dealer.due is None  # Banker 7 stands
    assert dealer.complete


def test_r18_a_card_that_is_not_due_is_refused_and_nothing_changes() -> None:
    dealer = CoupDealer()
    for text in ("KS", "7H", "7D", "KC"):
        dealer.enter(Card.parse(text))
    with pytest.raises(ProcedureError, match="Player's 3rd card is not due"):
        dealer.enter(Card.parse("5S"), position=Position.PLAYER_3)  # Player 7 stands
    assert dealer.complete and len(dealer.cards) == 4
    with pytest.raises(ProcedureError, match="no card is due"):
        dealer.enter(Card.parse("5S"))


def test_r18_void_coup_gives_no_result() -> None:
    dealer = CoupDealer()
    dealer.enter(Card.parse("KS"))
    dealer.void()
    assert dealer.due is None and not dealer.complete
    with pytest.raises(ProcedureError, match="voided"):
        dealer.result()
    with pytest.raises(ProcedureError):
        dealer.enter(Card.parse("2S"))


def test_r18_an_unfinished_coup_has_no_result() -> None:
    dealer = CoupDealer()
    dealer.enter(Card.parse("KS"))
    with pytest.raises(ProcedureError, match="Banker's 1st card is due"):
        dealer.result()


# --- R19 --------------------------------------------------------------------------------------


def test_r19_layout_is_six_face_down_cards_committed_before_betting() -> None:
    dealer = ShoeDealer(ShoeConfig(mode=DealingMode.PRE_DEALT), source=SeededSource(12))
    layout = dealer.layout()
    shown = layout.face_down()
    assert "cards" not in shown and len(shown["positions"]) == 6
    assert layout.verify(shown["commitment"])
    assert dealer.layout() is layout  # fixed until the coup is dealt
    coup = dealer.next_coup()
    assert coup.layout is layout
    assert list(coup.result.cards) == list(layout.cards[: coup.result.cards_used])


def test_r19_unused_draw_area_cards_carry_over_to_the_next_layout() -> None:
    dealer = ShoeDealer(ShoeConfig(mode=DealingMode.PRE_DEALT), source=SeededSource(13))
    for _ in range(30):
        layout = dealer.layout()
        coup = dealer.next_coup()
        if coup.last:
            break
        unused = layout.cards[coup.result.cards_used :]
        following = dealer.layout()
        assert following.cards[: len(unused)] == unused
        assert len(following.cards) == 6


def _first_cut_coup(coups: list[DealtCoup]) -> int:
    return next(i for i, c in enumerate(coups) if c.cut_card_out)


@pytest.mark.parametrize("after", list(AfterCutCard))
def test_r19_a_layout_laid_past_the_cut_card_brings_it_out_r6(after: AfterCutCard) -> None:
    checked = 0
    for seed in range(40):
        config = ShoeConfig(mode=DealingMode.PRE_DEALT, after_cut_card=after)
        dealer = ShoeDealer(config, source=SeededSource(seed))
        coups = dealer.deal_shoe()
        assert dealer.shoe is not None and dealer.shoe.cut_index is not None
        cut = dealer.shoe.cut_index
        # The cut card is out with the first coup whose six-card layout reaches behind it.
        expected = next(i for i, c in enumerate(coups) if c.start + 6 > cut)
        assert _first_cut_coup(coups) == expected
        assert len(coups) - 1 == expected + (0 if after is AfterCutCard.FINISH else 1)
        # The coups are those of plain dealing from the same shoe, up to the last coup.
        plain = ShoeDealer(ShoeConfig(after_cut_card=after), source=SeededSource(seed)).deal_shoe()
        assert [c.result for c in coups] == [c.result for c in plain[: len(coups)]]
        checked += coups[expected].start + coups[expected].result.cards_used <= cut
    assert checked > 0  # some shoes have their cut card out only through the layout


def test_r19_the_layout_itself_brings_the_cut_card_out_before_the_coup_r6() -> None:
    dealer = ShoeDealer(ShoeConfig(mode=DealingMode.PRE_DEALT), source=SeededSource(0))
    dealer.new_shoe()
    shoe = dealer.shoe
    assert shoe is not None and shoe.cut_index is not None
    while True:
        start = shoe.position
        dealer.layout()
        if start + 6 > shoe.cut_index:
            break
        assert not shoe.cut_card_out
        dealer.next_coup()
    # Out as soon as the layout is laid, before the coup draws a card.
    assert shoe.cut_card_out and shoe.position == start < shoe.cut_index
    assert [e.position for e in shoe.events if e.kind is ShoeEventKind.CUT_CARD_OUT] == [shoe.cut_index]


def test_r19_layout_only_in_pre_dealt_mode_and_no_burn_each_coup() -> None:
    with pytest.raises(ProcedureError):
        ShoeDealer(ShoeConfig()).layout()
    with pytest.raises(InputError, match="pre-dealt"):
        ShoeConfig(mode=DealingMode.PRE_DEALT, burn_each_coup=True)


# --- properties -------------------------------------------------------------------------------

small_configs = st.builds(
    lambda decks, cut, burn, after, each, demo: ShoeConfig(
        decks=decks,
        cut_card_from_end=min(cut, 52 * decks - 1),
        burn=burn,
        after_cut_card=after,
        burn_each_coup=each,
        demo_coups=demo,
    ),
    decks=st.integers(1, 3),
    cut=st.integers(0, 60),
    burn=st.sampled_from(list(BurnMethod)),
    after=st.sampled_from(list(AfterCutCard)),
    each=st.booleans(),
    demo=st.integers(0, 3),
)


@settings(max_examples=60, deadline=None)
@given(config=small_configs, seed=st.integers(0, 2**64 - 1))
def test_property_no_procedure_deals_past_the_end_of_a_shoe(config: ShoeConfig, seed: int) -> None:
    dealer = ShoeDealer(config, source=SeededSource(seed))
    coups = dealer.deal_shoe()
    assert dealer.shoe is not None and dealer.shoe.position <= dealer.shoe.size
    assert coups[-1].last and not any(c.last for c in coups[:-1])
    dealt = [card for c in coups for card in (*c.burned, *c.result.cards)]
    assert len(dealt) + len(dealer.events[2].cards) <= dealer.shoe.size


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), decks=st.integers(1, 8))
def test_property_the_same_seed_gives_the_same_shoe(seed: int, decks: int) -> None:
    a = ShoeDealer(ShoeConfig(decks=decks), source=SeededSource(seed)).deal_shoe()
    b = ShoeDealer(ShoeConfig(decks=decks), source=SeededSource(seed)).deal_shoe()
    assert [c.result for c in a] == [c.result for c in b]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), decks=st.integers(1, 8), demo=st.integers(0, 3))
def test_property_pre_dealt_coups_equal_plain_coups_on_the_same_shoe(seed: int, decks: int, demo: int) -> None:
    plain = ShoeDealer(ShoeConfig(decks=decks, demo_coups=demo), source=SeededSource(seed)).deal_shoe()
    pre = ShoeDealer(ShoeConfig(decks=decks, demo_coups=demo, mode=DealingMode.PRE_DEALT), source=SeededSource(seed))
    coups = pre.deal_shoe()
    # The same coups, up to the shoe's end: a layout laid past the cut card brings it out sooner (R19, R6).
    assert [c.result for c in coups] == [c.result for c in plain[: len(coups)]]
    assert len(plain) - 1 <= len(coups) <= len(plain)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_property_a_shoe_deals_exactly_its_cards_in_order(seed: int) -> None:
    dealer = ShoeDealer(ShoeConfig(decks=2, cut_card_from_end=12), source=SeededSource(seed))
    coups = dealer.deal_shoe()
    assert dealer.shoe is not None
    start_burn = len(dealer.events[2].cards)
    dealt = [card for c in coups for card in c.result.cards]
    assert dealt == dealer.shoe.cards[start_burn : start_burn + len(dealt)]
    coups_again, _ = deal_coups(dealt)
    assert [c.cards for c in coups_again] == [c.result.cards for c in coups]


def test_parse_removal_accepts_cards_and_bare_ranks() -> None:
    assert parse_removal("5S 5h K 10") == [Card.parse("5S"), Card.parse("5H"), Rank.KING, Rank.TEN]
    with pytest.raises(InputError, match="cannot remove"):
        Composition.from_decks(1).remove(parse_removal("5S 5S"))
