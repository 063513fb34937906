"""intents: actions sent to a process that does not run the table, answered by the one that does

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 00:45:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table(
        "intents",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("answered_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("intents", schema=None) as batch_op:
        batch_op.create_index("ix_intents_table_status", ["table_id", "status"], unique=False)


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("intents", schema=None) as batch_op:
        batch_op.drop_index("ix_intents_table_status")
    op.drop_table("intents")
