"""Intents: actions sent to the process that runs a table by a process that does not, and their answers."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import insert, select, update

from baccarat.server.schema import intents
from baccarat.server.store.base import Database, dumps

__all__ = ["Intents"]


class Intents:
    """Each intent is stored, announced (PostgreSQL), taken once by the table's process and answered."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add_intent(self, table_id: str, user_id: int, kind: str, body: dict[str, Any]) -> int:
        """Store an action for the table's process (announced to it on PostgreSQL); returns its id."""
        with self.db.engine.begin() as conn:
            intent_id = int(
                conn.execute(
                    insert(intents)
                    .values(table_id=table_id, user_id=user_id, kind=kind, body=dumps(body), created_at=time.time())
                    .returning(intents.c.id)
                ).scalar_one()
            )
            self.db.notify(conn, f"i:{table_id}")
        return intent_id

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

    def take_intent(self, intent_id: int) -> bool:
        """Take an intent to apply it (fails when it was taken or withdrawn already)."""
        with self.db.engine.begin() as conn:
            done = conn.execute(
                update(intents).where(intents.c.id == intent_id, intents.c.status.is_(None)).values(status=0)
            )
        return done.rowcount == 1

    def answer_intent(self, intent_id: int, status: int, answer: dict[str, Any]) -> None:
        """Store an intent's answer (and announce it to its sender on PostgreSQL)."""
        with self.db.engine.begin() as conn:
            conn.execute(
                update(intents)
                .where(intents.c.id == intent_id)
                .values(status=status, answer=dumps(answer), answered_at=time.time())
            )
            self.db.notify(conn, f"a:{intent_id}")

    def prune_intents(self, before: float) -> None:
        """Forget the intents stored before ``before``."""
        with self.db.engine.begin() as conn:
            conn.execute(intents.delete().where(intents.c.created_at < before))
