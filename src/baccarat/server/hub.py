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
from collections import deque
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


#: Subscribers served per turn of the event loop when one event goes to many: the table's bets
#: are acknowledged between turns instead of waiting for the whole fan-out.
FAN_OUT_CHUNK = 50


class Hub:
    """Delivers serialized events to the subscribers of each table (in this process).

    An event for more than :data:`FAN_OUT_CHUNK` subscribers is handed out a chunk per turn of the
    event loop, events in order (each subscriber sees them in the order they were delivered).
    """

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscriber]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._outbox: deque[tuple[str, list[Subscriber]]] = deque()
        self._fanning: asyncio.Task[None] | None = None

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
        subscribers = list(self._subscribers.get(str(event.get("table")), ()))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or (len(subscribers) <= FAN_OUT_CHUNK and not self._outbox):
            self._put(text, subscribers)
            return
        self._outbox.append((text, subscribers))
        if self._fanning is None or self._fanning.done():
            self._fanning = loop.create_task(self._fan_out(), name="hub-fan-out")

    async def _fan_out(self) -> None:
        while self._outbox:
            text, subscribers = self._outbox[0]
            for start in range(0, len(subscribers), FAN_OUT_CHUNK):
                if start:
                    await asyncio.sleep(0)
                self._put(text, subscribers[start : start + FAN_OUT_CHUNK])
            self._outbox.popleft()

    def _put(self, text: str, subscribers: list[Subscriber]) -> None:
        for subscriber in subscribers:
            if subscriber.dropped:
                continue
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
