"""R1 and R2: cards, their notation, point values and hand totals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.cards import ALL_CARDS, Card, Rank, Suit, format_cards, hand_total, parse_cards, parse_rank
from baccarat.errors import InputError


def test_r1_a_deck_has_52_distinct_cards_of_13_ranks_and_4_suits() -> None:
    assert len(ALL_CARDS) == 52
    assert len(set(ALL_CARDS)) == 52
    assert {c.rank for c in ALL_CARDS} == set(Rank)
    assert {c.suit for c in ALL_CARDS} == set(Suit)
    assert [Card.from_index(i) for i in range(52)] == list(ALL_CARDS)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AS", Rank.ACE, Suit.SPADES),
        ("as", Rank.ACE, Suit.SPADES),
        ("10h", Rank.TEN, Suit.HEARTS),
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("td", Rank.TEN, Suit.DIAMONDS),
        ("K♣", Rank.KING, Suit.CLUBS),
        ("q♥", Rank.QUEEN, Suit.HEARTS),
        ("9♦", Rank.NINE, Suit.DIAMONDS),
        (" 2s ", Rank.TWO, Suit.SPADES),
    ],
)
def test_r1_notation_accepts_letters_ten_and_suit_symbols_in_either_case(text: str, rank: Rank, suit: Suit) -> None:
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "ZS", "AX", "A♠♠", "10", "KK"])
def test_r1_unknown_card_text_is_refused_with_a_hint(text: str) -> None:
    with pytest.raises(InputError) as error:
        Card.parse(text)
    assert "unknown card" in str(error.value)
    assert "rank + suit" in str(error.value)


def test_r1_printing_round_trips_through_parsing() -> None:
    for card in ALL_CARDS:
        assert Card.parse(str(card)) == card
        assert Card.parse(card.pretty) == card
    assert str(Card.parse("10h")) == "TH"
    assert format_cards(parse_cards("AS, 10h K♣")) == "AS TH KC"


def test_r1_parse_cards_names_the_position_of_a_bad_card() -> None:
    with pytest.raises(InputError, match="at position 3"):
        parse_cards("AS KH XX")


def test_r1_parse_rank() -> None:
    assert parse_rank("10") is Rank.TEN
    assert parse_rank("j") is Rank.JACK
    with pytest.raises(InputError):
        parse_rank("1")


def test_r2_point_values() -> None:
    expected = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 0, 11: 0, 12: 0, 13: 0}
    for rank in Rank:
        assert rank.point == expected[int(rank)]


def test_r2_hand_total_is_sum_modulo_ten() -> None:
    assert hand_total(parse_cards("9S 6H")) == 5
    assert hand_total(parse_cards("KS QH")) == 0
    assert hand_total(parse_cards("AS 8H")) == 9
    assert hand_total(parse_cards("5S 5H 5D")) == 5


@given(st.lists(st.sampled_from(ALL_CARDS), min_size=0, max_size=6))
def test_r2_totals_always_lie_in_0_to_9(cards: list[Card]) -> None:
    total = hand_total(cards)
    assert 0 <= total <= 9
    assert total == sum(min(int(c.rank), 10) % 10 for c in cards) % 10
