"""The ``baccarat`` command line. Each command module registers itself on the shared Typer app."""

from __future__ import annotations

from baccarat.cli import engine_cmds  # noqa: F401  (registers deal, shoe)
from baccarat.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``baccarat`` console script."""
    app()
