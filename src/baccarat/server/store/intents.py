"""Intents: actions sent to the process that runs a table by a process that does not, and their answers."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import insert, select, update

from baccarat.server.bulk import execute_values, insert_rows, next_ids
from baccarat.server.schema import intents
from baccarat.server.store.base import Database, dumps

__all__ = ["NOTE_BYTES", "Intents"]

_COLUMNS = ("id", "table_id", "user_id", "kind", "body", "created_at")
#: The longest note an answer goes in (PostgreSQL refuses payloads of 8000 bytes or more).
NOTE_BYTES = 7000


class Intents:
    """Each intent is stored, announced (PostgreSQL), taken once by the table's process and answered."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add_intents(self, wanted: Sequence[tuple[str, int, str, dict[str, Any]]]) -> list[int]:
        """Store actions ``(table id, user id, kind, body)`` for their tables' processes in one
        transaction (each table announced once on PostgreSQL); their ids, in order."""
        now = time.time()
        rows = [(table_id, user_id, kind, dumps(body), now) for table_id, user_id, kind, body in wanted]
        with self.db.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                ids = next_ids(conn, "intents", len(rows))
                insert_rows(conn, "intents", _COLUMNS, [(i, *row) for i, row in zip(ids, rows, strict=True)])
            else:
                ids = [
                    int(conn.execute(insert(intents).values(dict(zip(_COLUMNS[1:], row, strict=True)))
                                     .returning(intents.c.id)).scalar_one())
                    for row in rows
                ]  # fmt: skip
            for table_id in sorted({w[0] for w in wanted}):
                self.db.notify(conn, f"i:{table_id}")
        return ids

    def intent_answer(self, intent_id: int) -> tuple[int, dict[str, Any]] | None:
        """An intent's answer (HTTP status and body), or ``None`` while it has none."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(intents.c.status, intents.c.answer).where(intents.c.id == intent_id)).first()
        if row is None or not row[0] or row[1] is None:
            return None
        return int(row[0]), dict(json.loads(row[1]))

    def cancel_intent(self, intent_id: int) -> bool:
        """Withdraw an intent nobody took yet (its sender stopped waiting); whether it was withdrawn."""
        with self.db.engine.begin() as conn:
            done = conn.execute(
                update(intents)
                .where(intents.c.id == intent_id, intents.c.status.is_(None))
                .values(status=503, answer=dumps({"detail": "withdrawn"}), answered_at=time.time())
            )
        return done.rowcount == 1

    def pending_intents(self, table_ids: Sequence[str], *, since: float) -> list[dict[str, Any]]:
        """The intents of these tables that nobody took yet, oldest first (those stored after ``since``)."""
        if not table_ids:
            return []
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(intents.c.id, intents.c.table_id, intents.c.user_id, intents.c.kind, intents.c.body)
                .where(intents.c.table_id.in_(table_ids), intents.c.status.is_(None), intents.c.created_at > since)
                .order_by(intents.c.id)
                .limit(1000)
            ).all()
        return [dict(r._mapping) for r in rows]

    def take_intents(self, intent_ids: Sequence[int]) -> list[bool]:
        """Take intents to apply them, in one statement: whether each was taken (not by another, nor withdrawn)."""
        if not intent_ids:
            return []
        with self.db.engine.begin() as conn:
            taken = set(
                conn.execute(
                    update(intents)
                    .where(intents.c.id.in_(sorted(set(intent_ids))), intents.c.status.is_(None))
                    .values(status=0)
                    .returning(intents.c.id)
                ).scalars()
            )
        return [intent_id in taken for intent_id in intent_ids]

    def answer_intents(self, answers: Sequence[tuple[int, int, dict[str, Any]]]) -> list[None]:
        """Store the answers ``(intent id, status, body)`` in one transaction (a statement for a
        thousand), each announced to its sender on PostgreSQL with the answer itself when it fits
        in a note (``a:<id>:<[status, body]>``)."""
        now = time.time()
        rows = [(intent_id, status, dumps(answer)) for intent_id, status, answer in answers]
        notes = [(_answer_note(i, status, text),) for i, status, text in rows]
        with self.db.engine.begin() as conn:
            for start in range(0, len(rows), 1000):
                execute_values(
                    conn,
                    "UPDATE intents SET status = s.column2, answer = s.column3, answered_at = ? "
                    "FROM {values} WHERE intents.id = s.column1",
                    rows[start : start + 1000],
                    before=[now],
                )
                if self.db.channel:
                    execute_values(conn, "SELECT pg_notify(?, s.column1) FROM {values}", notes[start : start + 1000],
                                   before=[self.db.channel])  # fmt: skip
        return [None for _ in answers]

    def prune_intents(self, before: float) -> None:
        """Forget the intents stored before ``before``."""
        with self.db.engine.begin() as conn:
            conn.execute(intents.delete().where(intents.c.created_at < before))


def _answer_note(intent_id: int, status: int, text: str) -> str:
    """The note that announces an answer: with the answer (``a:<id>:[<status>,<body>]``) when it fits.

    >>> _answer_note(7, 201, '{"ok":true}'), _answer_note(7, 201, '"' + "x" * NOTE_BYTES + '"')
    ('a:7:[201,{"ok":true}]', 'a:7')
    """
    note = f"a:{intent_id}:[{status},{text}]"
    return note if len(note.encode()) <= NOTE_BYTES else f"a:{intent_id}"
