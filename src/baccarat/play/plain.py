"""The game as line-by-line prompts on stdin/stdout, for scripts and screen readers (``baccarat play --plain``).

Every line is one command; the answer is plain text (colour only on a terminal). Bad input gets a
message that says what was wrong and how to fix it, and changes nothing.

>>> import io
>>> out = io.StringIO()
>>> run_plain(GameSession(seed="3"), lines=io.StringIO("bet banker 100\\nbalance\\nquit\\n"), output=out, prompt="")
>>> print(out.getvalue().strip())
Baccarat 百家樂: Macau 澳門百家樂, 8 decks.
Balance 10,000. Type help for the rules and commands, quit to leave.
Banker 莊: 100 on the table
Balance 9,900; on the table 100 (banker 100)
Balance 9,900 and 100 on the table (+0 this session). The game was not saved. Goodbye.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from rich.console import Console
from rich.text import Text

from baccarat.bets import BetKind, parse_bet_kind
from baccarat.errors import BaccaratError, InputError
from baccarat.play.render import render_cards
from baccarat.play.rules import rules_renderable, spot_rows
from baccarat.play.save import farewell
from baccarat.play.session import CoupRecord, GameSession, format_money, parse_money, player_message, reveal_steps
from baccarat.road_render import render_scoreboard
from baccarat.settlement import BetResult

__all__ = ["COMMANDS", "PlainGame", "run_plain"]

#: The commands of the plain mode and what they do.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("bet KIND [AMOUNT]", "put AMOUNT (default: the chip in hand) on a bet: bet banker 100, bet 莊對 10"),
    ("deal", "no more bets: deal the coup and settle it"),
    ("undo", "take back the last chips placed"),
    ("rebet", "put back the bets of the last coup"),
    ("clear", "take back every bet on the table"),
    ("chip [AMOUNT]", "show the chips, or take the chip of AMOUNT in hand"),
    ("add [AMOUNT]", "add funds to your balance: AMOUNT, or what you started with"),
    ("balance", "your balance and your bets"),
    ("bets", "the bet spots, their payouts and limits"),
    ("roads", "the Big Road and the derived roads of the shoe"),
    ("history", "the coups played"),
    ("shoe", "cards left and the cut card"),
    ("help", "the rules, the drawing table and these commands"),
    ("save", "save the game now (it is saved after every coup and on quit too)"),
    ("quit", "save and leave"),
)

_NAMES = tuple(command.split()[0] for command, _ in COMMANDS)


class PlainGame:
    """The plain mode's command interpreter over a :class:`GameSession`; ``save`` is called after every
    coup, on ``save`` and on quit."""

    def __init__(
        self,
        session: GameSession,
        *,
        console: Console,
        save: Callable[[GameSession], None] | None = None,
        saved_to: Path | None = None,
    ) -> None:
        self.session = session
        self.console = console
        self._save = save
        self._saved_to = saved_to if save is not None else None

    def say(self, text: str | Text) -> None:
        """Print one answer."""
        self.console.print(text, highlight=False, markup=False, soft_wrap=True)

    def welcome(self) -> None:
        """The first lines: the variant, the balance and how to get help."""
        variant = self.session.variant
        self.say(f"Baccarat 百家樂: {variant.title} {variant.title_zh}, {self.session.config.shoe.decks} decks.")
        self.say(f"Balance {format_money(self.session.balance)}. Type help for the rules and commands, quit to leave.")

    def handle(self, line: str) -> bool:
        """Run one command line; ``False`` once the player quits."""
        words = line.split()
        if not words:
            return True
        command, args = words[0].casefold(), words[1:]
        try:
            return self._run(command, args)
        except BaccaratError as error:
            self.say(f"error: {player_message(error, funds_hint='bet less, or type add to add funds')}")
            return True

    def save(self) -> None:
        """Save the session, if the game has a save file."""
        if self._save is not None:
            self._save(self.session)

    # --- commands ---------------------------------------------------------------------------------

    def _run(self, command: str, args: list[str]) -> bool:
        session = self.session
        if command in ("quit", "exit", "q"):
            self.save()
            self.say(farewell(self.session, self._saved_to) + " Goodbye.")
            return False
        if command == "bet":
            self._bet(args)
        elif command == "deal":
            self._no_args(command, args)
            self._show_coup(session.deal())
            self.save()
        elif command == "undo":
            self._no_args(command, args)
            group = session.undo()
            self.say("Took back " + ", ".join(f"{kind.value} {format_money(stake)}" for kind, stake in group))
            self._balance()
        elif command == "rebet":
            self._no_args(command, args)
            group = session.rebet()
            self.say("Bets back: " + ", ".join(f"{kind.value} {format_money(stake)}" for kind, stake in group))
            self._balance()
        elif command == "clear":
            self._no_args(command, args)
            self.say(f"Took back {format_money(session.clear())}")
            self._balance()
        elif command == "chip":
            self._chip(args)
        elif command == "add":
            self._add(args)
        elif command == "balance":
            self._no_args(command, args)
            self._balance()
        elif command == "bets":
            self._no_args(command, args)
            self._spots()
        elif command == "roads":
            self._no_args(command, args)
            self.console.print(render_scoreboard(session.board))
        elif command == "history":
            self._no_args(command, args)
            self._history()
        elif command == "shoe":
            self._no_args(command, args)
            self.say("; ".join(session.shoe_status().describe()))
        elif command == "help":
            self.console.print(rules_renderable(session.config, keys=COMMANDS))
        elif command == "save":
            self._no_args(command, args)
            if self._save is None:
                raise InputError("this game has no save file", hint="start it without --no-save")
            self.save()
            self.say("Saved.")
        else:
            raise InputError(f"unknown command {command!r}", hint=f"commands: {', '.join(_NAMES)}; help explains them")
        return True

    @staticmethod
    def _no_args(command: str, args: list[str]) -> None:
        if args:
            raise InputError(f"{command} takes nothing after it, not {' '.join(args)!r}", hint=f"type just {command}")

    def _bet(self, args: list[str]) -> None:
        if not args:
            raise InputError("bet needs a bet and an amount", hint="e.g. bet banker 100, or bet tie (the chip in hand)")
        amount: int | None = None
        if len(args) > 1 and not _is_bet(" ".join(args)):
            amount = parse_money(args[-1])
            args = args[:-1]
        self.session.place(" ".join(args), amount)
        kind = self.session.undo_stack[-1][0][0]
        self.say(f"{kind.label}: {format_money(self.session.bets[kind])} on the table")

    def _chip(self, args: list[str]) -> None:
        session = self.session
        if len(args) > 1:
            raise InputError("chip takes one amount", hint="e.g. chip 500")
        if args:
            value = parse_money(args[0])
            if value not in session.chips:
                raise InputError(
                    f"there is no chip of {format_money(value)}",
                    hint=f"chips: {', '.join(format_money(c) for c in session.chips)}",
                )
            session.select_chip(session.chips.index(value))
        chips = ", ".join(f"[{format_money(c)}]" if c == session.chip else format_money(c) for c in session.chips)
        self.say(f"Chips {chips}; in hand {format_money(session.chip)}")

    def _add(self, args: list[str]) -> None:
        if len(args) > 1:
            raise InputError("add takes one amount", hint="e.g. add 1000, or just add")
        amount = parse_money(args[0]) if args else self.session.start
        self.session.add_funds(amount)
        self.say(f"Added {format_money(amount)}.")
        self._balance()

    def _balance(self) -> None:
        session = self.session
        bets = ", ".join(f"{kind.value} {format_money(stake)}" for kind, stake in session.bets.items())
        on_table = f"; on the table {format_money(session.on_table)} ({bets})" if bets else "; no bets on the table"
        self.say(f"Balance {format_money(session.balance)}{on_table}")

    def _spots(self) -> None:
        for kind, pays, limits in spot_rows(self.session.config):
            stake = self.session.bets.get(kind)
            mine = f"; your bet {format_money(stake)}" if stake else ""
            self.say(f"{kind.value} ({kind.label}): pays {pays}; limits {limits}{mine}")

    def _history(self) -> None:
        if not self.session.history:
            self.say("No coups yet.")
            return
        for record in self.session.history[-20:]:
            self.say(_coup_line(record))

    def _show_coup(self, record: CoupRecord) -> None:
        for step in reveal_steps(record.result):
            line = Text(f"{step.position.label}: ")
            line.append_text(render_cards((step.card,)))
            self.say(line)
            for reason in step.reasons:
                self.say(f"  {reason}")
        self.say(_coup_line(record))
        for s in record.settlements:
            self.say(f"  {_settlement_text(s.kind, s.stake, s.result, s.returned - s.stake - s.owed, s.commission)}")
        if record.settlements:
            sign = "+" if record.net >= 0 else ""
            self.say(f"Balance {format_money(self.session.balance)} ({sign}{format_money(record.net)})")
        if record.last:
            self.say("That was the last coup of the shoe: the next coup comes from a new shoe.")
        if self.session.out_of_money:
            session = self.session
            self.say(
                f"You have {format_money(session.balance)}, less than the smallest bet "
                f"({format_money(session.smallest_bet)}): type add to add {format_money(session.start)}, or quit."
            )


def _is_bet(text: str) -> bool:
    try:
        parse_bet_kind(text)
    except InputError:
        return False
    return True


def _coup_line(record: CoupRecord) -> Text:
    result = record.result
    line = Text(f"Shoe {record.shoe_number} coup {record.coup_number}: Player {result.player.total} (")
    line.append_text(render_cards(result.player.cards))
    line.append(f"), Banker {result.banker.total} (")
    line.append_text(render_cards(result.banker.cards))
    winner = result.winner.value.capitalize()
    line.append(f"): {'Tie' if winner == 'Tie' else winner + ' wins'}")
    if record.settlements:
        line.append(f", you {'+' if record.net >= 0 else ''}{format_money(record.net)}")
    return line


def _settlement_text(kind: BetKind, stake: int, result: BetResult, net: int, commission: int) -> str:
    text = f"{kind.value} {format_money(stake)}: {result.value}"
    if result is BetResult.WIN:
        text += f" +{format_money(net)}"
        if commission:
            text += f" (commission {format_money(commission)})"
    elif result is BetResult.LOSE:
        text += f" -{format_money(stake)}"
    elif result is BetResult.PUSH:
        text += ", stake returned"
    return text


def run_plain(
    session: GameSession,
    *,
    lines: IO[str] | Iterable[str],
    output: IO[str],
    save: Callable[[GameSession], None] | None = None,
    prompt: str = "> ",
    saved_to: Path | None = None,
) -> None:
    """Read commands from ``lines`` until ``quit`` or the end of input (which saves too); ``saved_to``
    is where ``save`` writes, for the last words."""
    console = Console(file=output, highlight=False, soft_wrap=True, emoji=False)
    game = PlainGame(session, console=console, save=save, saved_to=saved_to)
    game.welcome()
    for line in _prompted(lines, output, prompt):
        if not game.handle(line):
            return
    game.save()


def _prompted(lines: IO[str] | Iterable[str], output: IO[str], prompt: str) -> Iterable[str]:
    iterator = iter(lines.readline, "") if hasattr(lines, "readline") else iter(lines)
    while True:
        if prompt:
            output.write(prompt)
            output.flush()
        line = next(iterator, None)
        if line is None:
            return
        yield line
