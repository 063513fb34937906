"""Shoe statistics and the pattern labels a table displays beside its scoreboards.

Counts (Banker, Player, Tie, pairs, naturals, Banker wins with 6) and named patterns of the Big
Road (long Banker 長莊, long Player 長閒, single jump 單跳, double jump 雙跳, two Banker one Player
兩莊一閒, one Banker two Player 一莊兩閒). Every label describes what has happened in this shoe;
none says anything about the next coup (each coup is dealt from the shoe independently of the
roads).

>>> from baccarat.roads import Scoreboard
>>> stats = shoe_stats(Scoreboard("PBBBBBPBPB"))
>>> stats.banker, stats.player, stats.longest_banker_streak
(7, 3, 5)
>>> [run.description for run in stats.current]
['Single jump (單跳): 4 columns in a row alternated one coup at a time (P B P B)']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from baccarat.coup import Winner
from baccarat.roads import BigRoadCell, Scoreboard

__all__ = [
    "LONG_STREAK",
    "PATTERN_RULES",
    "ColumnShape",
    "Pattern",
    "PatternRule",
    "PatternRun",
    "ShoeStats",
    "find_patterns",
    "shoe_stats",
]

#: A streak of this many or more wins by one side is "long" (長莊 / 長閒).
LONG_STREAK = 4


class Pattern(StrEnum):
    """The named Big Road patterns; the value is the JSON id."""

    LONG_BANKER = "long_banker"
    LONG_PLAYER = "long_player"
    SINGLE_JUMP = "single_jump"
    DOUBLE_JUMP = "double_jump"
    TWO_BANKER_ONE_PLAYER = "two_banker_one_player"
    ONE_BANKER_TWO_PLAYER = "one_banker_two_player"


@dataclass(frozen=True, slots=True)
class ColumnShape:
    """What one Big Road column must look like: its side (``None``: either) and its length range."""

    side: Winner | None
    min_length: int
    max_length: int | None = None

    def matches(self, column: list[BigRoadCell]) -> bool:
        """Whether a logical column has this shape."""
        length = len(column)
        if self.side is not None and column[0].result is not self.side:
            return False
        return length >= self.min_length and (self.max_length is None or length <= self.max_length)


@dataclass(frozen=True, slots=True)
class PatternRule:
    """A named pattern as data: a cycle of column shapes repeated over at least ``min_columns`` columns."""

    pattern: Pattern
    label: str
    chinese: str
    cycle: tuple[ColumnShape, ...]
    min_columns: int


#: The patterns, as data. Consecutive Big Road columns alternate sides by construction.
PATTERN_RULES: tuple[PatternRule, ...] = (
    PatternRule(Pattern.LONG_BANKER, "Long Banker", "長莊", (ColumnShape(Winner.BANKER, LONG_STREAK),), 1),
    PatternRule(Pattern.LONG_PLAYER, "Long Player", "長閒", (ColumnShape(Winner.PLAYER, LONG_STREAK),), 1),
    PatternRule(Pattern.SINGLE_JUMP, "Single jump", "單跳", (ColumnShape(None, 1, 1),), 4),
    PatternRule(Pattern.DOUBLE_JUMP, "Double jump", "雙跳", (ColumnShape(None, 2, 2),), 3),
    PatternRule(
        Pattern.TWO_BANKER_ONE_PLAYER,
        "Two Banker one Player",
        "兩莊一閒",
        (ColumnShape(Winner.BANKER, 2, 2), ColumnShape(Winner.PLAYER, 1, 1)),
        4,
    ),
    PatternRule(
        Pattern.ONE_BANKER_TWO_PLAYER,
        "One Banker two Player",
        "一莊兩閒",
        (ColumnShape(Winner.BANKER, 1, 1), ColumnShape(Winner.PLAYER, 2, 2)),
        4,
    ),
)


@dataclass(frozen=True, slots=True)
class PatternRun:
    """One occurrence of a pattern: Big Road columns ``first_column`` … ``first_column + columns − 1``."""

    rule: PatternRule
    first_column: int
    columns: tuple[tuple[Winner, int], ...]  # (side, length) of each column in the run

    @property
    def pattern(self) -> Pattern:
        """The pattern's id."""
        return self.rule.pattern

    @property
    def coups(self) -> int:
        """Banker/Player results in the run."""
        return sum(length for _, length in self.columns)

    @property
    def description(self) -> str:
        """A description of what happened, in the past tense."""
        name = f"{self.rule.label} ({self.rule.chinese})"
        if len(self.rule.cycle) == 1 and self.rule.min_columns == 1:
            side = self.columns[0][0].value.capitalize()
            return f"{name}: {side} won {self.coups} coups in a row"
        letters = " ".join(side.letter * length for side, length in self.columns)
        if self.pattern is Pattern.SINGLE_JUMP:
            return f"{name}: {len(self.columns)} columns in a row alternated one coup at a time ({letters})"
        return f"{name}: {len(self.columns)} columns went {letters}"

    def to_dict(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "pattern": self.pattern.value,
            "first_column": self.first_column,
            "columns": len(self.columns),
            "coups": self.coups,
            "description": self.description,
        }


