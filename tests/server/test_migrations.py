"""Migrations on PostgreSQL: a database made by an earlier revision, with rows in it, is brought up
to the newest and back down, its rows kept."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

from baccarat.server.db import _alembic_config, make_engine, migrate

pytestmark = pytest.mark.postgres

_WIDENED = {
    ("bets", "id"),
    ("entries", "id"),
    ("entries", "bet_id"),
    ("events", "id"),
    ("table_snapshots", "event_id"),
    ("intents", "id"),
}


def _types(conn: Connection) -> dict[tuple[str, str], str]:
    """The data types of the widened columns and of the ids' sequences, in the current schema."""
    rows = conn.execute(
        text(
            "SELECT table_name, column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema()"
        )
    )
    found = {(t, c): d for t, c, d in rows if (t, c) in _WIDENED}
    tables = {table for table, _ in _WIDENED}
    sequences = conn.execute(
        text("SELECT sequencename, data_type::text FROM pg_sequences WHERE schemaname = current_schema()")
    )
    found |= {(name, "sequence"): kind for name, kind in sequences if name.removesuffix("_id_seq") in tables}
    return found


def test_the_ids_that_grow_with_every_bet_are_widened_to_64_bits_and_back(pg_url: str) -> None:
    from alembic import command

    engine = make_engine(pg_url)
    config = _alembic_config()
    with engine.connect() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0008")
        conn.execute(text("INSERT INTO events (table_id, kind, payload, created_at) VALUES ('t', 'k', '{}', 1.0)"))
        conn.commit()
        assert set(_types(conn).values()) == {"integer"}
    migrate(engine)
    with engine.connect() as conn:
        widened = _types(conn)
        assert set(widened) >= _WIDENED and set(widened.values()) == {"bigint"}
        assert len([k for k in widened if k[1] == "sequence"]) == 4
        conn.execute(text("SELECT setval('events_id_seq', 3000000000)"))
        conn.execute(text("INSERT INTO events (table_id, kind, payload, created_at) VALUES ('t', 'k', '{}', 2.0)"))
        conn.commit()
        assert [r[0] for r in conn.execute(text("SELECT id FROM events ORDER BY id"))] == [1, 3_000_000_001]
        config.attributes["connection"] = conn
        with pytest.raises(DBAPIError, match=r"out of range|out of bounds"):  # that id no longer fits
            command.downgrade(config, "0008")
        conn.rollback()
        conn.execute(text("DELETE FROM events WHERE id > 1"))
        conn.execute(text("SELECT setval('events_id_seq', 1)"))
        conn.commit()
        command.downgrade(config, "0008")
        conn.commit()
        assert set(_types(conn).values()) == {"integer"}
        assert [r[0] for r in conn.execute(text("SELECT id FROM events"))] == [1]
    engine.dispose()
