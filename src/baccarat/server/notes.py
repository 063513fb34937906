"""The notes that server processes sharing one PostgreSQL send each other with ``NOTIFY``.

A process delivers what it stored, and the messages it made, to its own clients at once; the notes
carry them to the other processes. A JSON note is led by ``"from": <sender>`` (the process that sent
it, whose listener skips it) and is one of:

- ``{"from": …, "events": [id, …]}``: stored events of one transaction, in order (the listener
  reads them in one query and delivers them as one delivery);
- ``{"from": …, "private": <table>, "messages": [[name, message], …]}``: private messages that are
  not stored (accepted bets);
- ``{"from": …, "type": …, …}``: a public message that is not stored (the countdown).

Control notes (``i:<table>``, an intent waiting; ``a:<id>:…``, its answer) are
:mod:`baccarat.server.relay`'s. PostgreSQL refuses payloads of 8000 bytes or more: every note is
at most :data:`NOTE_LIMIT` bytes.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["NOTE_LIMIT", "event_notes", "private_notes", "sent_by", "transient_note"]

log = logging.getLogger("baccarat.server.hub")

#: The longest JSON note sent with ``NOTIFY`` (PostgreSQL refuses payloads of 8000 bytes or more).
NOTE_LIMIT = 7000

#: ``(bettor name, message)``: a message for every connection of one bettor.
Private = tuple[str, dict[str, Any]]


def sent_by(sender: str | None) -> str:
    """How a JSON note from process ``sender`` begins (its listener skips the notes it sent)."""
    return "{" if sender is None else '{"from":' + json.dumps(sender) + ","


def event_notes(ids: Sequence[int], *, sender: str | None = None, limit: int = NOTE_LIMIT) -> list[str]:
    """Stored events' ids, in order, as JSON notes of at most ``limit`` bytes.

    >>> event_notes([7, 8, 9], sender="p1")
    ['{"from":"p1","events":[7,8,9]}']
    >>> event_notes([1000, 1001, 1002], limit=24)
    ['{"events":[1000,1001]}', '{"events":[1002]}']
    """
    head = sent_by(sender) + '"events":['
    return _notes(head, "]}", [str(int(event_id)) for event_id in ids], limit)


def private_notes(
    table_id: str, private: Iterable[Private], *, sender: str | None = None, limit: int = NOTE_LIMIT
) -> list[str]:
    """Private messages as JSON notes, each at most ``limit`` bytes (a message too long on its own
    is left out).

    >>> private_notes("t", [("ann", {"type": "my_funds"}), ("bob", {"type": "my_funds"})], limit=80)
    ['{"private":"t","messages":[["ann",{"type":"my_funds"}]]}',
     '{"private":"t","messages":[["bob",{"type":"my_funds"}]]}']
    >>> private_notes("t", [("ann", {"type": "my_funds"})], sender="p1")
    ['{"from":"p1","private":"t","messages":[["ann",{"type":"my_funds"}]]}']
    """
    head = sent_by(sender) + '"private":' + json.dumps(table_id) + ',"messages":['
    parts = []
    for name, message in private:
        part = json.dumps([name, message], separators=(",", ":"))  # ASCII: characters are bytes
        if len(head) + len(part) + 2 > limit:
            log.warning("table %s: a private message of %d bytes is too long to announce", table_id, len(part))
            continue
        parts.append(part)
    return _notes(head, "]}", parts, limit)


def _notes(head: str, tail: str, parts: list[str], limit: int) -> list[str]:
    """``parts`` joined by commas between ``head`` and ``tail``, in as few notes of at most
    ``limit`` characters as they fit in, in order (each part fits on its own)."""
    notes: list[str] = []
    run: list[str] = []
    size = len(head) + len(tail)
    for part in parts:
        if run and size + 1 + len(part) > limit:
            notes.append(head + ",".join(run) + tail)
            run, size = [], len(head) + len(tail)
        size += len(part) + (1 if run else 0)
        run.append(part)
    if run:
        notes.append(head + ",".join(run) + tail)
    return notes


def transient_note(message: dict[str, Any], *, sender: str | None = None, limit: int = NOTE_LIMIT) -> str | None:
    """A public message that is not stored as a JSON note (``None``: too long to announce).

    >>> transient_note({"type": "countdown", "seconds_left": 3}, sender="p1")
    '{"from":"p1","type":"countdown","seconds_left":3}'
    """
    body = json.dumps(message, separators=(",", ":"))
    note = sent_by(sender) + body[1:] if body != "{}" else None
    if note is None or len(note) > limit:
        return None
    return note
