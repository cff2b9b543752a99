"""notifications: each account's settings, browsers' push subscriptions, and the outbox

Revision ID: 0010_notifications
Revises: 0009_turn_based_pace
Create Date: 2026-11-26 02:45:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_notifications"
down_revision: str | None = "0009_turn_based_pace"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _flag(name: str) -> sa.Column[bool]:
    return sa.Column(name, sa.Boolean(), server_default=sa.true(), nullable=False)


def upgrade() -> None:
    op.create_table(
        "notification_settings",
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("email_confirmed_at", sa.DateTime(), nullable=True),
        _flag("email_turns"),
        _flag("email_reminders"),
        _flag("email_endings"),
        sa.Column("email_sent_at", sa.DateTime(), nullable=True),
        sa.Column("webhook_url", sa.String(length=2000), nullable=True),
        sa.Column("webhook_secret", sa.String(length=64), nullable=True),
        _flag("webhook_turns"),
        _flag("webhook_reminders"),
        _flag("webhook_endings"),
        sa.Column("webhook_failures", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("webhook_disabled_note", sa.String(length=500), nullable=True),
        _flag("push_turns"),
        _flag("push_reminders"),
        _flag("push_endings"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("endpoint", sa.String(length=2000), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("endpoint"),
    )
    op.create_index("ix_push_subscriptions_user_id", "push_subscriptions", ["user_id"])
    op.create_table(
        "notification_outbox",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("channel", sa.String(length=10), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=True),
        sa.Column("game", sa.String(length=20), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("due_at", sa.DateTime(), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("leased_by", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_notification_outbox_due", "notification_outbox", ["due_at"])
    op.create_index("ix_notification_outbox_user_id", "notification_outbox", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_notification_outbox_user_id", table_name="notification_outbox")
    op.drop_index("ix_notification_outbox_due", table_name="notification_outbox")
    op.drop_table("notification_outbox")
    op.drop_index("ix_push_subscriptions_user_id", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("notification_settings")
