"""The websocket of a table (``/ws/tables/{id}``): a snapshot, then every public message of the
table and the private ones of the user once authenticated; actions and queries as messages.

A connection is refused when its page's ``Origin`` is neither the server's own nor one of the
configured ``allowed_origins``, and when its address opens connections too fast. An authenticated
connection is closed as soon as its session ends (log-out, a password change, in any process), and
a connection too slow to keep up is told why before it is closed.

Every message is made by :mod:`baccarat.server.observer.messages` (documented in ``docs/api.md``).
Under uvicorn (:mod:`baccarat.server.api.ws_protocol`) a connection writes its messages' frames
itself, the hub's shared frames included, and the messages waiting for it leave together.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import MutableMapping
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from baccarat.server.api.actions import BODIES, PLAYER_ACTIONS, Action, TableActions, refused
from baccarat.server.api.context import AppContext, RateLimiter
from baccarat.server.api.json_guard import refusal_of_value
from baccarat.server.api.limits import client_address
from baccarat.server.api.problems import Refusal
from baccarat.server.api.ws_guard import origin_refusal
from baccarat.server.api.ws_protocol import FRAMES, FrameWriter
from baccarat.server.frames import Outbound
from baccarat.server.hub import Subscriber
from baccarat.server.observer import messages
from baccarat.server.observer.views import table_public
from baccarat.server.settings import TableSpec
from baccarat.server.store import User
from baccarat.server.store.limits import day_start
from baccarat.server.store.sessions import token_hash

__all__ = ["MAX_WS_MESSAGE", "router"]

log = logging.getLogger("baccarat.server")

router = APIRouter()

#: The largest message a client may send.
MAX_WS_MESSAGE = 4_096
#: Refused messages (rate limit) after which the connection is closed.
MAX_REFUSED = 200
#: The most messages waiting for a connection that go out in one write.
PUMP_BATCH = 64
#: Close codes: the session ended; the connection fell behind; refused at connect.
CLOSE_SESSION_ENDED = 4401
CLOSE_TOO_SLOW = 1013
CLOSE_REFUSED = {403: 4403, 429: 4429}

Message = dict[str, Any]


class _Closed(Exception):
    """The connection was closed by the server."""


class TableConnection:
    """One client following one table."""

    def __init__(self, websocket: WebSocket, context: AppContext, actions: TableActions, spec: TableSpec) -> None:
        self.websocket = websocket
        extension = websocket.scope.get("extensions", {}).get(FRAMES)
        self.frames: FrameWriter | None = extension if isinstance(extension, FrameWriter) else None
        self.context = context
        self.actions = actions
        self.spec = spec
        service = context.service
        self.hub = service.hub
        self.bucket = RateLimiter(rate=service.options.ws_messages_per_second, burst=service.options.ws_burst)
        self.user: User | None = None
        self.token: str | None = None
        self.refused = 0
        self._ending: asyncio.Task[None] | None = None
        self._behind: asyncio.Task[None] | None = None
        self.subscriber: Subscriber | None = None
        self._lock = asyncio.Lock()
        self._reminder: asyncio.Task[None] | None = None

    async def send(self, message: Message | str | Outbound) -> None:
        """Send one message (text already encoded goes as it is)."""
        if isinstance(message, Outbound):
            await self._write([message])
        else:
            await self._write([Outbound(message if isinstance(message, str) else messages.encode(message))])

    async def _reply(self, message: Message) -> None:
        """Send the answer to a client's message. An accepted bet's ``bet_ack`` goes after the
        messages already waiting for this connection, in the same write as its ``my_bet`` (queued
        when the bet was stored): one write a bet, not two. Any other answer goes at once."""
        subscriber = self.subscriber
        if message.get("type") == "bet_ack" and subscriber is not None and not subscriber.dropped:
            with contextlib.suppress(asyncio.QueueFull):  # a connection that far behind is dropped
                subscriber.queue.put_nowait(Outbound(messages.encode(message)))
                return
        await self.send(message)

    async def _write(self, batch: list[Outbound]) -> None:
        if self.frames is not None:
            await self.frames.write([out.frame for out in batch])
            return
        async with self._lock:
            for out in batch:
                await self.websocket.send_text(out.text)

    async def _pump(self, subscriber: Subscriber) -> None:
        queue = subscriber.queue
        while True:
            batch = [await queue.get()]
            while len(batch) < PUMP_BATCH and not queue.empty():
                batch.append(queue.get_nowait())
            await self._write(batch)
            if subscriber.dropped and queue.empty():
                await self._fell_behind(subscriber)
                return

    def _dropped(self, subscriber: Subscriber, pump: asyncio.Task[None]) -> None:
        """The hub dropped this connection for falling behind: tell the client at once, not after
        the messages still waiting."""
        pump.cancel()
        self._behind = asyncio.get_running_loop().create_task(self._fell_behind(subscriber))

    async def _fell_behind(self, subscriber: Subscriber) -> None:
        detail = f"the connection fell {subscriber.queue.maxsize} messages behind the table; reconnect"
        refusal = Refusal(503, "table.unavailable", detail, params={"table": self.spec.id})
        with contextlib.suppress(Exception):
            await self.send(self._error(refusal, None))
            await self.websocket.close(code=CLOSE_TOO_SLOW)

    def _revoked(self, digest: str | None, user_id: int | None) -> None:
        """Sessions ended: if this connection's is one of them, it is told and closed."""
        user, token = self.user, self.token
        if user is None or token is None or (digest != token_hash(token) and user_id != user.id):
            return
        if self._ending is None:
            self._ending = asyncio.get_running_loop().create_task(self._session_ended())

    async def _session_ended(self) -> None:
        self.user = self.token = None
        if self.subscriber is not None:
            self.hub.authenticate(self.subscriber, None)
        with contextlib.suppress(Exception):
            refusal = Refusal(401, "auth.invalid", "the session ended (log-out or password change): log in again")
            await self.send(self._error(refusal, None))
            await self.websocket.close(code=CLOSE_SESSION_ENDED)

    async def serve(self) -> None:
        """Follow the table until the client goes (or is sent away)."""
        subscriber = self.subscriber = self.hub.subscribe(self.spec.id)
        try:
            state = await self.context.table(self.spec, full=True)
            await self.send(messages.snapshot(self.spec.id, state))
        except Exception:
            self.hub.unsubscribe(subscriber)
            return
        pump = asyncio.create_task(self._pump(subscriber))
        subscriber.on_drop = lambda: self._dropped(subscriber, pump)
        self.context.sessions.listeners.append(self._revoked)
        try:
            await self._receive()
        except (WebSocketDisconnect, _Closed):
            pass
        except Exception:
            log.exception("websocket for table %s failed", self.spec.id)
        finally:
            if self._reminder is not None:
                self._reminder.cancel()
            self.context.sessions.listeners.remove(self._revoked)
            self.hub.unsubscribe(subscriber)
            pump.cancel()
            with contextlib.suppress(BaseException):
                await pump

    async def _receive(self) -> None:
        while True:
            raw = await self.websocket.receive()
            if raw["type"] == "websocket.disconnect":
                return
            text = await self._text(raw)
            if not self.bucket.allow():
                await self._too_many()
                continue
            try:
                message = json.loads(text, parse_constant=_no_constant)
            except (ValueError, RecursionError):
                await self.send(self._error(Refusal(400, "request.not_json", "not valid JSON"), None))
                continue
            refusal = refusal_of_value(message)
            if refusal is not None:
                await self.send(self._error(refusal, None))
                continue
            reply = await self.handle(message)
            if reply is not None:
                await self._reply(reply)

    async def _text(self, raw: MutableMapping[str, Any]) -> str:
        data = raw.get("text")
        if data is None:
            data = bytes(raw.get("bytes") or b"")[: MAX_WS_MESSAGE + 1].decode("utf-8", errors="replace")
        if len(data) > MAX_WS_MESSAGE:
            refusal = Refusal(413, "request.too_large", f"message over {MAX_WS_MESSAGE} bytes")
            await self.send(self._error(refusal, None))
            await self.websocket.close(code=1009)
            raise _Closed
        return str(data)

    async def _too_many(self) -> None:
        self.refused += 1
        if self.refused > MAX_REFUSED:
            await self.websocket.close(code=1008)
            raise _Closed
        await self.send(self._error(Refusal(429, "request.rate_limited", "too many messages; slow down"), None))

    @staticmethod
    def _error(error: Refusal | Exception, ref: str | int | None) -> Message:
        status, problem = refused(error)
        return messages.error(status, problem, ref)

    async def handle(self, message: Any) -> Message | None:
        """The reply to one message."""
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return self._error(Refusal(400, "request.unknown_type", 'send a JSON object with a "type"'), None)
        kind: str = message["type"]
        ref = message.get("ref") if isinstance(message.get("ref"), str | int) else None
        if kind == "ping":
            return messages.pong(ref, ts=self.context.service.clock.time())
        if kind == "auth":
            return await self._auth(message.get("token"), ref)
        if kind == "state":
            state = table_public(await self.context.table_of(self.spec), self.spec.table_config())
            return messages.state(state, ref)
        if kind == "balance":
            if self.user is None:
                return self._error(Refusal(401, "auth.required", "send auth first"), ref)
            return messages.balance(await self.context.user(self.user), ref)
        if kind in PLAYER_ACTIONS:
            return await self._act(Action(kind), message, ref)
        detail = f"unknown message type {kind[:40]!r}"
        return self._error(Refusal(400, "request.unknown_type", detail), ref)

    async def _auth(self, token: Any, ref: str | int | None) -> Message:
        user = await self.context.sessions.user(token if isinstance(token, str) else None)
        if user is None:
            self.user = self.token = None
            if self.subscriber is not None:
                self.hub.authenticate(self.subscriber, None)
            return self._error(Refusal(401, "auth.invalid", "invalid or expired token"), ref)
        self.user, self.token, self._ending = user, str(token), None
        if self.subscriber is not None:
            self.hub.authenticate(self.subscriber, user.name)
        self._remind_from(user, str(token))
        return messages.authenticated(await self.context.user(user), ref)

    def _remind_from(self, user: User, token: str) -> None:
        """Start the play-time reminders of a player who set them (a new log-in starts them again)."""
        if self._reminder is not None:
            self._reminder.cancel()
        self._reminder = asyncio.get_running_loop().create_task(self._remind(user, token))

    async def _remind(self, user: User, token: str) -> None:
        service = self.context.service
        limits = await self.actions.responsible.of(user.id)
        every = limits.session_reminder_minutes
        started = await service.read(service.store.accounts.sessions.started_at, token) if every else None
        if not every or started is None:
            return
        period = every * 60.0
        while self.user is not None and self.user.id == user.id:
            await service.clock.sleep(period - (service.clock.time() - started) % period + 0.01)
            now = service.clock.time()
            lost = await service.read(service.store.limits.lost_since, user.id, day_start(now))
            fresh = await self.actions.responsible.of(user.id)
            reminder = messages.play_reminder(
                table=self.spec.id,
                minutes_played=int((now - started) // 60),
                every_minutes=every,
                lost_today=lost,
                daily_loss_limit=fresh.daily_loss_limit,
                ts=now,
            )
            with contextlib.suppress(Exception):
                await self.send(reminder)

    async def _act(self, action: Action, message: Message, ref: str | int | None) -> Message:
        if self.user is None:
            return self._error(Refusal(401, "auth.required", "send auth first"), ref)
        if await self.context.sessions.user(self.token) is None:
            self._revoked(None, self.user.id)
            return self._error(Refusal(401, "auth.invalid", "the session ended: log in again"), ref)
        fields = {k: v for k, v in message.items() if k not in ("type", "ref")}
        model = BODIES[action]
        try:
            body = model.model_validate(fields) if model is not None else None
        except ValidationError as error:
            return self._error(error, ref)
        status, payload = await self.actions.perform(self.user, self.spec, action, body)
        if status >= 400:
            return messages.error(status, payload, ref)
        if action is Action.BET:
            return messages.bet_ack(status, payload, ref)
        return messages.action_ok(action.value, payload, ref)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Follow a table (see docs/api.md): a snapshot, then every event; bets and auth as messages."""
    await websocket.accept()
    context: AppContext = websocket.app.state.context
    refusal = _connect_refusal(websocket, context)
    if refusal is not None:
        await websocket.send_text(messages.encode(TableConnection._error(refusal, None)))
        await websocket.close(code=CLOSE_REFUSED[refusal.status])
        return
    actions: TableActions = websocket.app.state.actions
    spec = context.service.lobby.table(table_id[:40])
    if spec is None:
        refusal = Refusal(404, "table.not_found", f"no table {table_id[:40]!r}", params={"table": table_id[:40]})
        await websocket.send_text(messages.encode(TableConnection._error(refusal, None)))
        await websocket.close(code=4404)
        return
    await TableConnection(websocket, context, actions, spec).serve()
    if websocket.application_state is not WebSocketState.DISCONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close()


def _connect_refusal(websocket: WebSocket, context: AppContext) -> Refusal | None:
    """Why a new connection is refused: a foreign page's ``Origin``, or its address connecting too fast."""
    headers = websocket.headers
    refusal = origin_refusal(headers.get("origin"), headers.get("host"), context.policy.allowed_origins)
    if refusal is not None:
        return refusal
    if not context.limits.connects.allow(client_address(websocket.scope), now=context.now()):
        return Refusal(429, "request.rate_limited", "too many connections from this address; slow down")
    return None


def _no_constant(name: str) -> Any:
    raise ValueError(name)
