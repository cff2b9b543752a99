"""absence, stand-ins and turn clocks

Rooms keep their turn clock setting and running clocks; a seat names the person a computer
stands in for; every event says who made the move and whether the clock played it.

Revision ID: 0003_absence_clocks
Revises: 0002_accounts_ratings
Create Date: 2026-11-29 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_absence_clocks"
down_revision: str | None = "0002_accounts_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("clock_state", sa.JSON(), nullable=True))
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stand_in_for", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("stand_in_name", sa.String(length=40), nullable=True))
        batch_op.create_foreign_key(
            "fk_seats_stand_in_for_users", "users", ["stand_in_for"], ["id"]
        )
    with op.batch_alter_table("match_events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("played_by", sa.JSON(), nullable=True))
        batch_op.add_column(
            sa.Column("timeout", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("match_events", schema=None) as batch_op:
        batch_op.drop_column("timeout")
        batch_op.drop_column("played_by")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_constraint("fk_seats_stand_in_for_users", type_="foreignkey")
        batch_op.drop_column("stand_in_name")
        batch_op.drop_column("stand_in_for")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("clock_state")
        batch_op.drop_column("clock")
