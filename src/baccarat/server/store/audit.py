"""The audit log: every action of the house (the admin, as the dealer or as the manager) and every change
of a table's settings, appended with who did it, what, when and why, and never changed or removed."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, insert, select

from baccarat.server.schema import audit_log
from baccarat.server.store.base import Database

__all__ = ["Audit", "AuditEntry"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditEntry:
    """One action to record: who (``actor``, ``actor_id``, ``role``), what (``action``, the table and
    round, ``detail``), why (``reason``) and how it was answered (``status``, the HTTP status)."""

    actor: str
    role: str
    action: str
    status: int
    actor_id: int | None = None
    table_id: str | None = None
    round_id: int | None = None
    reason: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


class Audit:
    """Appends to the audit log and reads it back, newest first; nothing here changes an entry."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def record(self, entry: AuditEntry) -> int:
        """Append an entry (stamped now); returns its id."""
        with self.db.engine.begin() as conn:
            return int(
                conn.execute(
                    insert(audit_log)
                    .values(
                        at=time.time(),
                        actor_id=entry.actor_id,
                        actor=entry.actor,
                        role=entry.role,
                        action=entry.action,
                        table_id=entry.table_id,
                        round_id=entry.round_id,
                        reason=entry.reason,
                        detail=json.dumps(entry.detail, sort_keys=True),
                        status=entry.status,
                    )
                    .returning(audit_log.c.id)
                ).scalar_one()
            )

    def page(self, *, before: int | None = None, limit: int = 50, table_id: str | None = None) -> dict[str, Any]:
        """A page of entries, newest first, with ids below ``before``; ``next`` is the ``before`` of the
        page after it (``None``: this is the last) and ``total`` the number of entries (of the table)."""
        query = select(audit_log).order_by(audit_log.c.id.desc()).limit(limit)
        count = select(func.count()).select_from(audit_log)
        if before is not None:
            query = query.where(audit_log.c.id < before)
        if table_id is not None:
            query = query.where(audit_log.c.table_id == table_id)
            count = count.where(audit_log.c.table_id == table_id)
        with self.db.engine.connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(query)]
            total = int(conn.execute(count).scalar_one())
        entries = [row | {"detail": json.loads(row["detail"])} for row in rows]
        last = entries[-1]["id"] if len(entries) == limit else None
        return {"entries": entries, "next": last, "total": total}
