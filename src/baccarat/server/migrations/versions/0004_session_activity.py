"""session activity: when each session was last used (idle timeout), and indexes to end a user's
sessions and to prune the expired ones

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 23:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_seen_at", sa.Float(), nullable=True))
        batch_op.create_index("ix_sessions_user", ["user_id"], unique=False)
        batch_op.create_index("ix_sessions_expires", ["expires_at"], unique=False)
    op.execute("UPDATE sessions SET last_seen_at = created_at")


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index("ix_sessions_expires")
        batch_op.drop_index("ix_sessions_user")
        batch_op.drop_column("last_seen_at")
