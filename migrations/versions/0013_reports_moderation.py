"""reports, moderators, site-wide mutes and bans, the moderators' audit log, and who
closed a table

Revision ID: 0013_reports_moderation
Revises: 0012_friends_invitations_blocks
Create Date: 2026-11-26 06:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_reports_moderation"
down_revision: str | None = "0012_friends_invitations_blocks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("closed_by", sa.String(length=16), nullable=True))
    op.create_table(
        "moderators",
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("granted_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("reporter_id", sa.String(length=32), nullable=False),
        sa.Column("reported_id", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.String(length=20), nullable=False),
        sa.Column("text", sa.String(length=1000), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=True),
        sa.Column("match_id", sa.String(length=32), nullable=True),
        sa.Column("chat_id", sa.Integer(), nullable=True),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("handled_by", sa.String(length=32), nullable=True),
        sa.Column("handled_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["reporter_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["reported_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["handled_by"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_reports_status_id", "reports", ["status", "id"])
    op.create_index("ix_reports_reporter_id", "reports", ["reporter_id"])
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("ix_reports_created_at", "reports", ["created_at"])
    op.create_table(
        "sanctions",
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("until", sa.DateTime(), nullable=True),
        sa.Column("by_id", sa.String(length=32), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("marks", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["by_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("user_id", "kind"),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("moderator_id", sa.String(length=32), nullable=True),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("target_id", sa.String(length=32), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["moderator_id"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["target_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])
    op.create_index("ix_moderation_log_target_id", "moderation_log", ["target_id"])


def downgrade() -> None:
    op.drop_index("ix_moderation_log_target_id", table_name="moderation_log")
    op.drop_index("ix_moderation_log_at", table_name="moderation_log")
    op.drop_table("moderation_log")
    op.drop_table("sanctions")
    op.drop_index("ix_reports_created_at", table_name="reports")
    op.drop_index("ix_reports_reported_id", table_name="reports")
    op.drop_index("ix_reports_reporter_id", table_name="reports")
    op.drop_index("ix_reports_status_id", table_name="reports")
    op.drop_table("reports")
    op.drop_table("moderators")
    op.drop_column("rooms", "closed_by")
