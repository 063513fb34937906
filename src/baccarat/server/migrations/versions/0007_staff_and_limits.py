"""staff and limits: dealers assigned to tables, suspended accounts, players' responsible-gaming limits

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 02:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("suspended", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "dealer_tables",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("table_id", sa.String(40), primary_key=True),
    )
    op.create_table(
        "player_limits",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("daily_loss_limit", sa.BigInteger(), nullable=True),
        sa.Column("session_reminder_minutes", sa.Integer(), nullable=True),
        sa.Column("excluded_until", sa.Float(), nullable=True),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("player_limits")
    op.drop_table("dealer_tables")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("suspended")
