"""Betting systems as small declarative objects: what to bet on, and how much.

A :class:`Strategy` combines a *selection* (a fixed bet, follow the streak, follow the chop, a
road pattern, or a card count on a side bet) with a *staking* progression (flat, Martingale,
Paroli, Fibonacci, D'Alembert, 1-3-2-6). Both are data: a progression is a list of stake
multipliers with the level to move to after a win and after a loss (:class:`Progression`), so the
compiled strategy kernel runs every system with one loop. A push leaves the progression where it is.

Strategies are written as text too (``STAKING[:TARGET]``), and plug-ins may register their own
named strategies with :func:`register_strategy`:

>>> Strategy.parse("martingale:banker").name
'martingale:banker'
>>> Strategy.parse("flat:pattern=BBP").pattern
(<Side.BANKER: 'banker'>, <Side.BANKER: 'banker'>, <Side.PLAYER: 'player'>)
>>> Strategy.parse("count:dragon7").selection
<Selection.COUNT: 'count'>
>>> Progression.of(Staking.ONE_THREE_TWO_SIX).levels
(1, 3, 2, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from baccarat.bets import BetKind, parse_bet_kind
from baccarat.coup import Side
from baccarat.errors import InputError

__all__ = [
    "MAIN_BET_SYSTEMS",
    "LimitAction",
    "Progression",
    "Selection",
    "Staking",
    "Strategy",
    "parse_oracle",
    "register_strategy",
    "strategy_names",
]

#: How many levels an unbounded progression is given (the table maximum stops it long before).
_DEPTH = 48


class Staking(StrEnum):
    """The staking progressions."""

    FLAT = "flat"
    MARTINGALE = "martingale"  # double after a loss, back to one unit after a win
    PAROLI = "paroli"  # double after a win, three wins in a row and back to one unit
    FIBONACCI = "fibonacci"  # one step up the Fibonacci sequence after a loss, two back after a win
    DALEMBERT = "dalembert"  # one unit more after a loss, one less after a win
    ONE_THREE_TWO_SIX = "1326"  # 1, 3, 2, 6 units on successive wins, back to 1 after a loss or a sixth


class Selection(StrEnum):
    """What a strategy bets on."""

    FIXED = "fixed"  # the same bet every coup
    STREAK = "streak"  # the side that won the last decided coup of this shoe
    CHOP = "chop"  # the side that lost it
    PATTERN = "pattern"  # a fixed road pattern of sides, one per decided coup, from each shoe's start
    COUNT = "count"  # a side bet, only when a running count says it has turned positive


class LimitAction(StrEnum):
    """What a progression does when its next stake is above the table maximum."""

    CAP = "cap"  # bet the maximum and carry on
    RESET = "reset"  # take the loss and start again at one unit (the Martingale's fate)


@dataclass(frozen=True, slots=True, kw_only=True)
class Progression:
    """Stake multipliers by level, and the level after a win and after a loss.

    >>> m = Progression.of(Staking.MARTINGALE)
    >>> m.levels[:5], m.on_loss[:3], m.on_win[:3], m.on_limit.value
    ((1, 2, 4, 8, 16), (1, 2, 3), (0, 0, 0), 'reset')
    """

    staking: Staking
    levels: tuple[int, ...]
    on_win: tuple[int, ...]
    on_loss: tuple[int, ...]
    on_limit: LimitAction = LimitAction.CAP

    def __post_init__(self) -> None:
        size = len(self.levels)
        if not size or len(self.on_win) != size or len(self.on_loss) != size:
            raise InputError("a progression needs as many win and loss moves as levels")
        if any(level < 1 for level in self.levels) or not all(0 <= i < size for i in (*self.on_win, *self.on_loss)):
            raise InputError("a progression's levels are whole units, and its moves stay inside it")

    @classmethod
    def of(cls, staking: Staking) -> Progression:
        """The progression of a staking system."""
        up = tuple(min(i + 1, _DEPTH - 1) for i in range(_DEPTH))
        if staking is Staking.FLAT:
            return cls(staking=staking, levels=(1,), on_win=(0,), on_loss=(0,))
        if staking is Staking.MARTINGALE:
            return cls(
                staking=staking,
                levels=tuple(2**i for i in range(_DEPTH)),
                on_win=(0,) * _DEPTH,
                on_loss=up,
                on_limit=LimitAction.RESET,
            )
        if staking is Staking.PAROLI:
            return cls(staking=staking, levels=(1, 2, 4), on_win=(1, 2, 0), on_loss=(0, 0, 0))
        if staking is Staking.ONE_THREE_TWO_SIX:
            return cls(staking=staking, levels=(1, 3, 2, 6), on_win=(1, 2, 3, 0), on_loss=(0, 0, 0, 0))
        if staking is Staking.FIBONACCI:
            fib = [1, 1]
            while len(fib) < _DEPTH:
                fib.append(fib[-1] + fib[-2])
            back = tuple(max(i - 2, 0) for i in range(_DEPTH))
            return cls(staking=staking, levels=tuple(fib), on_win=back, on_loss=up)
        depth = 1000  # D'Alembert climbs one unit per loss
        return cls(
            staking=staking,
            levels=tuple(range(1, depth + 1)),
            on_win=tuple(max(i - 1, 0) for i in range(depth)),
            on_loss=tuple(min(i + 1, depth - 1) for i in range(depth)),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Strategy:
    """A betting system: a selection rule and a staking progression.

    ``bet`` is the bet of :attr:`Selection.FIXED` and :attr:`Selection.COUNT`; ``pattern`` the
    sides of :attr:`Selection.PATTERN`; ``min_run`` how many equal results in a row a streak or
    chop bettor waits for; ``threshold`` the expected value per unit a count must see to bet.

    >>> Strategy(selection=Selection.CHOP, min_run=3).name
    'flat:chop3'
    >>> Strategy(selection=Selection.COUNT, bet=BetKind.PANDA8).bets
    (<BetKind.PANDA8: 'panda8'>,)
    """

    staking: Staking = Staking.FLAT
    selection: Selection = Selection.FIXED
    bet: BetKind = BetKind.BANKER
    pattern: tuple[Side, ...] = ()
    min_run: int = 1
    threshold: float = 0.0

    def __post_init__(self) -> None:
        if self.selection is Selection.PATTERN and not self.pattern:
            raise InputError("a road pattern needs at least one side", hint="e.g. pattern=BBP (B Banker, P Player)")
        if not 1 <= self.min_run <= 20:
            raise InputError(f"a run of {self.min_run} is outside 1–20", hint="e.g. streak3 waits for three in a row")
        if self.selection is Selection.COUNT and self.staking is not Staking.FLAT:
            raise InputError("a counting strategy bets flat", hint="write count:BET, e.g. count:dragon7")

    @property
    def progression(self) -> Progression:
        """The staking progression."""
        return Progression.of(self.staking)

    @property
    def bets(self) -> tuple[BetKind, ...]:
        """The bets the strategy may place, in a fixed order."""
        if self.selection in (Selection.FIXED, Selection.COUNT):
            return (self.bet,)
        return (BetKind.BANKER, BetKind.PLAYER)

    @property
    def name(self) -> str:
        """The strategy as text; :meth:`parse` reads it back."""
        if self.selection is Selection.COUNT:
            suffix = f"@{self.threshold:g}" if self.threshold else ""
            return f"count:{self.bet.value}{suffix}"
        if self.selection is Selection.FIXED:
            target = self.bet.value
        elif self.selection is Selection.PATTERN:
            target = "pattern=" + "".join(side.value[0].upper() for side in self.pattern)
        else:
            target = self.selection.value + (str(self.min_run) if self.min_run > 1 else "")
        return f"{self.staking.value}:{target}"

    @classmethod
    def parse(cls, text: str) -> Strategy:
        """Read ``STAKING[:TARGET]`` or ``count:BET[@THRESHOLD]``, or a registered strategy's name.

        TARGET is a bet id, ``streak``/``chop`` (with an optional run length, ``streak3``) or
        ``pattern=`` followed by B and P.

        >>> Strategy.parse("paroli:chop").name, Strategy.parse("flat").name
        ('paroli:chop', 'flat:banker')
        >>> Strategy.parse("labouchere")
        Traceback (most recent call last):
        ...
        baccarat.errors.InputError: unknown strategy 'labouchere' (stakings: flat, martingale, paroli, fibonacci, dalembert, 1326; targets: a bet id, streak, chop, streakN, chopN, pattern=BPP…; or count:BET, count:BET@THRESHOLD...)
        """
        cleaned = text.strip().lower()
        if cleaned in _REGISTRY:
            return _REGISTRY[cleaned]
        head, _, target = cleaned.partition(":")
        aliases = {"one_three_two_six": "1326", "1-3-2-6": "1326", "d'alembert": "dalembert"}
        head = aliases.get(head, head)
        try:
            if head == "count":
                bet_text, _, threshold = target.partition("@")
                return cls(
                    selection=Selection.COUNT,
                    bet=parse_bet_kind(bet_text),
                    threshold=float(threshold) if threshold else 0.0,
                )
            return _target(Staking(head), target or "banker")
        except (ValueError, InputError) as error:
            detail = f": {error}" if isinstance(error, InputError) else ""
            registered = f"; registered: {', '.join(_REGISTRY)}" if _REGISTRY else ""
            raise InputError(f"unknown strategy {text!r}{detail}", hint=_HINT + registered) from None


def _target(staking: Staking, text: str) -> Strategy:
    if text.startswith("pattern="):
        letters = text.removeprefix("pattern=").upper()
        sides = {"B": Side.BANKER, "P": Side.PLAYER}
        if not letters or any(letter not in sides for letter in letters):
            raise ValueError(text)
        return Strategy(staking=staking, selection=Selection.PATTERN, pattern=tuple(sides[x] for x in letters))
    for rule in (Selection.STREAK, Selection.CHOP):
        if text.startswith(rule.value):
            run = text.removeprefix(rule.value)
            return Strategy(staking=staking, selection=rule, min_run=int(run) if run else 1)
    return Strategy(staking=staking, bet=parse_bet_kind(text))


_REGISTRY: dict[str, Strategy] = {}


def register_strategy(name: str, strategy: Strategy) -> None:
    """Register a named strategy (a plug-in): :meth:`Strategy.parse` and the CLI then accept ``name``.

    >>> register_strategy("dragon-chaser", Strategy(selection=Selection.STREAK, min_run=4))
    >>> Strategy.parse("dragon-chaser").name
    'flat:streak4'
    """
    key = name.strip().lower()
    if not key or ":" in key:
        raise InputError(f"cannot register a strategy as {name!r}", hint="use a plain name without ':'")
    _REGISTRY[key] = strategy


def strategy_names() -> tuple[str, ...]:
    """The registered strategies' names."""
    return tuple(_REGISTRY)


