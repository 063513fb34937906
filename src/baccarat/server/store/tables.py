"""Tables: their flags (open, shoe change asked for), their stored events and their snapshots."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from baccarat.server.schema import AccountKind, events, table_snapshots, table_state
from baccarat.server.store.base import Database, dumps
from baccarat.server.store.ledger import Ledger
from baccarat.table import SNAPSHOT_FORMAT
from baccarat.table_events import EVENT_TYPES

__all__ = ["PRIVATE_EVENTS", "TableHistory", "Tables"]

#: Table events stored but not broadcast: one per bet would flood every client (the running
#: totals go out with the countdown instead).
PRIVATE_EVENTS = frozenset({"BetPlaced", "BetCancelled", "BetSwitched"})


@dataclass(frozen=True, slots=True, kw_only=True)
class TableHistory:
    """What rebuilds a table: its newest snapshot (``None``: none, or of another format), the id of
    the newest event it covers (0 without one), and the state machine's events after that id."""

    snapshot: dict[str, Any] | None
    after: int
    events: list[dict[str, Any]]


def _event_dict(row: Any) -> dict[str, Any]:
    """A stored event as stored: what the public sees of it is made by the observer."""
    m = row._mapping
    payload = json.loads(m["payload"])
    return {
        "id": m["id"],
        "table": m["table_id"],
        "round_id": m["round_id"],
        "type": m["kind"],
        "ts": m["created_at"],
        **payload,
    }


def _table_events(conn: Connection, table_id: str, after: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        select(events.c.payload)
        .where(events.c.table_id == table_id, events.c.id > after, events.c.kind.in_(sorted(EVENT_TYPES)))
        .order_by(events.c.id)
    ).all()
    return [json.loads(row[0]) for row in rows]


