"""Request limits: the size of a body, counted as it streams (413 at the limit, whatever
``Content-Length`` says), and the rate of requests per client (429)."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from baccarat.server.api.context import AppContext
from baccarat.server.api.problems import Refusal

__all__ = ["MAX_BODY", "RequestLimits"]

#: The largest request body, in bytes.
MAX_BODY = 16_384


class _TooLarge(HTTPException):
    """The body went past the limit while it was read (an HTTP error, so that the route's body
    parsing passes it on as it is)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body over {limit} bytes")


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
        if not self.context.bucket(_client_key(scope, headers)).allow():
            await _refuse(send, Refusal(429, "request.rate_limited", "too many requests; slow down"))
            return
        await self._limited(scope, receive, send)

    def _too_large(self) -> Refusal:
        detail = f"request body over {self.max_body} bytes"
        return Refusal(413, "request.too_large", detail, params={"limit": self.max_body})

    async def _limited(self, scope: Scope, receive: Receive, send: Send) -> None:
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge(self.max_body)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if not started:
                await _refuse(send, self._too_large())


def _client_key(scope: Scope, headers: dict[str, str]) -> str:
    authorization = headers.get("authorization")
    if authorization:
        return authorization
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
