"""an account's language (None: the request's own, from the cookie or the browser), and the
language a push subscription was made in

Revision ID: 0014_account_language
Revises: 0013_reports_moderation
Create Date: 2026-11-26 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_account_language"
down_revision: str | None = "0013_reports_moderation"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("users", sa.Column("language", sa.String(length=8), nullable=True))
    op.add_column("push_subscriptions", sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.drop_column("language")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("language")