def find_patterns(
    columns: list[list[BigRoadCell]], *, rules: tuple[PatternRule, ...] = PATTERN_RULES
) -> list[PatternRun]:
    """Every maximal run of each pattern over the Big Road's logical columns, in order of rule then column.

    >>> from baccarat.roads import Scoreboard
    >>> [(r.pattern.value, r.first_column, r.coups) for r in find_patterns(Scoreboard("BBPPBBPPBBBBB").big_road_columns())]
    [('long_banker', 4, 5), ('double_jump', 0, 8)]
    """
    runs: list[PatternRun] = []
    for rule in rules:
        period = len(rule.cycle)
        # run[phase] = length of the matching run ending at the current column in that phase
        run = [0] * period
        for index, column in enumerate(columns):
            run = [
                (1 + run[(phase - 1) % period]) if rule.cycle[phase].matches(column) else 0 for phase in range(period)
            ]
            following = columns[index + 1] if index + 1 < len(columns) else None
            for phase in range(period):
                length = run[phase]
                if length < rule.min_columns:
                    continue
                if following is not None and rule.cycle[(phase + 1) % period].matches(following):
                    continue  # the run goes on
                first = index - length + 1
                runs.append(
                    PatternRun(
                        rule=rule,
                        first_column=first,
                        columns=tuple((c[0].result, len(c)) for c in columns[first : index + 1]),
                    )
                )
    return runs


@dataclass(frozen=True, slots=True)
class ShoeStats:
    """The counts a table shows for the shoe so far, and its named patterns.

    Pairs, naturals and Banker-wins-with-6 are counted over the coups dealt from cards
    (``coups_with_cards``); results entered as letters only count towards Banker/Player/Tie.
    """

    coups: int
    banker: int
    player: int
    tie: int
    banker_pairs: int
    player_pairs: int
    naturals: int
    banker_wins_with_six: int
    coups_with_cards: int
    longest_banker_streak: int
    longest_player_streak: int
    patterns: tuple[PatternRun, ...] = field(default=())
    current: tuple[PatternRun, ...] = field(default=())

    def share(self, winner: Winner) -> float:
        """The fraction of coups that ``winner`` won (0.0 on an empty shoe)."""
        count = {Winner.BANKER: self.banker, Winner.PLAYER: self.player, Winner.TIE: self.tie}[winner]
        return count / self.coups if self.coups else 0.0

    @property
    def labels(self) -> list[str]:
        """The labels a table shows now: the patterns the Big Road ends with."""
        return [run.description for run in self.current]

    def to_dict(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "coups": self.coups,
            "banker": self.banker,
            "player": self.player,
            "tie": self.tie,
            "banker_pairs": self.banker_pairs,
            "player_pairs": self.player_pairs,
            "naturals": self.naturals,
            "banker_wins_with_six": self.banker_wins_with_six,
            "coups_with_cards": self.coups_with_cards,
            "longest_banker_streak": self.longest_banker_streak,
            "longest_player_streak": self.longest_player_streak,
            "patterns": [run.to_dict() for run in self.patterns],
            "labels": self.labels,
        }


def shoe_stats(board: Scoreboard) -> ShoeStats:
    """The statistics of everything on a scoreboard.

    >>> from baccarat.coup import deal_coup
    >>> six = deal_coup(parse_cards("KS 3H KD 3C KH"))  # Player K K K = 0, Banker 3 3 = 6 stands
    >>> board = Scoreboard([six, "T", deal_coup(parse_cards("4S 4H 5D 5C"))])  # then 9 v 9
    >>> s = shoe_stats(board)
    >>> (s.banker, s.tie, s.banker_wins_with_six, s.player_pairs, s.banker_pairs, s.naturals, s.coups_with_cards)
    (1, 2, 1, 1, 1, 1, 2)
    """
    outcomes = board.outcomes
    columns = board.big_road_columns()
    counts = dict.fromkeys(Winner, 0)
    for outcome in outcomes:
        counts[outcome.winner] += 1
    carded = [o for o in outcomes if o.has_cards]
    runs = find_patterns(columns)
    last = len(columns) - 1
    return ShoeStats(
        coups=len(outcomes),
        banker=counts[Winner.BANKER],
        player=counts[Winner.PLAYER],
        tie=counts[Winner.TIE],
        banker_pairs=sum(o.banker_pair for o in carded),
        player_pairs=sum(o.player_pair for o in carded),
        naturals=sum(o.natural for o in carded),
        banker_wins_with_six=sum(o.winner is Winner.BANKER and o.banker_total == 6 for o in carded),
        coups_with_cards=len(carded),
        longest_banker_streak=max((len(c) for c in columns if c[0].result is Winner.BANKER), default=0),
        longest_player_streak=max((len(c) for c in columns if c[0].result is Winner.PLAYER), default=0),
        patterns=tuple(runs),
        current=tuple(run for run in runs if run.first_column + len(run.columns) - 1 == last),
    )
