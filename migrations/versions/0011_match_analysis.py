"""the computer's analysis of each finished match: queued with the match's end, then done

Revision ID: 0011_match_analysis
Revises: 0010_notifications
Create Date: 2026-11-26 03:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_match_analysis"
down_revision: str | None = "0010_notifications"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_analyses",
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("queued_at", sa.DateTime(), nullable=False),
        sa.Column("claimed_at", sa.DateTime(), nullable=True),
        sa.Column("done_at", sa.DateTime(), nullable=True),
        sa.Column("decisions", sa.JSON(), nullable=True),
        sa.Column("accuracy", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id"),
    )
    op.create_index("ix_match_analyses_status_queued_at", "match_analyses", ["status", "queued_at"])


def downgrade() -> None:
    op.drop_index("ix_match_analyses_status_queued_at", table_name="match_analyses")
    op.drop_table("match_analyses")
