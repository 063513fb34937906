"""Fan-out of table events to websocket clients, within one process and across processes.

Every stored event is announced after its transaction commits: in-process with SQLite, and with
PostgreSQL by ``NOTIFY`` (sent inside the transaction, so it is delivered only on commit) to every
server process, each of which listens on the channel and delivers to its own clients. Transient
messages (the countdown, running totals) take the same path without being stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Hub", "PgListener", "Subscriber"]

log = logging.getLogger("baccarat.server.hub")


@dataclass(eq=False)
class Subscriber:
    """One websocket client following a table; messages wait in a bounded queue."""

    table_id: str
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=1000))
    dropped: bool = False


class Hub:
    """Delivers serialized events to the subscribers of each table (in this process)."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscriber]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    def subscribe(self, table_id: str) -> Subscriber:
        """Follow a table."""
        subscriber = Subscriber(table_id)
        self._subscribers.setdefault(table_id, set()).add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Stop following."""
        self._subscribers.get(subscriber.table_id, set()).discard(subscriber)

    def count(self, table_id: str) -> int:
        """How many clients of this process follow a table."""
        return len(self._subscribers.get(table_id, ()))

    def deliver(self, event: dict[str, Any]) -> None:
        """Queue an event for every subscriber of its table (a client too slow to keep up is dropped)."""
        text = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
        for subscriber in list(self._subscribers.get(str(event.get("table")), ())):
            try:
                subscriber.queue.put_nowait(text)
            except asyncio.QueueFull:
                subscriber.dropped = True
                self.unsubscribe(subscriber)

    def deliver_threadsafe(self, event: dict[str, Any]) -> None:
        """:meth:`deliver` from another thread."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.deliver, event)


class PgListener:
    """A thread that LISTENs on the PostgreSQL channel and hands each announced event to the hub."""

    def __init__(
        self,
        *,
        conninfo: str,
        channel: str,
        fetch: Callable[[int], dict[str, Any] | None],
        hub: Hub,
        control: Callable[[str], None] | None = None,
    ) -> None:
        self.conninfo = conninfo
        #: called (on the hub's loop) with the other notes: ``i:<table>`` (an intent), ``a:<id>`` (its answer)
        self.control = control
        self.channel = channel
        self.fetch = fetch
        self.hub = hub
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pg-listen", daemon=True)

    def start(self) -> None:
        """Start listening; returns once the LISTEN is in place (or after 10 s)."""
        self._thread.start()
        self._ready.wait(10)

    def stop(self) -> None:
        """Stop listening."""
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f'LISTEN "{self.channel}"')
                    self._ready.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._handle(note.payload)
            except Exception as error:  # reconnect after a dropped connection
                log.warning("LISTEN connection lost (%s); reconnecting", type(error).__name__)
                self._ready.set()
                self._stop.wait(1.0)

    def _handle(self, payload: str) -> None:
        if payload.startswith("{"):
            with contextlib.suppress(ValueError):
                self.hub.deliver_threadsafe(json.loads(payload))
            return
        if payload[:2] in ("i:", "a:"):
            loop = self.hub.loop
            if self.control is not None and loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self.control, payload)
            return
        if payload.isdigit():
            event = self.fetch(int(payload))
            if event is not None:
                self.hub.deliver_threadsafe(event)
