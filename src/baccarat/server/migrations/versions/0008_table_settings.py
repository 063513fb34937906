"""table settings: the house's changes to a table's settings (limits, timing), over its tables file

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 03:10:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("table_state", schema=None) as batch_op:
        batch_op.add_column(sa.Column("settings", sa.Text(), nullable=True))


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table("table_state", schema=None) as batch_op:
        batch_op.drop_column("settings")