def parse_oracle(text: str) -> tuple[BetKind, ...] | None:
    """Read ``oracle[:BET,BET…]``, the perfect-knowledge bound (:mod:`baccarat.sim.oracle`): its bets, ``()`` for
    every bet of the variant; ``None`` when ``text`` names another strategy.

    >>> parse_oracle("oracle:tie,banker_pair"), parse_oracle("oracle"), parse_oracle("flat")
    ((<BetKind.TIE: 'tie'>, <BetKind.BANKER_PAIR: 'banker_pair'>), (), None)
    """
    head, _, bets = text.strip().lower().partition(":")
    if head != "oracle":
        return None
    try:
        return tuple(dict.fromkeys(parse_bet_kind(bet.strip()) for bet in bets.split(",") if bet.strip()))
    except InputError as error:
        raise InputError(
            f"unknown strategy {text!r}: {error}", hint="write oracle or oracle:BET,BET (bet ids)"
        ) from None


_HINT = (
    "stakings: flat, martingale, paroli, fibonacci, dalembert, 1326; targets: a bet id, streak, chop, streakN,"
    " chopN, pattern=BPP…; or count:BET, count:BET@THRESHOLD"
)

#: Every system on the main bets the lab ships: none of them can win.
MAIN_BET_SYSTEMS: tuple[Strategy, ...] = (
    Strategy(),
    Strategy(bet=BetKind.PLAYER),
    Strategy(staking=Staking.MARTINGALE),
    Strategy(staking=Staking.PAROLI, bet=BetKind.PLAYER),
    Strategy(staking=Staking.FIBONACCI),
    Strategy(staking=Staking.DALEMBERT, bet=BetKind.PLAYER),
    Strategy(staking=Staking.ONE_THREE_TWO_SIX),
    Strategy(selection=Selection.STREAK),
    Strategy(selection=Selection.CHOP, staking=Staking.MARTINGALE),
    Strategy(selection=Selection.PATTERN, pattern=(Side.BANKER, Side.BANKER, Side.PLAYER)),
)
