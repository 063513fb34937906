"""table snapshots: each table's state between rounds, rebuilt from with the events after it

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 03:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "table_snapshots",
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("table_snapshots")
