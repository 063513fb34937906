"""bets by bettor: a round's bets indexed by bettor and kind, as its settlement reads them, and the open bets

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 23:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration (the new index starts with the round, so it replaces the old one)."""
    op.create_index("ix_bets_round_bettor", "bets", ["round_id", "user_id", "kind"])
    op.drop_index("ix_bets_round", table_name="bets")
    # the open bets alone (a settlement looks for them, however many bets the table's history holds)
    where = sa.text("status = 'accepted'")
    op.create_index("ix_bets_open", "bets", ["round_id"], sqlite_where=where, postgresql_where=where)


def downgrade() -> None:
    """Revert this migration."""
    op.drop_index("ix_bets_open", table_name="bets")
    op.create_index("ix_bets_round", "bets", ["round_id"])
    op.drop_index("ix_bets_round_bettor", table_name="bets")
