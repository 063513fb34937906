"""The Typer application and the helpers every command shares.

Each command lives in its own module and registers itself on :data:`app`; errors the engine
raises on bad input become a message on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from baccarat.errors import BaccaratError
from baccarat.rng import RandomSource, SecureSource, SeededSource

__all__ = [
    "PANEL_ENGINE",
    "PANEL_MATHEMATICS",
    "PANEL_PLAY",
    "app",
    "cli_errors",
    "console",
    "emit_json",
    "err_console",
    "fail",
    "source_for_seed",
]

#: The groups of ``baccarat --help``.
PANEL_PLAY = "Play and serve"
PANEL_ENGINE = "Cards, coups and scoreboards"
PANEL_MATHEMATICS = "Mathematics"

app = typer.Typer(
    name="baccarat",
    help="Baccarat (百家樂) as played in Macau: deal, play, compute exact odds, simulate, read the roads, run a table.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode="rich",
)
console = Console()
err_console = Console(stderr=True)

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str) -> typer.Exit:
    """Print an error on stderr and return the ``Exit(2)`` to raise."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, markup=True, soft_wrap=True)
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
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def source_for_seed(seed: str | None) -> RandomSource:
    """A seeded source for ``--seed`` (digits are an integer seed, other text is hashed), else the secure one."""
    if seed is None:
        return SecureSource()
    return SeededSource(int(seed) if seed.isdigit() else seed)
