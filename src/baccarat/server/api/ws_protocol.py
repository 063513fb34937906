"""uvicorn's websocket protocol, with a way for the application to write frames itself.

Through ASGI, every message is framed again for each connection and written with its own
``transport.write``, behind the stack of send wrappers; a table's broadcast goes to hundreds of
connections. :class:`FramedProtocol` is uvicorn's sans-I/O websocket protocol that also hands the
application a :class:`FrameWriter` (the scope extension :data:`FRAMES`): the connection writes the
frames of :class:`~baccarat.server.frames.Outbound` messages, made once and shared, and the messages
waiting for it go out in one ``transport.write``. A write is whole frames, between uvicorn's own
(the handshake, pings, the close); once a close is sent or received, no more frames go out, and a
connection whose buffer is full waits for it to drain. A server without
this protocol (Starlette's test client) has no such extension, and its connections send through
ASGI.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.websockets import WebSocketDisconnect
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["FRAMES", "FrameWriter", "FramedProtocol"]

#: The scope extension that holds the connection's :class:`FrameWriter`.
FRAMES = "baccarat.frames"


class FrameWriter:
    """Writes frames straight to one connection, several at a time in one ``transport.write``."""

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self._protocol = protocol

    @property
    def open(self) -> bool:
        """Whether frames can still go out (the handshake done, no close sent or received)."""
        p = self._protocol
        return p.handshake_complete and not (p.close_sent or p.disconnected or p.transport.is_closing())

    async def write(self, frames: Sequence[bytes]) -> None:
        """Write frames to the connection, once its buffer has room; raises
        :class:`~starlette.websockets.WebSocketDisconnect` once the connection is closing."""
        writable = self._protocol.writable
        if not writable.is_set():
            await writable.wait()
        if not self.open:
            raise WebSocketDisconnect(1006)
        if frames:
            self._protocol.transport.write(frames[0] if len(frames) == 1 else b"".join(frames))


class FramedProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol with a :class:`FrameWriter` in each connection's scope."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.writer = FrameWriter(self)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][FRAMES] = self.writer
