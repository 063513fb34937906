"""Which pages may open the websocket: a browser sends the page's ``Origin``; the server's own
(the ``Host`` the browser connected to) and the configured ``allowed_origins`` are let in, any
other refused. A client that sends no ``Origin`` (no browser) is let in.

>>> origin_refusal("http://127.0.0.1:8000", "127.0.0.1:8000", ()) is None
True
>>> origin_refusal("https://evil.example", "127.0.0.1:8000", ()).code
'auth.forbidden'
>>> origin_refusal("https://app.example", "api.example", ("https://app.example",)) is None
True
>>> origin_refusal(None, "127.0.0.1:8000", ()) is None
True
"""

from __future__ import annotations

from urllib.parse import urlsplit

from baccarat.server.api.problems import Refusal

__all__ = ["origin_refusal"]


def origin_refusal(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> Refusal | None:
    """The refusal of a connection from a page of ``origin`` to the server at ``host`` (``None``: let in)."""
    if origin is None:
        return None
    normal = origin.strip().rstrip("/").lower()
    if normal in allowed:
        return None
    try:
        netloc = urlsplit(normal).netloc
    except ValueError:
        netloc = ""
    if netloc and host is not None and netloc == host.strip().lower():
        return None
    detail = "this page's origin may not open the table's websocket (see allowed_origins)"
    return Refusal(403, "auth.forbidden", detail)
