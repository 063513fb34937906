"""bets by bettor and day: a player's bets indexed by when they were placed, as the daily loss
limit sums them (in the transaction that stores a group of bets, for each of its players with a
limit), however many bets the other players place

On PostgreSQL the index is built under a lock that holds writes to ``bets``: on a large
database, migrate in a quiet hour.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05 10:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_index("ix_bets_bettor_day", "bets", ["user_id", "created_at"])


def downgrade() -> None:
    """Revert this migration."""
    op.drop_index("ix_bets_bettor_day", table_name="bets")
