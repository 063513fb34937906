"""Fan-out of a table's messages to websocket clients, within one process and across processes.

Every stored event is delivered after its transaction commits: by the process that stored it to
its own clients at once, and with PostgreSQL to the other server processes by ``NOTIFY`` (a note
per commit, sent inside the transaction, so it is delivered only on commit;
:mod:`baccarat.server.notes`), each of which listens on the channel, reads the commit's events in
one query and delivers them to its own clients. The hub turns a stored event into its public
message, for everyone who follows the table, and its private messages, for every connection of
each bettor it concerns (:mod:`baccarat.server.observer.messages`). Messages that are not stored
(the countdown, a bettor's accepted bets) reach the other processes as JSON notes. Each message
is encoded once, and the same :class:`~baccarat.server.frames.Outbound` goes to every subscriber
it is for (the connections that write their own frames share its one frame too).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from baccarat.server.frames import Outbound
from baccarat.server.notes import Private, sent_by
from baccarat.server.observer import messages

__all__ = ["FAN_OUT_CHUNK", "ChannelListener", "Hub", "PgListener", "Subscriber"]

log = logging.getLogger("baccarat.server.hub")


@dataclass(eq=False)
class Subscriber:
    """One websocket client following a table; messages wait in a bounded queue. ``name`` is the
    bettor name of the user once the connection has authenticated (:meth:`Hub.authenticate`)."""

    table_id: str
    queue: asyncio.Queue[Outbound] = field(default_factory=lambda: asyncio.Queue(maxsize=1000))
    dropped: bool = False
    name: str | None = None
    #: called once, at once, when the hub drops the subscriber for falling behind (its connection
    #: then tells the client why and closes)
    on_drop: Callable[[], None] | None = None


#: Subscribers served per turn of the event loop when one event goes to many: the table's bets
#: are acknowledged between turns instead of waiting for the whole fan-out.
FAN_OUT_CHUNK = 50


class _Delivery:
    """Messages for the subscribers of one table, in order: each public one for every subscriber,
    each private one for the connections of its bettor."""

    __slots__ = ("names", "parts", "public", "table_id")

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.parts: list[tuple[Outbound | None, dict[str, list[Outbound]]]] = []
        self.public = False  # whether any message is for every subscriber
        self.names: set[str] = set()  # the bettors some message is for

    def add(self, public: Outbound | None, private: Iterable[Private]) -> _Delivery:
        """Add a public message (or ``None``) and then private ones (each encoded once)."""
        mine: dict[str, list[Outbound]] = {}
        for name, message in private:
            mine.setdefault(name, []).append(Outbound(messages.encode(message)))
        if public is not None or mine:
            self.parts.append((public, mine))
            self.public = self.public or public is not None
            self.names.update(mine)
        return self

    def messages_for(self, name: str | None) -> Iterator[Outbound]:
        """What a subscriber (of bettor ``name``, or of nobody) gets, in order."""
        for public, mine in self.parts:
            if public is not None:
                yield public
            if name is not None and name in mine:
                yield from mine[name]


class Hub:
    """Delivers a table's messages to the subscribers of this process: public ones to every
    subscriber of the table, private ones to every subscriber of one bettor at the table.

    What one commit stored (or one note brought) is one delivery: each subscriber gets all of its
    messages in one go, in order, so that its connection writes them together. A delivery for
    more than :data:`FAN_OUT_CHUNK` subscribers is handed out a chunk per turn of the event loop;
    deliveries are handed out in the order made (one that would overtake one still being handed
    out waits its turn).

    >>> hub = Hub()
    >>> ann, bob = hub.subscribe("t"), hub.subscribe("t")
    >>> hub.authenticate(ann, "ann")
    >>> hub.tell("t", [("ann", {"type": "my_funds", "id": 1, "table": "t", "round_id": None, "ts": 1.0, "amount": 5})])
    >>> ann.queue.qsize(), bob.queue.qsize()
    (1, 0)
    """

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscriber]] = {}
        self._bettors: dict[str, dict[str, set[Subscriber]]] = {}  # table -> bettor name -> connections
        self.loop: asyncio.AbstractEventLoop | None = None
        self._outbox: deque[tuple[_Delivery, list[Subscriber]]] = deque()
        self._fanning: asyncio.Task[None] | None = None

    # --- subscribers ----------------------------------------------------------------------------

    def subscribe(self, table_id: str) -> Subscriber:
        """Follow a table."""
        subscriber = Subscriber(table_id)
        self._subscribers.setdefault(table_id, set()).add(subscriber)
        return subscriber

    def authenticate(self, subscriber: Subscriber, name: str | None) -> None:
        """The connection now belongs to bettor ``name`` (``None``: to nobody): from now on it also
        gets that bettor's private messages at its table."""
        self._forget_name(subscriber)
        subscriber.name = name
        if name is not None and subscriber in self._subscribers.get(subscriber.table_id, ()):
            self._bettors.setdefault(subscriber.table_id, {}).setdefault(name, set()).add(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Stop following."""
        self._subscribers.get(subscriber.table_id, set()).discard(subscriber)
        self._forget_name(subscriber)

    def _forget_name(self, subscriber: Subscriber) -> None:
        if subscriber.name is None:
            return
        named = self._bettors.get(subscriber.table_id, {})
        mine = named.get(subscriber.name)
        if mine is not None:
            mine.discard(subscriber)
            if not mine:
                del named[subscriber.name]

    def count(self, table_id: str) -> int:
        """How many clients of this process follow a table."""
        return len(self._subscribers.get(table_id, ()))

    def connections(self, table_id: str, name: str) -> int:
        """How many connections of this process bettor ``name`` has at a table."""
        return len(self._bettors.get(table_id, {}).get(name, ()))

    # --- delivery -------------------------------------------------------------------------------

    def deliver(self, event: Mapping[str, Any]) -> None:
        """Deliver a stored event: its public message to the table's subscribers, its private
        messages to the connections of the bettors they are for (a malformed event is logged, not sent)."""
        self.deliver_all(str(event.get("table")), [event])

    def deliver_all(self, table_id: str, events: Iterable[Mapping[str, Any]], private: Iterable[Private] = ()) -> None:
        """Deliver stored events of a table in order, as :meth:`deliver` does each, then the
        ``private`` messages that are not stored (accepted bets): one delivery."""
        if not self._subscribers.get(table_id):
            return
        delivery = _Delivery(table_id)
        for event in events:
            try:
                message = messages.public(event)
                mine = messages.private(event) if self._bettors.get(table_id) else []
            except Exception:
                log.exception("table %s: event %s could not be made into messages", table_id, event.get("id"))
                continue
            delivery.add(None if message is None else Outbound(messages.encode(dict(message))), mine)
        self._send(delivery.add(None, private))

    def broadcast(self, message: Mapping[str, Any]) -> None:
        """Queue a public message for every subscriber of its table (a client too slow to keep up is dropped)."""
        table_id = str(message.get("table"))
        if self._subscribers.get(table_id):
            self._send(_Delivery(table_id).add(Outbound(messages.encode(dict(message))), ()))

    def tell(self, table_id: str, private: Iterable[Private]) -> None:
        """Queue private messages, each for every connection of its bettor at the table."""
        if self._bettors.get(table_id):
            self._send(_Delivery(table_id).add(None, private))

    def _send(self, delivery: _Delivery) -> None:
        if delivery.public:
            subscribers = list(self._subscribers.get(delivery.table_id, ()))
        else:
            named = self._bettors.get(delivery.table_id, {})
            subscribers = [s for name in delivery.names for s in named.get(name, ())]
        if not subscribers:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or (len(subscribers) <= FAN_OUT_CHUNK and not self._outbox):
            self._put(delivery, subscribers)
            return
        self._outbox.append((delivery, subscribers))
        if self._fanning is None or self._fanning.done():
            self._fanning = loop.create_task(self._fan_out(), name="hub-fan-out")

    async def _fan_out(self) -> None:
        while self._outbox:
            delivery, subscribers = self._outbox[0]
            for start in range(0, len(subscribers), FAN_OUT_CHUNK):
                if start:
                    await asyncio.sleep(0)
                self._put(delivery, subscribers[start : start + FAN_OUT_CHUNK])
            self._outbox.popleft()

    def _put(self, delivery: _Delivery, subscribers: list[Subscriber]) -> None:
        for subscriber in subscribers:
            if subscriber.dropped:
                continue
            try:
                for message in delivery.messages_for(subscriber.name):
                    subscriber.queue.put_nowait(message)
            except asyncio.QueueFull:
                subscriber.dropped = True
                self.unsubscribe(subscriber)
                if subscriber.on_drop is not None:
                    subscriber.on_drop()

    # --- from other threads ---------------------------------------------------------------------

    def _soon(self, fn: Callable[..., None], *args: Any) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(fn, *args)

    def deliver_all_threadsafe(self, table_id: str, events: list[dict[str, Any]]) -> None:
        """:meth:`deliver_all` from another thread."""
        self._soon(self.deliver_all, table_id, events)

    def broadcast_threadsafe(self, message: Mapping[str, Any]) -> None:
        """:meth:`broadcast` from another thread."""
        self._soon(self.broadcast, message)

    def tell_threadsafe(self, table_id: str, private: list[Private]) -> None:
        """:meth:`tell` from another thread."""
        self._soon(self.tell, table_id, private)


class ChannelListener:
    """A thread that LISTENs on one PostgreSQL channel and hands each note's payload to
    :meth:`handle` (on the thread); it reconnects after a dropped connection, and calls
    :meth:`connected` each time the LISTEN is in place (notes sent meanwhile are lost)."""

    #: the thread's name, and what the log calls the connection
    name = "pg-listen"

    def __init__(self, *, conninfo: str, channel: str) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)

    def start(self) -> None:
        """Start listening; returns once the LISTEN is in place (or after 10 s)."""
        self._thread.start()
        self._ready.wait(10)

    def stop(self) -> None:
        """Stop listening."""
        self._stop.set()
        self._thread.join(timeout=5)

    def connected(self) -> None:
        """The LISTEN is in place (again)."""

    def handle(self, payload: str) -> None:
        """One note."""

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f'LISTEN "{self.channel}"')
                    self.connected()
                    self._ready.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self.handle(note.payload)
            except Exception as error:  # reconnect after a dropped connection
                log.warning("%s: LISTEN connection lost (%s); reconnecting", self.name, type(error).__name__)
                self._ready.set()
                self._stop.wait(1.0)


class PgListener(ChannelListener):
    """A thread that LISTENs on the PostgreSQL channel and hands the other processes' notes to the
    hub (:mod:`baccarat.server.notes`): their stored events, read in one query a note, and the
    messages they made; control notes go to ``control``. A process's own notes are skipped: it
    delivered what they carry itself."""

    def __init__(
        self,
        *,
        conninfo: str,
        channel: str,
        fetch: Callable[[list[int]], list[dict[str, Any]]],
        hub: Hub,
        control: Callable[[str], None] | None = None,
        sender: str | None = None,
    ) -> None:
        super().__init__(conninfo=conninfo, channel=channel)
        #: this process, as its own JSON notes name it (they were delivered here before they were sent)
        self.own = None if sender is None else sent_by(sender)
        #: called (on the hub's loop) with the other notes: ``i:<table>`` (an intent), ``a:<id>`` (its answer)
        self.control = control
        #: reads stored events by id, oldest first, with their whole payloads (the hub makes their messages)
        self.fetch = fetch
        self.hub = hub

    def handle(self, payload: str) -> None:
        """One note: stored events, private messages, a public message, or a control note."""
        if payload.startswith("{"):
            if self.own is not None and payload.startswith(self.own):
                return
            with contextlib.suppress(ValueError, TypeError, KeyError):
                data = json.loads(payload)
                data.pop("from", None)
                if "events" in data:
                    self._events([int(i) for i in data["events"]])
                elif "private" in data:
                    pairs = [(str(name), dict(message)) for name, message in data["messages"]]
                    self.hub.tell_threadsafe(str(data["private"]), pairs)
                else:
                    self.hub.broadcast_threadsafe(data)
            return
        if payload[:2] in ("i:", "a:"):
            loop = self.hub.loop
            if self.control is not None and loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self.control, payload)

    def _events(self, ids: list[int]) -> None:
        """Deliver stored events, those of each table together, in order."""
        found = self.fetch(ids)
        for table_id, run in itertools.groupby(found, key=lambda event: str(event["table"])):
            self.hub.deliver_all_threadsafe(table_id, list(run))
