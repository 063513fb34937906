"""The Typer application and the helpers every command shares.

The commands are listed in :data:`COMMANDS` and each lives in its own module, imported only when
that command runs (or its ``--help`` is asked for): ``baccarat --help`` and ``baccarat deal`` load
neither numpy, numba, Rich nor the server. Errors the engine raises on bad input, and the parser's
own (a missing option, a value of the wrong type), become one line on stderr and exit status 2,
never a traceback.
"""

from __future__ import annotations

import errno
import functools
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, NoReturn, ParamSpec, TypeVar

import typer
from typer._click.core import Context
from typer._click.exceptions import ClickException, UsageError
from typer.core import TyperCommand, TyperGroup

from baccarat import __version__
from baccarat.cli.help import command_help, help_width, panel
from baccarat.cli.messages import UnknownCommand, option_name, usage_error_message
from baccarat.cli.params import lighten, lighten_param
from baccarat.cli.text import BOLD, RED, Styled, colour_enabled, echo, wrap_words
from baccarat.errors import BaccaratError

if TYPE_CHECKING:
    from rich.console import Console

    from baccarat.rng import RandomSource

__all__ = [
    "COMMANDS",
    "PANEL_ENGINE",
    "PANEL_MATHEMATICS",
    "PANEL_PLAY",
    "PIPE_CLOSED",
    "CommandEntry",
    "StdoutClosed",
    "app",
    "cli_errors",
    "command",
    "console",
    "emit_json",
    "err_console",
    "fail",
    "main",
    "source_for_seed",
]

P = ParamSpec("P")
R = TypeVar("R")

#: The groups of ``baccarat --help``.
PANEL_PLAY = "Play and serve"
PANEL_ENGINE = "Cards, coups and scoreboards"
PANEL_MATHEMATICS = "Mathematics"

#: Exit status when the reader of standard output closed it early (``baccarat … | head -1``): 128 + SIGPIPE,
#: what a shell reports of git or any program that the closed pipe ends.
PIPE_CLOSED = 141

HELP = "Baccarat (百家樂) as played in Macau: deal, play, compute exact odds, simulate, read the roads, run a table."


class CommandEntry(NamedTuple):
    """A command of ``baccarat``: its name, the module that defines it, its help group and summary."""

    name: str
    module: str
    panel: str
    summary: str


#: Every command, in the order of ``baccarat --help``. The summary is the first line of the command's docstring.
COMMANDS: tuple[CommandEntry, ...] = (
    CommandEntry(
        "play",
        "baccarat.cli.play_cmd",
        PANEL_PLAY,
        "Play baccarat against the house: bets, chips, cards turned one by one, payouts and the roads.",
    ),
    CommandEntry(
        "serve",
        "baccarat.cli.server_cmds",
        PANEL_PLAY,
        "Run the table service: lobby, live tables over websockets, accounts and wallets.",
    ),
    CommandEntry(
        "verify",
        "baccarat.cli.server_cmds",
        PANEL_PLAY,
        "Check a round against the commitment published before its shoe (R37), computed here, not by the server.",
    ),
    CommandEntry(
        "deal",
        "baccarat.cli.deal_cmd",
        PANEL_ENGINE,
        "Deal consecutive coups from the given cards, in order (no shuffle, no burn), and settle any bets on each.",
    ),
    CommandEntry(
        "shoe",
        "baccarat.cli.engine_cmds",
        PANEL_ENGINE,
        "Shuffle, cut, burn and deal a whole shoe with the full casino procedure.",
    ),
    CommandEntry(
        "roads",
        "baccarat.cli.roads_cmd",
        PANEL_ENGINE,
        "Draw the scoreboards (路單) of a run of results: Bead Plate, Big Road, Big Eye Boy, Small Road, "
        "Cockroach Pig.",
    ),
    CommandEntry(
        "variants",
        "baccarat.cli.bets_cmds",
        PANEL_ENGINE,
        "List the variants, their bets, paytables and table limits.",
    ),
    CommandEntry(
        "odds",
        "baccarat.cli.odds_cmd",
        PANEL_MATHEMATICS,
        "Exact odds of every bet: ways over every ordered six-card deal, expected values, house edges.",
    ),
    CommandEntry(
        "advise",
        "baccarat.cli.advise_cmd",
        PANEL_MATHEMATICS,
        "Follow a shoe as it is dealt: the exact EV of every bet for the next coup, from the cards that remain.",
    ),
    CommandEntry(
        "simulate",
        "baccarat.cli.simulate_cmd",
        PANEL_MATHEMATICS,
        "Deal millions of shoes with the full procedure and measure outcomes, bets and betting systems.",
    ),
    CommandEntry(
        "count",
        "baccarat.cli.count_cmd",
        PANEL_MATHEMATICS,
        "Counting systems for the side bets: tags fitted to the exact effects of removal, exact indices, win rates.",
    ),
)

