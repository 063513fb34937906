"""A message encoded once: its JSON text, and the websocket frame that carries it.

A table's public message goes to every connection that follows the table: the hub encodes it once
(:class:`Outbound`), and the connections that can write frames themselves
(:mod:`baccarat.server.api.ws_protocol`) all write the same frame, made at the first write and then
shared. A server-to-client frame is not masked (RFC 6455, 5.1): a text frame is the byte ``0x81``
(FIN and the text opcode), the payload's length in 7 bits, or 126 and 16 bits, or 127 and 64 bits,
then the payload.

>>> text_frame(b"hi")
b'\\x81\\x02hi'
>>> text_frame(b"x" * 200)[:4], len(text_frame(b"x" * 70_000)) - 70_000
(b'\\x81~\\x00\\xc8', 10)
>>> Outbound('{"type":"pong"}').frame
b'\\x81\\x0f{"type":"pong"}'
"""

from __future__ import annotations

import struct

__all__ = ["Outbound", "text_frame"]

_FIN_TEXT = 0x81


def text_frame(payload: bytes) -> bytes:
    """One unmasked, unfragmented text frame carrying ``payload`` (UTF-8)."""
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", _FIN_TEXT, size)
    elif size < 1 << 16:
        head = struct.pack("!BBH", _FIN_TEXT, 126, size)
    else:
        head = struct.pack("!BBQ", _FIN_TEXT, 127, size)
    return head + payload


class Outbound:
    """A message ready to send: its JSON ``text`` and (at first use, then kept) its websocket ``frame``."""

    __slots__ = ("_frame", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._frame: bytes | None = None

    @property
    def frame(self) -> bytes:
        """The text frame that carries the message, made once."""
        if self._frame is None:
            self._frame = text_frame(self.text.encode("utf-8"))
        return self._frame

    def __repr__(self) -> str:
        return f"Outbound({self.text[:60]!r})"
