"""Bet kinds, their names and aliases, and bets (docs/rules.md bet table, R30, R31, R32)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.bets import BET_SPECS, CONDITION_FIELDS, Bet, BetFamily, BetKind, bet_menu, parse_bet, parse_bet_kind
from baccarat.coup import Side
from baccarat.errors import InputError

# The canonical ids of docs/rules.md: the bet table, R30's letter bets and R31's extensions.
RULE_IDS = [
    "banker",
    "player",
    "tie",
    "banker_pair",
    "player_pair",
    "big",
    "small",
    "banker_odd",
    "banker_even",
    "player_odd",
    "player_even",
    "player_dragon_bonus",
    "banker_dragon_bonus",
    "super6",
    "lucky6",
    "player_ace",
    "banker_ace",
    "player_face",
    "banker_face",
    "player_ace_face",
    "banker_ace_face",
    "both_ace",
    "both_face",
    "both_ace_face",
    "either_pair",
    "perfect_pair",
    "dragon7",
    "panda8",
]

# The Chinese names of the bet table and R26, R28, R29.
CHINESE = {
    "莊": BetKind.BANKER,
    "閒": BetKind.PLAYER,
    "和": BetKind.TIE,
    "莊對": BetKind.BANKER_PAIR,
    "閒對": BetKind.PLAYER_PAIR,
    "大": BetKind.BIG,
    "小": BetKind.SMALL,
    "莊單": BetKind.BANKER_ODD,
    "莊雙": BetKind.BANKER_EVEN,
    "閒單": BetKind.PLAYER_ODD,
    "閒雙": BetKind.PLAYER_EVEN,
    "閒龍寶": BetKind.PLAYER_DRAGON_BONUS,
    "莊龍寶": BetKind.BANKER_DRAGON_BONUS,
    "超級六": BetKind.SUPER6,
    "幸運六": BetKind.LUCKY6,
    "莊贏": BetKind.BANKER,
    "閒贏": BetKind.PLAYER,
    "和局": BetKind.TIE,
}


def test_bet_kinds_are_the_canonical_ids_of_the_rules() -> None:
    assert [kind.value for kind in BetKind] == RULE_IDS
    assert set(BET_SPECS) == set(BetKind)


@pytest.mark.parametrize(("name", "kind"), CHINESE.items())
def test_chinese_names_are_aliases(name: str, kind: BetKind) -> None:
    assert parse_bet_kind(name) is kind


@pytest.mark.parametrize("kind", list(BetKind))
def test_every_kind_parses_from_its_id_and_display_names(kind: BetKind) -> None:
    assert parse_bet_kind(kind.value) is kind
    assert parse_bet_kind(kind.value.upper()) is kind
    assert parse_bet_kind(kind.english) is kind
    assert parse_bet_kind(kind.chinese) is kind
    assert kind.label == f"{kind.english} {kind.chinese}"


def test_display_names_are_distinct() -> None:
    assert len({kind.english for kind in BetKind}) == len(BetKind)
    assert len({kind.chinese for kind in BetKind}) == len(BetKind)


def test_parse_bet_kind_ignores_case_spaces_and_dashes() -> None:
    assert parse_bet_kind(" Banker-Pair ") is BetKind.BANKER_PAIR
    assert parse_bet_kind("super 6") is BetKind.SUPER6
    assert parse_bet_kind("Dragon 7") is BetKind.DRAGON7


def test_unknown_bet_lists_the_menu() -> None:
    with pytest.raises(InputError, match=r"unknown bet 'dragon'.*banker \(莊\).*panda8 \(熊貓8\)"):
        parse_bet_kind("dragon")
    with pytest.raises(InputError, match=r"choose one of: tie \(和\)\)$"):
        parse_bet_kind("dragon", menu=[BetKind.TIE])


def test_r24_to_r31_each_kind_has_the_rule_family_of_its_rule() -> None:
    assert BetKind.BANKER.spec.family is BetFamily.MAIN and BetKind.BANKER.spec.side is Side.BANKER
    assert BetKind.PLAYER_DRAGON_BONUS.spec.family is BetFamily.DRAGON_BONUS
    assert BetKind.SUPER6.spec.totals == {6} and BetKind.SUPER6.spec.side is Side.BANKER
    assert BetKind.DRAGON7.spec.totals == {7} and BetKind.DRAGON7.spec.cards == {3}
    assert BetKind.PANDA8.spec.totals == {8} and BetKind.PANDA8.spec.side is Side.PLAYER
    assert BetKind.BIG.spec.cards == {5, 6} and BetKind.SMALL.spec.cards == {4}
    assert BetKind.PLAYER_EVEN.spec.totals == {0, 2, 4, 6, 8}
    assert set(BetKind.BOTH_ACE_FACE.spec.holds) == {"player_ace", "player_face", "banker_ace", "banker_face"}
    assert set(CONDITION_FIELDS) == set(BetFamily)


def test_r32_bet_stake_is_a_positive_whole_number_of_minor_units() -> None:
    assert Bet(BetKind.BANKER, 1).stake == 1
    for stake in (0, -5):
        with pytest.raises(InputError, match="not positive"):
            Bet(BetKind.BANKER, stake)
    for bad in (1.5, True, "100"):
        with pytest.raises(InputError, match="not a whole number"):
            Bet(BetKind.BANKER, bad)  # type: ignore[arg-type]


def test_bet_kind_given_as_text_is_parsed() -> None:
    assert Bet("莊對", 20).kind is BetKind.BANKER_PAIR  # type: ignore[arg-type]
    assert Bet(BetKind.TIE, 10).to_dict() == {"bet": "tie", "stake": 10}


@pytest.mark.parametrize("text", ["banker=1.5", "banker=0", "banker=-5", "banker=", "banker", "=100", "banker=ten"])
def test_parse_bet_refuses_bad_stakes(text: str) -> None:
    with pytest.raises(InputError, match=r"stake|no stake|unknown bet"):
        parse_bet(text)


@given(kind=st.sampled_from(list(BetKind)), stake=st.integers(1, 10**12))
def test_parse_bet_round_trips(kind: BetKind, stake: int) -> None:
    assert parse_bet(f"{kind.chinese}={stake}") == Bet(kind, stake)
    assert parse_bet(f"{kind.value} = {stake}") == Bet(kind, stake)


def test_bet_menu() -> None:
    assert bet_menu([BetKind.SUPER6]) == "super6 (超級六)"
    assert bet_menu().count(",") == len(BetKind) - 1