_ENTRIES = {entry.name: entry for entry in COMMANDS}


class _Light:
    """A group or command whose values are read by :func:`~baccarat.cli.params.lighten`'s converters
    and whose flags (``--json``, ``-h, --help``) are shown without a type."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        lighten(self)

    def get_help_option(self, ctx: Context) -> Any:
        """``-h, --help``, shown as a flag."""
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            lighten_param(option)
        return option


class LazyGroup(_Light, TyperGroup):
    """The ``baccarat`` group: a command's module is imported the first time the command is needed,
    and the group's own help is drawn from :data:`COMMANDS` without importing any of them."""

    def list_commands(self, ctx: Context) -> list[str]:
        """Every command, in the order of :data:`COMMANDS`."""
        return [entry.name for entry in COMMANDS] + [name for name in self.commands if name not in _ENTRIES]

    def get_command(self, ctx: Context, cmd_name: str) -> Any:
        """The command ``cmd_name``, its module imported (and its commands registered) first if need be."""
        if cmd_name not in self.commands and cmd_name in _ENTRIES:
            importlib.import_module(_ENTRIES[cmd_name].module)
            for info in app.registered_commands:
                assert info.callback is not None
                name = info.name or typer.main.get_command_name(info.callback.__name__)
                if name not in self.commands:
                    self.commands[name] = typer.main.get_command_from_info(
                        info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
                    )
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: Context, args: list[str]) -> Any:
        """The command named by ``args[0]``; an unknown name is refused with the nearest names."""
        if args and args[0] not in _ENTRIES and args[0] not in self.commands and not args[0].startswith("-"):
            from difflib import get_close_matches

            close = get_close_matches(args[0], list(_ENTRIES))
            hint = f"did you mean {' or '.join(close)}?" if close else "see baccarat --help for the commands"
            raise UnknownCommand(f"there is no command {args[0]!r}", hint=hint, ctx=ctx)
        return super().resolve_command(ctx, args)

    def format_help(self, ctx: Context, formatter: Any) -> None:
        """``baccarat --help``: usage, options and the commands by group (drawn here, without Rich)."""
        formatter.write(root_help(ctx.get_usage()))

    def make_context(self, info_name: str | None, args: list[str], parent: Context | None = None, **extra: Any) -> Any:
        """The group's context (``--help`` and ``--version`` print while it is made), a closed stdout passed on to :func:`main`."""
        with _stdout_closed_to_main():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        """Run the command, a closed stdout passed on to :func:`main`."""
        with _stdout_closed_to_main():
            return super().invoke(ctx)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; the parser's errors are printed in the commands' own style (exit status 2)."""
        try:
            result = super().main(
                args, prog_name, complete_var, standalone_mode=False, windows_expand_args=windows_expand_args, **extra
            )
        except typer.Abort:
            if not standalone_mode:
                raise
            echo(Styled("aborted", RED), stream=sys.stderr)
            sys.exit(1)
        except ClickException as error:
            if not standalone_mode:
                raise
            if error.__class__.__name__ == "NoArgsIsHelpError":
                sys.stdout.write(error.format_message().rstrip("\n") + "\n")
                sys.exit(error.exit_code)
            fail_now(usage_error_message(error), code=error.exit_code)
        if standalone_mode:
            sys.exit(result if isinstance(result, int) else 0)
        return result


def root_help(usage: str) -> str:
    """The usage, the description, the options and every command in its group, fitted to the terminal."""
    width = help_width()
    colour = colour_enabled(sys.stdout)
    lines = [" " + Styled(usage, BOLD).render(colour=colour), ""]
    lines += [" " + line.render(colour=colour) for line in wrap_words(HELP, width - 2)]
    lines.append("")
    options = [("--version", "Show the version and exit."), ("-h, --help", "Show this message and exit.")]
    lines += panel("Options", options, width, colour)
    for group in (PANEL_PLAY, PANEL_ENGINE, PANEL_MATHEMATICS):
        lines += panel(group, [(e.name, e.summary) for e in COMMANDS if e.panel == group], width, colour)
    more = Styled(" Run ").plus("baccarat COMMAND --help", BOLD).plus(" for a command's options and examples.")
    lines.append(more.render(colour=colour))
    return "\n".join(lines) + "\n"


class BaccaratCommand(_Light, TyperCommand):
    """A ``baccarat`` command (values and flags as :class:`_Light` reads and shows them): its help is drawn
    by :func:`~baccarat.cli.help.command_help`, and an option given twice that takes one value is refused."""

    def format_help(self, ctx: Context, formatter: Any) -> None:
        """``baccarat COMMAND --help``, laid out for the terminal's width."""
        formatter.write(command_help(ctx, self))

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        """Parse the command line, refusing an option repeated where it takes one value (the last would win unseen)."""
        if not ctx.resilient_parsing:
            _refuse_repeats(ctx, self.make_parser(ctx).parse_args(args=list(args))[2])
        return super().parse_args(ctx, args)


