"""short codes only for open public rooms: private and ended rooms give theirs up

Revision ID: 0005_free_room_codes
Revises: 0004_chat
Create Date: 2026-11-25 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_free_room_codes"
down_revision: str | None = "0004_chat"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENDED = "('finished', 'closed', 'abandoned')"


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.alter_column("code", existing_type=sa.String(length=12), nullable=True)
    op.execute(f"UPDATE rooms SET code = NULL WHERE visibility <> 'public' OR status IN {ENDED}")


def downgrade() -> None:
    # A room without a code gets its id's first characters (ids are unique, and so are
    # their 12-character prefixes in practice; codes are never looked up by prefix).
    op.execute("UPDATE rooms SET code = UPPER(SUBSTR(id, 1, 12)) WHERE code IS NULL")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.alter_column("code", existing_type=sa.String(length=12), nullable=False)
