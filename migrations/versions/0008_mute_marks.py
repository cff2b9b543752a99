"""where each session was opened (browser mark, address), and what a room's mutes cover

Revision ID: 0008_mute_marks
Revises: 0007_session_use
Create Date: 2026-11-26 00:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_mute_marks"
down_revision: str | None = "0007_session_use"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("browser", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("address", sa.String(length=64), nullable=True))
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("mute_marks", sa.JSON(), server_default=sa.text("'{}'"), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("mute_marks")
    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.drop_column("address")
        batch_op.drop_column("browser")