class Tables:
    """Each table's row (flags and in-play account), its event log and its newest snapshot."""

    def __init__(self, db: Database, ledger: Ledger) -> None:
        self.db = db
        self.ledger = ledger

    def ensure_tables(self, table_ids: Iterable[str], *, open_by_default: dict[str, bool]) -> None:
        """Create the system accounts and one row (and in-play account) per table, if missing."""
        with self.db.engine.begin() as conn:
            self.ledger.account(conn, AccountKind.HOUSE, "house")
            self.ledger.account(conn, AccountKind.ISSUANCE, "issuance")
            for table_id in table_ids:
                in_play = self.ledger.account(conn, AccountKind.IN_PLAY, f"in_play:{table_id}")
                self.db.insert_ignore(
                    conn,
                    table_state,
                    {
                        "table_id": table_id,
                        "is_open": open_by_default.get(table_id, True),
                        "change_shoe": False,
                        "in_play_id": in_play,
                    },
                )

    # --- flags ----------------------------------------------------------------------------------

    def table_flags(self, table_id: str) -> tuple[bool, bool, int]:
        """(open, shoe change requested, in-play account id) of a table."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(table_state).where(table_state.c.table_id == table_id)).one()
        m = row._mapping
        return bool(m["is_open"]), bool(m["change_shoe"]), int(m["in_play_id"])

    def set_table_flags(
        self, table_id: str, *, is_open: bool | None = None, change_shoe: bool | None = None
    ) -> dict[str, Any]:
        """Open or close a table, or ask for (or clear) a shoe change; stores an event."""
        values: dict[str, Any] = {}
        if is_open is not None:
            values["is_open"] = is_open
        if change_shoe is not None:
            values["change_shoe"] = change_shoe
        with self.db.engine.begin() as conn:
            conn.execute(update(table_state).where(table_state.c.table_id == table_id).values(**values))
            payload = {k: v for k, v in (("open", is_open), ("change_shoe", change_shoe)) if v is not None}
            return self.event(conn, table_id=table_id, kind="table_changed", payload=payload)

    def table_settings(self) -> dict[str, dict[str, Any]]:
        """The house's changes to each table's settings (tables with none are left out)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(table_state.c.table_id, table_state.c.settings)).all()
        return {str(r.table_id): json.loads(r.settings) for r in rows if r.settings}

    def set_table_settings(self, table_id: str, settings: dict[str, Any]) -> dict[str, Any]:
        """Store the house's changes to a table's settings (replacing the earlier ones); stores an event."""
        with self.db.engine.begin() as conn:
            text_ = json.dumps(settings, sort_keys=True) if settings else None
            conn.execute(update(table_state).where(table_state.c.table_id == table_id).values(settings=text_))
            return self.event(conn, table_id=table_id, kind="table_changed", payload={"settings": settings})

    def shoe_changed(self, conn: Connection, table_id: str) -> None:
        """Clear the table's request for a shoe change (its shoe ended)."""
        conn.execute(update(table_state).where(table_state.c.table_id == table_id).values(change_shoe=False))

    # --- events ---------------------------------------------------------------------------------

    def event(
        self,
        conn: Connection,
        *,
        table_id: str,
        kind: str,
        payload: dict[str, Any],
        round_id: int | None = None,
        notify: bool = True,
    ) -> dict[str, Any]:
        """Store one table event (and, with ``notify``, announce it to the other processes on
        PostgreSQL when the transaction commits; the group commit announces its events together)."""
        now = time.time()
        event_id = conn.execute(
            insert(events)
            .values(table_id=table_id, round_id=round_id, kind=kind, payload=dumps(payload), created_at=now)
            .returning(events.c.id)
        ).scalar_one()
        if notify:
            self.db.announce(conn, [event_id])
        return {"id": event_id, "table": table_id, "round_id": round_id, "type": kind, "ts": now, **payload}

    def events_by_ids(self, event_ids: Sequence[int]) -> list[dict[str, Any]]:
        """Stored events with their whole payloads, oldest first (the hub makes their messages)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(events).where(events.c.id.in_(list(event_ids))).order_by(events.c.id)).all()
        return [_event_dict(row) for row in rows]

    def events_since(self, table_id: str, after_id: int, *, limit: int = 200) -> list[dict[str, Any]]:
        """Stored events of a table after ``after_id`` but the bets (for clients catching up, through
        :func:`baccarat.server.observer.messages.public`)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(events)
                .where(
                    events.c.table_id == table_id,
                    events.c.id > after_id,
                    events.c.kind.not_in(sorted(PRIVATE_EVENTS)),
                )
                .order_by(events.c.id)
                .limit(limit)
            ).all()
        return [_event_dict(row) for row in rows]

    def last_event_id(self, table_id: str) -> int:
        """The id of the table's newest stored event (0 when none)."""
        with self.db.engine.connect() as conn:
            found = conn.execute(select(func.max(events.c.id)).where(events.c.table_id == table_id)).scalar()
        return int(found or 0)

    def table_events(self, table_id: str, *, after: int = 0) -> list[dict[str, Any]]:
        """The stored events of the table state machine with an id above ``after`` (default: every one),
        oldest first (what :meth:`Table.replay` reads)."""
        with self.db.engine.connect() as conn:
            return _table_events(conn, table_id, after)

    # --- snapshots ------------------------------------------------------------------------------

    def table_history(self, table_id: str) -> TableHistory:
        """What rebuilds the table: its newest snapshot (when it is of the format this version reads)
        and the state machine's events after it; with none, every event."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(table_snapshots.c.event_id, table_snapshots.c.payload).where(
                    table_snapshots.c.table_id == table_id
                )
            ).first()
            snapshot: dict[str, Any] | None = None
            after = 0
            if row is not None:
                data = json.loads(row[1])
                if isinstance(data, dict) and data.get("format") == SNAPSHOT_FORMAT:
                    snapshot, after = data, int(row[0])
            return TableHistory(snapshot=snapshot, after=after, events=_table_events(conn, table_id, after))

    def store_snapshot(self, conn: Connection, table_id: str, snapshot: dict[str, Any], now: float) -> None:
        """Store the table's snapshot as covering every event of the table stored so far (in this transaction too)."""
        event_id = int(conn.execute(select(func.max(events.c.id)).where(events.c.table_id == table_id)).scalar() or 0)
        values = {"table_id": table_id, "event_id": event_id, "payload": dumps(snapshot), "created_at": now}
        statement = self.db.insert(table_snapshots).values(**values)
        conn.execute(
            statement.on_conflict_do_update(
                index_elements=[table_snapshots.c.table_id],
                set_={"event_id": event_id, "payload": statement.excluded.payload, "created_at": now},
            )
        )
