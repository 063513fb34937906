"""What every repository of the store shares: the engine, its dialect and the NOTIFY channel.

A repository method that takes a :class:`~sqlalchemy.Connection` writes (or reads) inside the
caller's transaction (the group commit of :meth:`Store.commit_table`); every other public method
runs in a transaction of its own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Engine, text
from sqlalchemy.dialects import postgresql, sqlite

from baccarat.server.notes import event_notes

__all__ = ["Database", "dumps"]


class Database:
    """The engine and what the repositories over it share."""

    def __init__(self, engine: Engine, *, channel: str | None = None) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        #: PostgreSQL NOTIFY channel on which stored events are announced (``None``: no NOTIFY).
        self.channel = channel
        #: the process whose store this is, as its notes name it (its own listener skips them: the
        #: process delivers what it stored itself)
        self.sender: str | None = None

    def insert(self, table: Any) -> Any:
        """An ``INSERT`` of the dialect (with ``ON CONFLICT`` clauses)."""
        return (postgresql.insert if self.postgres else sqlite.insert)(table)

    def insert_ignore(self, conn: Connection, table: Any, values: dict[str, Any]) -> None:
        """Insert a row unless it conflicts with a stored one."""
        conn.execute(self.insert(table).values(**values).on_conflict_do_nothing())

    def notify(self, conn: Connection, *payloads: str) -> None:
        """Announce each payload on the channel when the transaction commits (nothing without one)."""
        if self.channel and payloads:
            conn.execute(text("SELECT pg_notify(:c, :p)"), [{"c": self.channel, "p": p} for p in payloads])

    def announce(self, conn: Connection, event_ids: Sequence[int]) -> None:
        """Announce stored events to the other processes when the transaction commits, in a few
        notes (:func:`~baccarat.server.notes.event_notes`; nothing without a channel)."""
        if self.channel and event_ids:
            self.notify(conn, *event_notes(event_ids, sender=self.sender))


def dumps(payload: dict[str, Any]) -> str:
    """Compact JSON, as stored.

    >>> dumps({"a": 1, "b": "é"})
    '{"a":1,"b":"é"}'
    """
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
