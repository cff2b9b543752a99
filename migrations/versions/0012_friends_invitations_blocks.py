"""friends, invitations to a seat, and blocks between people

Revision ID: 0012_friends_invitations_blocks
Revises: 0011_match_analysis
Create Date: 2026-11-27 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_friends_invitations_blocks"
down_revision: str | None = "0011_match_analysis"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "friendships",
        sa.Column("from_id", sa.String(length=32), nullable=False),
        sa.Column("to_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("accepted_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["from_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["to_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("from_id", "to_id"),
    )
    op.create_index("ix_friendships_to_id", "friendships", ["to_id"])
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.String(length=32), nullable=False),
        sa.Column("blocked_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["blocker_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["blocked_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("blocker_id", "blocked_id"),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("from_id", sa.String(length=32), nullable=False),
        sa.Column("to_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expired_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["from_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["to_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("room_id", "to_id"),
    )
    op.create_index("ix_invitations_from_id", "invitations", ["from_id"])
    op.create_index("ix_invitations_to_id", "invitations", ["to_id"])


def downgrade() -> None:
    op.drop_index("ix_invitations_to_id", table_name="invitations")
    op.drop_index("ix_invitations_from_id", table_name="invitations")
    op.drop_table("invitations")
    op.drop_index("ix_blocks_blocked_id", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("ix_friendships_to_id", table_name="friendships")
    op.drop_table("friendships")
