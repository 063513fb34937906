"""Test hooks: named crash points that kill the process at a precise instant (for the crash test).

``BACCARAT_TEST_KILL_AT=point:n`` makes the process SIGKILL itself the ``n``-th time it reaches
``point``. Unset (always, outside tests), :func:`crash_point` does nothing.
"""

from __future__ import annotations

import os
import signal

__all__ = ["CRASH_POINTS", "crash_point"]

#: Every named point; the crash test picks among them.
CRASH_POINTS = (
    "round_opened",
    "bets_uncommitted",
    "bets_committed",
    "round_closed",
    "settle_uncommitted",
    "round_settled",
    "shoe_ended",
)

_state: dict[str, int] = {}


def crash_point(name: str) -> None:
    """Kill the process here if the environment asks for it (see the module doc)."""
    spec = os.environ.get("BACCARAT_TEST_KILL_AT")
    if not spec:
        return
    point, _, count = spec.partition(":")
    if name != point:
        return
    seen = _state[spec] = _state.get(spec, 0) + 1
    if seen >= (int(count) if count.isdigit() else 1):
        os.kill(os.getpid(), signal.SIGKILL)
