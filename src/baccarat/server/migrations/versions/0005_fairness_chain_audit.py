"""fairness chain and audit log: each finished round's record digest and chain link, each shoe's chain
head and the players' entropy of its client seed, the next shoe's published commitment, and the
append-only log of the house's actions

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 23:45:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("record_digest", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("chain_link", sa.String(length=64), nullable=True))
    with op.batch_alter_table("shoes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("chain_head", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("entropy", sa.Text(), nullable=True))
    op.create_table(
        "seed_commitments",
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("server_seed", sa.String(length=128), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("published_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_table(
        "seed_entropy",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("entropy", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_seed_entropy_commitment", "seed_entropy", ["table_id", "commitment"], unique=False)
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=40), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=True),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    """Revert this migration."""
    op.drop_table("audit_log")
    op.drop_index("ix_seed_entropy_commitment", table_name="seed_entropy")
    op.drop_table("seed_entropy")
    op.drop_table("seed_commitments")
    with op.batch_alter_table("shoes", schema=None) as batch_op:
        batch_op.drop_column("entropy")
        batch_op.drop_column("chain_head")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("chain_link")
        batch_op.drop_column("record_digest")
