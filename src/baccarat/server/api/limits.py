"""Request limits: the size of a body, counted as it streams (413 at the limit, whatever
``Content-Length`` says), JSON that must not be accepted (400, :mod:`~baccarat.server.api.json_guard`),
and the rate of requests per client (429): per account for a request with a live session token,
else per client address (a token that is not a live session counts against its address); the
browser table's files per address, in a larger bucket of their own."""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from baccarat.server.api.context import AppContext
from baccarat.server.api.deps import bearer
from baccarat.server.api.json_guard import refusal_of
from baccarat.server.api.problems import Refusal

__all__ = ["MAX_BODY", "RequestLimits", "client_address"]

#: The largest request body, in bytes.
MAX_BODY = 16_384


def _is_asset(scope: Scope) -> bool:
    """A GET or HEAD of the browser table's files (anything outside the API)."""
    path = str(scope.get("path", ""))
    return scope.get("method") in ("GET", "HEAD") and not (path == "/api" or path.startswith(("/api/", "/ws/")))


class RequestLimits:
    """ASGI middleware: the body limit and the per-client rate limit of every HTTP request."""

    def __init__(self, app: ASGIApp, *, context: AppContext, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.context = context
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", ())}
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(send, self._too_large())
            return
        if not await self._allowed(scope, headers):
            await _refuse(send, Refusal(429, "request.rate_limited", "too many requests; slow down"))
            return
        await self._limited(scope, receive, send)

    async def _allowed(self, scope: Scope, headers: dict[str, str]) -> bool:
        """Spend a token of the account's bucket (a live session) or else of the address's."""
        context = self.context
        requests, now = context.limits.requests, context.now()
        address = f"a:{client_address(scope)}"
        if _is_asset(scope):
            return context.limits.assets.allow(address, now=now)
        token = bearer(headers.get("authorization"))
        user = context.sessions.cached(token)
        if user is None and token:
            if not requests.allow(address, now=now):
                return False
            user = await context.sessions.user(token)
            return user is None or requests.allow(f"u:{user.id}", now=now)
        return requests.allow(address if user is None else f"u:{user.id}", now=now)

    def _too_large(self) -> Refusal:
        detail = f"request body over {self.max_body} bytes"
        return Refusal(413, "request.too_large", detail, params={"limit": self.max_body})

    async def _limited(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the whole body (at most :attr:`max_body` bytes), refuse JSON that must not be
        accepted, then hand the body on."""
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([], message, receive), send)
                return
            chunk = bytes(message.get("body", b""))
            seen += len(chunk)
            if seen > self.max_body:
                await _refuse(send, self._too_large())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        refusal = refusal_of(body) if body.strip()[:1] in (b"{", b"[") else None
        if refusal is not None:
            await _refuse(send, refusal)
            return
        await self.app(scope, _replay([body], None, receive), send)


def _replay(bodies: list[bytes], last: Message | None, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then what the client sends next."""
    pending: list[Message] = [{"type": "http.request", "body": b, "more_body": False} for b in bodies]
    if last is not None:
        pending.append(last)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


def client_address(scope: Scope) -> str:
    """The address of the client (the peer of the connection)."""
    client: Any = scope.get("client")
    return str(client[0]) if client else "?"


async def _refuse(send: Send, refusal: Refusal) -> None:
    import json

    body = json.dumps(refusal.problem(), separators=(",", ":")).encode()
    await send(
        {
            "type": "http.response.start",
            "status": refusal.status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
