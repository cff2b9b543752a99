"""a table's pace (live or turn-based, days per move), the deadline of its awaited move and
the deadline its reminder was sent for

Revision ID: 0009_turn_based_pace
Revises: 0008_mute_marks
Create Date: 2026-11-26 03:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_turn_based_pace"
down_revision: str | None = "0008_mute_marks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("pace", sa.String(length=12), server_default="live", nullable=False)
        )
        batch_op.add_column(sa.Column("days_per_move", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("deadline", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("reminded_deadline", sa.DateTime(), nullable=True))
        batch_op.create_index(batch_op.f("ix_rooms_deadline"), ["deadline"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rooms_deadline"))
        batch_op.drop_column("reminded_deadline")
        batch_op.drop_column("deadline")
        batch_op.drop_column("days_per_move")
        batch_op.drop_column("pace")
