"""Actions passed on to the process that runs a table, and their answers, in bulk.

A process that does not run a table stores each action for it as an *intent*; the table's process
takes it, applies it through the table's queue and stores the answer; the sender reads it. With
PostgreSQL each step is announced (``i:<table>``: intents wait; ``a:<id>:<answer>``: the answer,
in the note itself when it fits), and without a notice each side looks again after a while. Every
step is done for all the intents waiting at once (:class:`Batches`): one transaction stores the
intents that came meanwhile, one takes those found, one read finds their users, one stores their
answers, so that hundreds of bets a second passed on cost a few transactions each turn, not
several for each bet.

>>> async def double(items):
...     return [2 * item for item in items]
>>> async def main():
...     batches = Batches(double, name="double")
...     return await asyncio.gather(batches(1), batches(2), batches(3)), batches.calls
>>> asyncio.run(main())
([2, 4, 6], 1)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from baccarat.server.store import User

if TYPE_CHECKING:
    from baccarat.server.service import Service

__all__ = ["INTENT_SECONDS", "NO_ANSWER", "Batches", "IntentHandler", "IntentRelay"]

log = logging.getLogger("baccarat.server.relay")

T = TypeVar("T")
R = TypeVar("R")

#: How long a process waits for the answer of the table's process to an action it passed on.
INTENT_SECONDS = 5.0
NO_ANSWER = "the table's process did not answer; try again"

IntentHandler = Callable[[User, str, str, dict[str, Any]], Awaitable[tuple[int, dict[str, Any]]]]
Answer = tuple[int, dict[str, Any]]


class Batches(Generic[T, R]):
    """Calls ``run`` once for every item waiting (in the order they came), as soon as the call
    before is done; each caller gets its own item's result (or the call's error)."""

    def __init__(self, run: Callable[[list[T]], Awaitable[Sequence[R]]], *, name: str) -> None:
        self._run_items = run
        self.name = name
        self.calls = 0
        self._waiting: list[tuple[T, asyncio.Future[R]]] = []
        self._running: asyncio.Task[None] | None = None

    async def __call__(self, item: T) -> R:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        self._waiting.append((item, future))
        if self._running is None or self._running.done():
            self._running = loop.create_task(self._run(), name=self.name)
        return await future

    async def _run(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            self.calls += 1
            try:
                results = await self._run_items([item for item, _ in batch])
            except Exception as error:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)


class IntentRelay:
    """The intents of one process: those it sends, and those it applies to the tables it runs."""

    def __init__(self, service: Service) -> None:
        self.service = service
        intents, accounts = service.store.intents, service.store.accounts
        self._add: Batches[tuple[str, int, str, dict[str, Any]], int] = Batches(
            lambda items: service.read(intents.add_intents, items), name="intents-add"
        )
        self._take: Batches[int, bool] = Batches(
            lambda ids: service.read(intents.take_intents, ids), name="intents-take"
        )
        self._users: Batches[int, User | None] = Batches(
            lambda ids: service.read(accounts.users_by_ids, ids), name="intents-users"
        )
        self._answer: Batches[tuple[int, int, dict[str, Any]], None] = Batches(
            lambda answers: service.read(intents.answer_intents, answers), name="intents-answer"
        )
        #: applies an intent to a table this process runs: (user, table id, kind, body) -> (status, answer)
        self.handler: IntentHandler | None = None
        self._waiting: dict[int, asyncio.Event] = {}  # intent id -> set when its answer is announced
        self._noted: dict[int, Answer] = {}  # answers that came in their notes
        self._taken: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.due: asyncio.Event | None = None

    def control(self, note: str) -> None:
        """A note from another process: an intent for one of our tables, or the answer to one of ours."""
        kind, _, rest = note.partition(":")
        number, _, answer = rest.partition(":")
        if kind == "a" and number.isdigit():
            waiting = self._waiting.get(int(number))
            if waiting is not None:
                if answer:
                    with contextlib.suppress(ValueError, TypeError):  # a note it cannot read: the answer is read
                        status, body = json.loads(answer)
                        self._noted[int(number)] = (int(status), dict(body))
                waiting.set()
        elif kind == "i" and self.due is not None:
            runner = self.service.runners.get(rest)
            if runner is not None and runner.leader:
                self.due.set()

    async def forward(self, table_id: str, user: User, kind: str, body: dict[str, Any]) -> Answer:
        """Pass an action on to the process that runs the table; its answer (HTTP status and body).

        After :data:`INTENT_SECONDS` without one the intent is withdrawn (it will not be applied
        later) and the answer is 503; an intent already taken is waited for a little longer. A bet
        sent again with the same client id is placed once, whichever process gets it.
        """
        service = self.service
        answered = asyncio.Event()
        intent_id = await self._add((table_id, user.id, kind, body))
        self._waiting[intent_id] = answered
        deadline = service.clock.monotonic() + INTENT_SECONDS
        try:
            while True:
                left = deadline - service.clock.monotonic()
                await service.clock.sleep(0.25 if left <= 0 else min(0.25, left), wake=answered)
                answered.clear()
                answer = self._noted.pop(intent_id, None)
                if answer is None:
                    answer = await service.read(service.store.intents.intent_answer, intent_id)
                if answer is not None:
                    return answer
                left = deadline - service.clock.monotonic()
                if left <= 0 and (
                    left < -INTENT_SECONDS or await service.read(service.store.intents.cancel_intent, intent_id)
                ):
                    break
        finally:
            self._waiting.pop(intent_id, None)
            self._noted.pop(intent_id, None)
        return 503, {"detail": NO_ANSWER}

    async def serve(self) -> None:
        """Apply the intents other processes stored for the tables this process runs (on notice, or every 0.5 s)."""
        service = self.service
        due = self.due = asyncio.Event()
        pruned = service.clock.monotonic()
        while True:
            due.clear()
            try:
                led = [table_id for table_id, r in service.runners.items() if r.leader and r.table is not None]
                since = service.clock.time() - INTENT_SECONDS
                rows = await service.read(service.store.intents.pending_intents, led, since=since)
                for row in rows:
                    if row["id"] not in self._taken:
                        self._taken.add(row["id"])
                        task = asyncio.create_task(self._apply(row))
                        self._tasks.add(task)
                        task.add_done_callback(self._tasks.discard)
                if service.clock.monotonic() - pruned > 60:
                    pruned = service.clock.monotonic()
                    await service.read(service.store.intents.prune_intents, service.clock.time() - 600)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("intents: reading them failed; retrying")
            await service.clock.sleep(0.5, wake=due)

    async def _apply(self, row: dict[str, Any]) -> None:
        intent_id = int(row["id"])
        try:
            if not await self._take(intent_id):
                return
            try:
                user = await self._users(int(row["user_id"]))
                if user is None or self.handler is None:
                    status, answer = 404, {"detail": "no such user"}
                else:
                    body = json.loads(row["body"])
                    status, answer = await self.handler(user, str(row["table_id"]), str(row["kind"]), body)
            except Exception:
                log.exception("intent %s failed", intent_id)
                status, answer = 500, {"detail": "the table could not apply that"}
            await self._answer((intent_id, status, answer))
        except Exception:
            log.exception("intent %s: storing the answer failed", intent_id)
        finally:
            self._taken.discard(intent_id)
