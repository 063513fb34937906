"""Ended sessions, across processes and over time: a thread that LISTENs (PostgreSQL) for the
sessions other processes end, and the task that deletes expired and idle sessions.

A note ``t:<token hash>`` ends one session, ``u:<user id>`` every session of a user
(:mod:`baccarat.server.store.sessions` sends them when the transaction that deletes the rows commits).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from baccarat.server.api.context import AppContext, Sessions
from baccarat.server.hub import ChannelListener
from baccarat.server.store.sessions import revocation_channel

__all__ = ["PRUNE_SECONDS", "REFRESH_SECONDS", "RevocationListener", "apply_note", "prune_sessions", "refresh_sessions"]

log = logging.getLogger("baccarat.server")

#: How often expired and idle sessions are deleted (seconds).
PRUNE_SECONDS = 300.0
#: How often the sessions trusted from memory are looked up together (seconds).
REFRESH_SECONDS = 0.5


def apply_note(sessions: Sessions, note: str) -> None:
    """Forget the sessions a note ends.

    >>> class Seen:
    ...     listeners, cache = [], None
    ...     def revoked(self, digest=None, user_id=None): print(digest, user_id)
    >>> apply_note(Seen(), "u:7"), apply_note(Seen(), "t:ab12"), apply_note(Seen(), "x")
    None 7
    ab12 None
    (None, None, None)
    """
    kind, _, rest = note.partition(":")
    if kind == "u" and rest.isdigit():
        sessions.revoked(None, int(rest))
    elif kind == "t" and rest and all(c in "0123456789abcdef" for c in rest):
        sessions.revoked(rest, None)


class RevocationListener(ChannelListener):
    """A thread that LISTENs on the sessions channel and applies each note on the app's loop."""

    name = "pg-sessions"

    def __init__(self, *, conninfo: str, channel: str, sessions: Sessions, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(conninfo=conninfo, channel=revocation_channel(channel))
        self.sessions = sessions
        self.loop = loop

    def connected(self) -> None:
        """Notes missed while not listening: trust nothing cached."""
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.sessions.cache.drop_where, lambda _: True)

    def handle(self, payload: str) -> None:
        """A session-ending note, applied on the app's loop."""
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(apply_note, self.sessions, payload)


async def refresh_sessions(context: AppContext) -> None:
    """Look up the sessions trusted from memory, all in one query, every :data:`REFRESH_SECONDS`
    (real time: the cache's own)."""
    while True:
        with contextlib.suppress(Exception):
            await context.sessions.refresh()
        await asyncio.sleep(REFRESH_SECONDS)


async def prune_sessions(context: AppContext) -> None:
    """Delete expired and idle sessions every :data:`PRUNE_SECONDS` (on the service's clock)."""
    service = context.service
    while True:
        with contextlib.suppress(Exception):
            gone = await service.write(service.store.accounts.sessions.prune, idle=context.policy.session_idle_seconds)
            if gone:
                log.info("pruned %d ended sessions", gone)
        await service.clock.sleep(PRUNE_SECONDS)
