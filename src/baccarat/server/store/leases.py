"""Table leases: the row that lets exactly one process at a time run a table's rounds."""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import Connection, Update, bindparam, or_, select, update

from baccarat.errors import ProcedureError
from baccarat.server.bulk import later
from baccarat.server.schema import table_leases
from baccarat.server.store.base import Database

__all__ = ["LeaseLost", "Leases"]


class LeaseLost(ProcedureError):
    """A write for a table whose lease this process no longer holds."""


class Leases:
    """Who runs each table: a lease renewed by its holder, taken over once it expires."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def acquire_lease(
        self, table_id: str, owner: str, *, ttl: float, dead: Callable[[str], bool] | None = None
    ) -> bool:
        """Take or renew the lease that lets ``owner`` run this table's rounds; False if another holds it.

        ``dead`` says whether a holder is known to be dead (a process of this machine that no longer
        runs): its lease is taken over at once instead of when it expires.
        """
        now = time.time()
        with self.db.engine.begin() as conn:
            self.db.insert_ignore(conn, table_leases, {"table_id": table_id, "owner": owner, "expires_at": now + ttl})
            holder = conn.execute(select(table_leases.c.owner).where(table_leases.c.table_id == table_id)).scalar()
            gone = holder is not None and holder != owner and dead is not None and dead(str(holder))
            result = conn.execute(
                update(table_leases)
                .where(
                    table_leases.c.table_id == table_id,
                    or_(table_leases.c.owner == owner, table_leases.c.expires_at < now, table_leases.c.owner == holder)
                    if gone
                    else or_(table_leases.c.owner == owner, table_leases.c.expires_at < now),
                )
                .values(owner=owner, expires_at=now + ttl)
            )
            return result.rowcount == 1

    def release_lease(self, table_id: str, owner: str) -> None:
        """Give the lease up (on a clean shutdown)."""
        with self.db.engine.begin() as conn:
            conn.execute(
                update(table_leases)
                .where(table_leases.c.table_id == table_id, table_leases.c.owner == owner)
                .values(expires_at=0.0)
            )

    def lease_owner(self, table_id: str) -> str | None:
        """Who holds a table's lease now, if anyone."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(table_leases.c.owner).where(
                    table_leases.c.table_id == table_id, table_leases.c.expires_at > time.time()
                )
            ).first()
        return None if row is None else str(row[0])

    def fence(self, conn: Connection, table_id: str, owner: str, now: float) -> None:
        """Refuse the transaction (:class:`LeaseLost`) unless ``owner`` still holds the table's lease;
        the lease row stays locked until it commits."""
        if conn.execute(_FENCE, {"fenced_table": table_id, "fenced_owner": owner, "fenced_at": now}).rowcount != 1:
            raise LeaseLost(f"this process no longer holds the lease of table {table_id}")

    def fence_later(self, conn: Connection, table_id: str, owner: str, now: float) -> Callable[[], None]:
        """:meth:`fence` sent in the pipeline in progress (PostgreSQL): the check it returns raises
        :class:`LeaseLost` once the pipeline has synced, before the transaction commits."""
        sql = _FENCE_LATER.get(conn.dialect.name)
        if sql is None:
            sql = _FENCE_LATER[conn.dialect.name] = str(
                _FENCE.returning(table_leases.c.table_id).compile(dialect=conn.dialect)
            )
        cursor = later(conn, sql, {"fenced_table": table_id, "fenced_owner": owner, "fenced_at": now})

        def check() -> None:
            try:
                held = cursor.fetchone() is not None
            finally:
                cursor.close()
            if not held:
                raise LeaseLost(f"this process no longer holds the lease of table {table_id}")

        return check


#: The lease row of a table locked, if ``owner`` holds it at ``now`` (a row changed, or none).
_FENCE: Update = (
    update(table_leases)
    .where(
        table_leases.c.table_id == bindparam("fenced_table"),
        table_leases.c.owner == bindparam("fenced_owner"),
        table_leases.c.expires_at > bindparam("fenced_at"),
    )
    .values(expires_at=table_leases.c.expires_at)
)
#: :data:`_FENCE` with the row returned, as the SQL of each dialect (compiled once)
_FENCE_LATER: dict[str, str] = {}