def _refuse_repeats(ctx: Context, order: list[Any]) -> None:
    """A usage error for the first option of ``order`` (as parsed, in order) given twice that takes one value."""
    seen: set[str] = set()
    for param in order:
        name = param.name or ""
        takes_several = any(getattr(param, key, False) for key in ("multiple", "count", "is_eager"))
        if param.param_type_name != "option" or takes_several:
            continue
        if name in seen:
            written = option_name(param)
            raise UsageError(f"{written} is given more than once: give it once, with the value you mean", ctx=ctx)
        seen.add(name)


def command(panel: str, name: str | None = None) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Register a command of ``baccarat`` in help group ``panel`` (it must be listed in :data:`COMMANDS`)."""
    return app.command(name, cls=BaccaratCommand, rich_help_panel=panel)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"baccarat {__version__}")
        raise typer.Exit()


app = typer.Typer(
    name="baccarat",
    cls=LazyGroup,
    help=HELP,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """The ``baccarat`` command line."""


class StdoutClosed(Exception):
    """Standard output was closed by its reader (``baccarat … | head -1``): raised past the parser's own
    handling of a broken pipe (which would exit 1) to :func:`main`."""


@contextmanager
def _stdout_closed_to_main() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError as error:
        raise StdoutClosed from error


def main() -> None:
    """Entry point of the ``baccarat`` console script.

    A reader that closes standard output early (``baccarat shoe | head -1``) ends the command
    quietly, with status :data:`PIPE_CLOSED` (141), as git does: no message, no traceback, and
    nothing written at exit to the closed pipe. This is the one place that handles it.
    """
    try:
        try:
            app()
        finally:
            sys.stdout.flush()
    except (BrokenPipeError, StdoutClosed):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # what is still buffered goes nowhere
        sys.exit(PIPE_CLOSED)


def _rich_console(*, stderr: bool) -> Console:
    """A Rich console whose closed stream raises :class:`BrokenPipeError` for :func:`main` (Rich's own
    handling would exit 1)."""
    from rich.console import Console

    class PipeConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError(errno.EPIPE, "the reader closed the pipe")

    return PipeConsole(stderr=stderr)


@functools.cache
def console() -> Console:
    """Rich's console on stdout, for the commands that draw with Rich (imported on first use)."""
    return _rich_console(stderr=False)


@functools.cache
def err_console() -> Console:
    """Rich's console on stderr (progress bars)."""
    return _rich_console(stderr=True)


def fail_now(message: str, *, code: int = 2) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code``."""
    echo(Styled("error:", f"{BOLD};{RED}").plus(f" {message}"), stream=sys.stderr)
    sys.exit(code)


def fail(message: str) -> typer.Exit:
    """Print an error on stderr and return the ``Exit(2)`` to raise."""
    echo(Styled("error:", f"{BOLD};{RED}").plus(f" {message}"), stream=sys.stderr)
    return typer.Exit(code=2)


def cli_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn the engine's input errors into a clear message and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except BaccaratError as error:
            raise fail(str(error)) from None

    return wrapper


def emit_json(data: Any) -> None:
    """Print JSON on stdout (plain print: no wrapping, no markup)."""
    import json

    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def source_for_seed(seed: str | None) -> RandomSource:
    """A seeded source for ``--seed`` (digits are an integer seed, other text is hashed), else the secure one."""
    from baccarat.rng import SecureSource, SeededSource

    if seed is None:
        return SecureSource()
    return SeededSource(int(seed) if seed.isdigit() else seed)
