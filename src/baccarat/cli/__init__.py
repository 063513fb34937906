"""The ``baccarat`` command line: :data:`~baccarat.cli.app.app`, its commands each in a module of their own.

Importing this package loads no command: each is imported when it runs (see :data:`~baccarat.cli.app.COMMANDS`).
"""

from __future__ import annotations

from baccarat.cli.app import app, main

__all__ = ["app", "main"]
