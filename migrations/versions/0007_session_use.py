"""sessions remember when they were last used, so that idle guests can be removed; the
columns naming a person that had no index get one, for that removal

Revision ID: 0007_session_use
Revises: 0006_lookalike_username_keys
Create Date: 2026-11-26 00:30:00.000000
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0007_session_use"
down_revision: str | None = "0006_lookalike_username_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Columns naming a person that had no index: the removal of idle guests asks of each guest
# whether any row names it.
PERSON_COLUMNS = [("rooms", "host_id"), ("seats", "stand_in_for"), ("chat_messages", "user_id")]


def upgrade() -> None:
    op.add_column("auth_sessions", sa.Column("used_at", sa.DateTime(), nullable=True))
    # When an existing session was last used is unknown: count it as used at the upgrade,
    # so that nobody is taken for idle before a month has passed.
    now = datetime.now(UTC).replace(tzinfo=None)
    op.execute(sa.text("UPDATE auth_sessions SET used_at = :now").bindparams(now=now))
    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.alter_column("used_at", existing_type=sa.DateTime(), nullable=False)
    for table, column in PERSON_COLUMNS:
        op.create_index(f"ix_{table}_{column}", table, [column], unique=False)


def downgrade() -> None:
    for table, column in PERSON_COLUMNS:
        op.drop_index(f"ix_{table}_{column}", table_name=table)
    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.drop_column("used_at")
