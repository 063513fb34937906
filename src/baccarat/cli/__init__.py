"""The ``baccarat`` command line. Each command module registers itself on the shared Typer app."""

from __future__ import annotations

from baccarat.cli import (  # noqa: F401  (importing a command module registers its commands)
    bets_cmds,
    engine_cmds,
    odds_cmd,
    play_cmd,
    roads_cmd,
    server_cmds,
    simulate_cmd,
)
from baccarat.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``baccarat`` console script."""
    app()
