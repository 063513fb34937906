"""``baccarat advise --follow``: the cards of a live table of the server, from its public messages.

The table's websocket (``/ws/tables/{id}``) is opened first, then the events stored since the table
opened are read (``GET /api/tables/{id}/events``), so that the shoe in play is known from its first
card; the websocket's messages then follow, each stored event once (by its event id). A
``shoe_started`` starts a new shoe (of the decks its ``config`` names); the cards of a
``round_settled`` (and those shown by a ``round_voided``) leave the shoe. A :class:`TablePosition`
keeps the shoe and the last round counted, so that each update says which round it follows.

>>> position = TablePosition("macau-1")
>>> position.track({"type": "shoe_started", "shoe": 3})
>>> position.label()
'Table macau-1, shoe 3, before its first round'
>>> position.track({"type": "round_settled", "round_id": 1234, "number": 17})
>>> position.label(), position.to_dict()
('Table macau-1, shoe 3, after round 17', {'table': 'macau-1', 'shoe': 3, 'round': 17, 'round_id': 1234})
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from baccarat.errors import InputError

if TYPE_CHECKING:
    from baccarat.analysis.advisor import Advice, Advisor

__all__ = ["TablePosition", "apply_message", "follow_table", "message_cards"]

#: Events per page of ``GET /api/tables/{id}/events`` (the server's most).
PAGE = 200
_CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
_HINT = "give the server's address, e.g. --follow http://127.0.0.1:8000, and a table id from GET /api/tables"


@dataclass(slots=True)
class TablePosition:
    """Where a followed table stands: its shoe in play and the last round whose cards have left the shoe."""

    table: str
    shoe: int | None = None
    round_id: int | None = None
    number: int | None = None

    def track(self, message: dict[str, Any]) -> None:
        """Move on with one public message: a new shoe, a round settled or voided."""
        kind = message.get("type")
        if kind == "shoe_started":
            shoe = message.get("shoe")
            self.shoe = shoe if isinstance(shoe, int) else None
            self.round_id = self.number = None
        elif kind in ("round_settled", "round_voided"):
            round_id, number = message.get("round_id"), message.get("number")
            self.round_id = round_id if isinstance(round_id, int) else None
            self.number = number if isinstance(number, int) else None

    def label(self) -> str:
        """``Table macau-1, shoe 3, after round 17``: what an update of the next coup follows."""
        parts = [f"Table {self.table}"]
        if self.shoe is not None:
            parts.append(f"shoe {self.shoe}")
        if self.number is not None:
            parts.append(f"after round {self.number}")
        elif self.round_id is not None:
            parts.append(f"after round id {self.round_id}")
        elif self.shoe is not None:
            parts.append("before its first round")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """``{"table", "shoe", "round", "round_id"}`` (``round``: the last round counted, by its number)."""
        return {"table": self.table, "shoe": self.shoe, "round": self.number, "round_id": self.round_id}


def _base(url: str) -> str:
    parsed = urllib.parse.urlsplit(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise InputError(f"cannot follow {url!r}: not an http:// or https:// address", hint=_HINT)
    return f"{parsed.scheme}://{parsed.netloc}{parsed.path.rstrip('/')}"


def _cards_in(value: Any) -> Iterator[str]:
    """Every card code (``AS``, ``TD``…) in a message's value, face-down cards (``null``) left out."""
    if isinstance(value, str):
        if _CARD.match(value):
            yield value
    elif isinstance(value, list | dict):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _cards_in(item)


def message_cards(message: dict[str, Any]) -> list[str]:
    """The cards a public message shows leaving the shoe: a settled round's, a voided round's.

    >>> message_cards({"type": "round_settled", "result": {"cards": ["9S", "8H", "KD", "5C"]}})
    ['9S', '8H', 'KD', '5C']
    >>> message_cards({"type": "card_dealt", "card": "AS"})
    []
    """
    if message.get("type") == "round_settled":
        return list(_cards_in((message.get("result") or {}).get("cards", [])))
    if message.get("type") == "round_voided":
        return list(_cards_in(message.get("cards") or []))
    return []


def apply_message(advisor: Advisor, message: dict[str, Any]) -> bool:
    """Apply one public message to the advisor; True when the next coup's figures changed."""
    if message.get("type") == "shoe_started":
        decks = (message.get("config") or {}).get("decks")
        advisor.new_shoe(decks if isinstance(decks, int) else None)
        return True
    cards = message_cards(message)
    if not cards:
        return False
    advisor.see(" ".join(cards))
    return True


def _history(base: str, table: str) -> Iterator[dict[str, Any]]:
    """The table's stored public messages, oldest first."""
    after = 0
    quoted = urllib.parse.quote(table, safe="")
    while True:
        url = f"{base}/api/tables/{quoted}/events?after={after}&limit={PAGE}"
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                body = json.loads(answer.read())
            page, last = body["events"], body.get("last")
        except urllib.error.HTTPError as error:
            raise InputError(f"the server answered {error.code} for table {table!r}", hint=_HINT) from None
        except (OSError, ValueError, KeyError, AttributeError) as error:
            raise InputError(f"cannot read the events of table {table!r} at {base}: {error}", hint=_HINT) from None
        yield from page
        if not isinstance(last, int):  # the page read no stored event: none is left
            return
        after = last


def _fresh(messages: Iterable[dict[str, Any]], last: list[int]) -> Iterator[dict[str, Any]]:
    """Messages not seen yet: a stored event's message once (``last[0]``: the newest event id applied)."""
    for message in messages:
        event = message.get("id")
        if isinstance(event, int):
            if event <= last[0]:
                continue
            last[0] = event
        yield message


def follow_table(
    advisor: Advisor,
    url: str,
    table: str,
    emit: Callable[[Advice], None],
    *,
    position: TablePosition | None = None,
    connected: Callable[[str], None] | None = None,
) -> None:
    """Follow table ``table`` of the server at ``url`` until the server closes the connection.

    ``position`` (if given) is moved on with every message before the update it brings is emitted;
    ``connected`` is told, in words, once the table's websocket is open.
    """
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    base = _base(url)
    address = "ws" + base.removeprefix("http") + f"/ws/tables/{urllib.parse.quote(table, safe='')}"
    last = [0]
    moved = position or TablePosition(table)

    def apply(message: dict[str, Any]) -> bool:
        moved.track(message)
        return apply_message(advisor, message)

    try:
        with connect(address, open_timeout=10) as socket:
            if connected is not None:
                connected(f"connected to table {table} at {base}")
            for message in _fresh(_history(base, table), last):
                apply(message)
            emit(advisor.advice())
            for raw in socket:
                message = json.loads(raw)
                if isinstance(message, dict) and any(apply(m) for m in _fresh([message], last)):
                    emit(advisor.advice())
    except (OSError, WebSocketException, TimeoutError) as error:
        raise InputError(f"cannot follow table {table!r} at {base}: {error}", hint=_HINT) from None
