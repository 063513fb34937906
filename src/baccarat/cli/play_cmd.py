"""``baccarat play``: the terminal game, one player against the house (``--plain`` for line-by-line prompts)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from baccarat.cli.app import PANEL_PLAY, cli_errors, command
from baccarat.errors import InputError
from baccarat.play.save import NO_SAVED_GAME, default_save_path, farewell, save_session, session_from_text
from baccarat.play.session import DEFAULT_BANKROLL, GameSession, format_money, parse_money

__all__ = ["play"]


@command(PANEL_PLAY)
@cli_errors
def play(
    variant: Annotated[
        str | None,
        typer.Option(help="Variant to play, with any options (macau+lucky6; see `baccarat variants`); default macau."),
    ] = None,
    decks: Annotated[int | None, typer.Option(help="Decks in the shoe, 1–12; default 8.")] = None,
    bankroll: Annotated[
        str | None,
        typer.Option(
            metavar="AMOUNT", help=f"Money to start with, in currency units; default {format_money(DEFAULT_BANKROLL)}."
        ),
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Seed for reproducible shoes (integer or text).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the saved game.")] = False,
    save_file: Annotated[
        Path | None,
        typer.Option("--save-file", help="The save file (default: baccarat/play-session.json in your data directory)."),
    ] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not save the game.")] = False,
    plain: Annotated[
        bool, typer.Option("--plain", help="Line-by-line prompts on stdin/stdout instead of the full screen.")
    ] = False,
) -> None:
    """Play baccarat against the house: bets, chips, cards turned one by one, payouts and the roads.

    The game is saved after every coup and on quit; [bold]--resume[/] continues it. Without --resume a new game starts and replaces the saved one.
    Amounts are in currency units (5000 is 5,000.00). When standard input or output is not a terminal (a pipe, a script), the game plays line by line, as with --plain.

    Example: [bold]baccarat play --variant standard --bankroll 5000 --seed 7[/]
    """
    path = save_file or default_save_path()
    if resume:
        given = [
            name
            for name, value in (("--variant", variant), ("--decks", decks), ("--bankroll", bankroll), ("--seed", seed))
            if value is not None
        ]
        if given:
            raise InputError(
                f"{', '.join(given)} cannot change a resumed game",
                hint="resume with its own settings, or start a new game",
            )
        from baccarat.cli.files import read_text

        message, hint = NO_SAVED_GAME
        text = read_text(
            path,
            what="save file",
            hint="give a readable --save-file, or start a new game without --resume",
            missing=(message.format(path=path), hint),
        )
        session = session_from_text(text, source=str(path))
    else:
        session = GameSession(
            variant=variant or "macau",
            decks=8 if decks is None else decks,
            bankroll=DEFAULT_BANKROLL if bankroll is None else parse_money(bankroll, what="bankroll"),
            seed=seed,
        )
    save = None if no_save else (lambda s: save_session(s, path))
    if save is not None:
        save(session)
    saved_to = None if no_save else path
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if plain or not terminal:
        from baccarat.play.plain import run_plain

        if not plain:
            typer.echo("(not a terminal: playing line by line, as with --plain)", err=True)
        run_plain(
            session, lines=sys.stdin, output=sys.stdout, save=save, prompt="> " if terminal else "", saved_to=saved_to
        )
        return
    from baccarat.play.app import PlayApp

    game = PlayApp(session, save=save)
    game.run()
    if game.save_error is not None:
        raise game.save_error
    typer.echo(farewell(session, saved_to))
