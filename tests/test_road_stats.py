"""Shoe statistics and pattern labels: counts, streaks, named patterns, and wording about the past only."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.cards import parse_cards
from baccarat.coup import Winner, deal_coup
from baccarat.road_stats import LONG_STREAK, PATTERN_RULES, Pattern, find_patterns, shoe_stats
from baccarat.roads import Scoreboard


def current(text: str) -> list[Pattern]:
    return [run.pattern for run in shoe_stats(Scoreboard(text)).current]


def test_counts_from_letters() -> None:
    stats = shoe_stats(Scoreboard("TBPPBTBB"))
    assert (stats.coups, stats.banker, stats.player, stats.tie) == (8, 4, 2, 2)
    # letters carry no cards: pairs, naturals and sixes are not counted
    assert (stats.banker_pairs, stats.player_pairs, stats.naturals, stats.banker_wins_with_six) == (0, 0, 0, 0)
    assert stats.coups_with_cards == 0
    assert stats.share(Winner.BANKER) == 0.5 and stats.share(Winner.TIE) == 0.25


def test_counts_from_coups_pairs_naturals_and_banker_six() -> None:
    coups = [
        deal_coup(parse_cards("KS 3H KD 3C KH")),  # Player K K K = 0, Banker 3 3 = 6: B wins with 6, both pairs
        deal_coup(parse_cards("4S 4H 4D 5C")),  # Player 4 4 = 8 (pair), Banker 4 5 = 9: natural, Banker 9
        deal_coup(parse_cards("9S 8H KD 5C")),  # Player 9 natural v Banker 3: Player
        deal_coup(parse_cards("4S 2H 2D 4C")),  # 6 v 6, both stand: tie, no pair, no natural
        deal_coup(parse_cards("KS 4H 7D 2C 9C")),  # Player 7 stands; Banker 6 stands (Player stood): Player 7 wins
    ]
    assert [c.winner for c in coups] == [Winner.BANKER, Winner.BANKER, Winner.PLAYER, Winner.TIE, Winner.PLAYER]
    stats = shoe_stats(Scoreboard(coups))
    assert (stats.banker, stats.player, stats.tie) == (2, 2, 1)
    assert stats.banker_pairs == 1 and stats.player_pairs == 2
    assert stats.naturals == 2
    assert stats.banker_wins_with_six == 1  # the Banker 6 that lost to Player 7 does not count
    assert stats.coups_with_cards == 5


def test_streaks_ignore_ties() -> None:
    stats = shoe_stats(Scoreboard("PBBTBBPPP"))
    assert stats.longest_banker_streak == 4 and stats.longest_player_streak == 3


def test_long_banker_and_long_player_start_at_four() -> None:
    assert LONG_STREAK == 4
    assert current("PBBB") == []
    assert current("PBBBB") == [Pattern.LONG_BANKER]
    assert current("BBTBB") == [Pattern.LONG_BANKER]  # a tie does not break the streak
    assert current("BPPPPPP") == [Pattern.LONG_PLAYER]
    (label,) = shoe_stats(Scoreboard("BPPPPPP")).labels
    assert label == "Long Player (長閒): Player won 6 coups in a row"


def test_single_jump_needs_four_alternating_columns() -> None:
    assert current("BPB") == []
    assert current("BPBP") == [Pattern.SINGLE_JUMP]
    (label,) = shoe_stats(Scoreboard("BBPBPB")).labels  # BB then P B P B: 4 single columns
    assert label == "Single jump (單跳): 4 columns in a row alternated one coup at a time (P B P B)"
    assert current("BPBPP") == []  # the jump is over: the last column has two


def test_double_jump() -> None:
    assert current("BBPPBB") == [Pattern.DOUBLE_JUMP]
    assert current("BBPP") == []
    assert current("BBPPBBB") == []
    (label,) = shoe_stats(Scoreboard("PBBPPBB")).labels
    assert label == "Double jump (雙跳): 3 columns went BB PP BB"


def test_two_banker_one_player_and_one_banker_two_player() -> None:
    assert current("BBPBBP") == [Pattern.TWO_BANKER_ONE_PLAYER]
    assert current("PBBPBB") == [Pattern.TWO_BANKER_ONE_PLAYER]
    assert current("BPPBPP") == [Pattern.ONE_BANKER_TWO_PLAYER]
    assert current("BBPBBPP") == []
    (label,) = shoe_stats(Scoreboard("BBPBBP")).labels
    assert label == "Two Banker one Player (兩莊一閒): 4 columns went BB P BB P"


def test_patterns_of_the_whole_shoe_are_kept() -> None:
    # BBBB P BBBBB: two long Banker runs (columns 0 and 2), the second one current.
    runs = find_patterns(Scoreboard("BBBBPBBBBB").big_road_columns())
    assert [(r.pattern, r.first_column, r.coups) for r in runs] == [
        (Pattern.LONG_BANKER, 0, 4),
        (Pattern.LONG_BANKER, 2, 5),
    ]
    stats = shoe_stats(Scoreboard("BBBBPBBBBBP"))
    assert len(stats.patterns) == 2 and stats.current == ()
    data = stats.to_dict()
    assert [p["pattern"] for p in data["patterns"]] == ["long_banker", "long_banker"]
    assert data["labels"] == [] and data["banker"] == 9


def test_empty_shoe() -> None:
    stats = shoe_stats(Scoreboard())
    assert stats.coups == 0 and stats.share(Winner.BANKER) == 0.0
    assert stats.longest_banker_streak == 0 and stats.labels == []


def test_pattern_rules_are_data_with_chinese_names() -> None:
    assert {rule.pattern for rule in PATTERN_RULES} == set(Pattern)
    assert all(rule.chinese and rule.label and rule.min_columns >= 1 for rule in PATTERN_RULES)


_FORWARD_LOOKING = re.compile(r"\b(next|will|should|due|bet|predict\w*|expect\w*|likely|chance)\b", re.IGNORECASE)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("BP"), st.integers(1, 7), st.sampled_from(["", "T"])), max_size=20).map(
        lambda runs: "".join(side * n + tie for side, n, tie in runs)
    )
)
def test_labels_describe_the_past_and_match_the_big_road(text: str) -> None:
    board = Scoreboard(text)
    stats = shoe_stats(board)
    columns = board.big_road_columns()
    for run in stats.patterns:
        assert not _FORWARD_LOOKING.search(run.description), run.description
        shown = columns[run.first_column : run.first_column + len(run.columns)]
        assert [(c[0].result, len(c)) for c in shown] == list(run.columns)
        assert len(run.columns) >= run.rule.min_columns
    assert set(stats.current) <= set(stats.patterns)
    assert stats.banker + stats.player + stats.tie == stats.coups == len(text)
    long_banker = [len(c) for c in columns if c[0].result is Winner.BANKER and len(c) >= LONG_STREAK]
    assert sorted(r.coups for r in stats.patterns if r.pattern is Pattern.LONG_BANKER) == sorted(long_banker)
