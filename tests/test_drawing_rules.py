"""R10–R17: the deal and the drawing rules, with the Banker tableau as a full truth table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.cards import ALL_CARDS, Card, hand_total, parse_cards
from baccarat.coup import CoupResult, Position, Side, Winner, deal_coup, deal_coups
from baccarat.errors import InputError

# The Banker tableau exactly as docs/rules.md R15 prints it (draw when Player's third card is …),
# written out here independently of the engine's data so that the engine is checked against the text.
R15_TEXT = {
    0: "any",
    1: "any",
    2: "any",
    3: "anything but 8",
    4: "2-7",
    5: "4-7",
    6: "6,7",
    7: "none",
}


def r15_draws(banker_total: int, third: int) -> bool:
    rule = R15_TEXT[banker_total]
    if rule == "any":
        return True
    if rule == "none":
        return False
    if rule == "anything but 8":
        return third != 8
    if rule == "6,7":
        return third in (6, 7)
    low, high = (int(x) for x in rule.split("-"))
    return low <= third <= high


# A card of each point value, and two-card Banker hands for each total, none of them a pair.
CARD_OF_POINT = {0: "TS", 1: "AS", 2: "2S", 3: "3S", 4: "4S", 5: "5S", 6: "6S", 7: "7S", 8: "8S", 9: "9S"}
BANKER_TWO = {t: ("KD", CARD_OF_POINT[t].replace("S", "D") if t else "QD") for t in range(10)}


def planted(player: tuple[str, str], banker: tuple[str, str], *thirds: str) -> list[Card]:
    return parse_cards([player[0], banker[0], player[1], banker[1], *thirds])


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", range(10))
def test_r15_banker_tableau_truth_table_when_player_drew(banker_total: int, third: int) -> None:
    # Player K 2 = 2 draws (R13); Player's third card has point value `third`.
    cards = planted(("KS", "2H"), BANKER_TWO[banker_total], CARD_OF_POINT[third], "5C")
    result = deal_coup(cards)
    assert result.player.size == 3
    assert result.player.cards[2].point == third
    assert result.banker.two_card_total == banker_total
    assert (result.banker.size == 3) is r15_draws(banker_total, third)


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("player_total", [6, 7])
def test_r14_banker_draws_on_0_to_5_and_stands_on_6_7_when_player_stood(banker_total: int, player_total: int) -> None:
    cards = planted(("KS", CARD_OF_POINT[player_total]), BANKER_TWO[banker_total], "5C", "5H")
    result = deal_coup(cards)
    assert result.player.size == 2
    assert (result.banker.size == 3) is (banker_total <= 5)


@pytest.mark.parametrize("player_total", range(8))
def test_r13_player_draws_on_0_to_5_and_stands_on_6_7(player_total: int) -> None:
    # Banker 7 never makes Player change its mind; Banker's hand is K 7 (no natural).
    cards = planted(("KS", CARD_OF_POINT[player_total]), BANKER_TWO[7], "5C", "5H")
    result = deal_coup(cards)
    assert (result.player.size == 3) is (player_total <= 5)


@pytest.mark.parametrize("natural", [8, 9])
@pytest.mark.parametrize("other", range(10))
@pytest.mark.parametrize("side", list(Side))
def test_r12_a_natural_on_either_side_stops_both_hands(natural: int, other: int, side: Side) -> None:
    nat = ("KS", CARD_OF_POINT[natural])
    low = ("QH", CARD_OF_POINT[other])
    cards = planted(nat, low) if side is Side.PLAYER else planted(low, nat)
    result = deal_coup([*cards, *parse_cards("5C 5H")])
    assert result.player.size == 2 and result.banker.size == 2
    assert result.natural
    assert result.hand(side).is_natural


def test_r12_three_card_eight_is_not_a_natural() -> None:
    result = deal_coup(parse_cards("2S KD 3H 7C 3D"))  # Player 2+3=5 draws 3 -> 8; Banker 7 stands
    assert result.player.total == 8 and result.player.size == 3
    assert not result.player.is_natural and not result.natural


def test_r11_deal_order_is_player_banker_player_banker() -> None:
    result = deal_coup(parse_cards("AS 2H 3D KC 4S 8D"))
    assert [str(c) for c in result.player.cards] == ["AS", "3D", "4S"]
    assert [str(c) for c in result.banker.cards] == ["2H", "KC", "8D"]
    assert [str(c) for c in result.cards] == ["AS", "2H", "3D", "KC", "4S", "8D"]


def test_r10_only_two_hands_player_and_banker() -> None:
    result = deal_coup(parse_cards("AS 2H 3D KC 4S 8D"))
    assert {result.hand(s) for s in Side} == {result.player, result.banker}
    assert set(Winner) == {Winner.BANKER, Winner.PLAYER, Winner.TIE}


def test_r16_player_third_card_comes_before_banker_third_card() -> None:
    result = deal_coup(parse_cards("KS 2H 2D 3C 4S 9D"))  # P 2 draws 4S, B 5 draws on 4: 9D
    assert str(result.player.cards[2]) == "4S"
    assert str(result.banker.cards[2]) == "9D"


@pytest.mark.parametrize(
    ("cards", "winner"),
    [("9S 8H KD 5C", Winner.PLAYER), ("KS 9H 8D KC", Winner.BANKER), ("7S 7H KD KC", Winner.TIE)],
)
def test_r17_higher_total_wins_and_equal_totals_tie(cards: str, winner: Winner) -> None:
    assert deal_coup(parse_cards(cards)).winner is winner


def test_reason_for_each_draw_names_the_rule() -> None:
    result = deal_coup(parse_cards("5S 3H KD 2C 4S 8D"))  # P 5 draws 4; B 5 draws on a 4
    assert "Player 5 draws" in result.reasons[0]
    assert result.reasons[1] == "Banker 5 draws: Player's third card is a 4"
    stood = deal_coup(parse_cards("5S 3H KD 3C 8S"))  # P 5 draws 8; B 6 stands on an 8
    assert stood.reasons[1] == "Banker 6 stands: Player's third card is a 8"


def test_too_few_cards_names_the_card_that_is_due() -> None:
    with pytest.raises(InputError, match="Player's 3rd card is due"):
        deal_coup(parse_cards("KS 2H 2D 3C"))


def test_deal_coups_deals_consecutive_coups_and_keeps_unused_cards() -> None:
    coups, unused = deal_coups(parse_cards("9S 8H KD 5C 7S 7H KD KC 2S"))
    assert [c.winner for c in coups] == [Winner.PLAYER, Winner.TIE]
    assert [str(c) for c in unused] == ["2S"]


# --- properties -----------------------------------------------------------------------------

card_sequences = st.lists(st.sampled_from(ALL_CARDS), min_size=6, max_size=6)


def independent_draws(cards: list[Card]) -> tuple[int, int]:
    """How many cards each hand gets, by the rule text alone (R12–R15)."""
    p = hand_total([cards[0], cards[2]])
    b = hand_total([cards[1], cards[3]])
    if p >= 8 or b >= 8:
        return 2, 2
    if p <= 5:
        third = cards[4].point
        return 3, 3 if banker_total_draws(b, third) else 2
    return 2, 3 if b <= 5 else 2


def banker_total_draws(b: int, third: int) -> bool:
    return b <= 7 and r15_draws(b, third)


@given(card_sequences)
def test_property_any_six_cards_deal_a_legal_coup(cards: list[Card]) -> None:
    result: CoupResult = deal_coup(cards)
    p_size, b_size = independent_draws(cards)
    assert (result.player.size, result.banker.size) == (p_size, b_size)
    assert list(result.cards) == cards[: result.cards_used]
    assert result.player.total == hand_total(result.player.cards)
    assert result.banker.total == hand_total(result.banker.cards)
    assert result.player.size <= 3 and result.banker.size <= 3  # no hand draws twice (R16)
    expected = (
        Winner.PLAYER
        if result.player.total > result.banker.total
        else Winner.BANKER
        if result.banker.total > result.player.total
        else Winner.TIE
    )
    assert result.winner is expected


@given(st.lists(st.sampled_from(ALL_CARDS), min_size=0, max_size=40))
def test_property_deal_coups_uses_every_card_once_in_order(cards: list[Card]) -> None:
    coups, unused = deal_coups(cards)
    replay = [card for coup in coups for card in coup.cards] + unused
    assert replay == cards
    assert len(unused) < 6


def test_position_labels() -> None:
    assert Position.BANKER_3.label == "Banker's 3rd card"
    assert Position.PLAYER_1.side is Side.PLAYER
