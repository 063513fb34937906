"""big ids: 64-bit ids for the tables that grow with every bet (events, bets, entries, intents)

Only PostgreSQL changes: its ``serial`` ids and their sequences are 32 bits, which a busy table
fills within days. SQLite's ``INTEGER PRIMARY KEY`` is 64 bits already. On PostgreSQL each table
is rewritten under a lock: on a large database, migrate in a quiet hour.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04 16:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the tables whose ``id`` (and its sequence) grows with every bet
_IDS = ("bets", "entries", "events", "intents")
#: the columns that hold those ids
_REFERENCES = (("entries", "bet_id"), ("table_snapshots", "event_id"))


def _retype(pg_type: str) -> None:
    """Give the ids, the columns that hold them and the ids' sequences this type."""
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column in (*_REFERENCES, *((table, "id") for table in _IDS)):
        op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE {pg_type}")
    for table in _IDS:
        op.execute(f"ALTER SEQUENCE {table}_id_seq AS {pg_type}")


def upgrade() -> None:
    """Apply this migration."""
    _retype("bigint")


def downgrade() -> None:
    """Revert this migration (it fails if an id no longer fits in 32 bits)."""
    _retype("integer")
