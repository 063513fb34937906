"""Progress on standard error for the computations that take more than a moment.

A command whose work can last more than a second shows, while it lasts, what it is doing and the
time elapsed (a bar where the work is counted: ``simulate``), on standard error and only when
standard error is a terminal; the line is gone once the work is done. Redirected to a file or a
pipe, standard error gets nothing from here, so that ``--json`` output and logs stay clean.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["shows_progress", "working"]


def shows_progress() -> bool:
    """Whether progress is shown: standard error is a terminal (Rich's test, which also honours ``TERM=dumb``)."""
    isatty = getattr(sys.stderr, "isatty", None)
    if not (isatty and isatty()):
        return False
    from baccarat.cli.app import err_console

    return err_console().is_terminal


@contextmanager
def working(label: str) -> Iterator[None]:
    """While the block runs: a spinner, ``label`` and the time elapsed on stderr, when :func:`shows_progress`."""
    if not shows_progress():
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from baccarat.cli.app import err_console

    columns = (SpinnerColumn(), TextColumn(label.replace("[", r"\[")), TimeElapsedColumn())
    with Progress(*columns, console=err_console(), transient=True) as progress:
        progress.add_task(label, total=None)
        yield
