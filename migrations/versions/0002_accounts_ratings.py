"""accounts, database sessions, rated tables and ratings

Revision ID: 0002_accounts_ratings
Revises: 0001
Create Date: 2026-11-23 09:00:00

Existing guests keep their identity: their cookies hold their user id, signed, and each
gets a session row with that id, so the same cookie now names a session of theirs. Seats
of finished matches learn whether they won.
"""

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

revision: str = "0002_accounts_ratings"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GUEST_SESSION_DAYS = 365


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("username", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("username_key", sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column("password_hash", sa.String(length=255), nullable=True))
        batch_op.create_unique_constraint("uq_users_username_key", ["username_key"])

    op.create_table(
        "auth_sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_auth_sessions_user_id"), ["user_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_auth_sessions_expires_at"), ["expires_at"], unique=False
        )

    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(
            sa.Column("ratings_applied", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    with op.batch_alter_table("match_players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("won", sa.Boolean(), nullable=True))

    op.create_table(
        "ratings",
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "game"),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index("ix_ratings_game_rating", ["game", "rating"], unique=False)

    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("rating_before", sa.Integer(), nullable=False),
        sa.Column("mu_after", sa.Double(), nullable=False),
        sa.Column("sigma_after", sa.Double(), nullable=False),
        sa.Column("rating_after", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "seat"),
    )
    with op.batch_alter_table("rating_changes", schema=None) as batch_op:
        batch_op.create_index("ix_rating_changes_user_game", ["user_id", "game"], unique=False)

    _keep_guest_cookies()
    _record_who_won()


def _keep_guest_cookies() -> None:
    """Every existing user gets a session whose id is their user id (what their cookie holds)."""
    expires = datetime.now(UTC).replace(tzinfo=None) + timedelta(days=GUEST_SESSION_DAYS)
    op.execute(
        sa.text(
            "INSERT INTO auth_sessions (id, user_id, created_at, expires_at)"
            " SELECT id, id, created_at, :expires FROM users"
        ).bindparams(expires=expires)
    )


def _record_who_won() -> None:
    connection = op.get_bind()
    matches = sa.table(
        "matches", sa.column("id"), sa.column("status"), sa.column("winners", sa.JSON)
    )
    players = sa.table("match_players", sa.column("match_id"), sa.column("seat"), sa.column("won"))
    rows = connection.execute(
        sa.select(matches.c.id, matches.c.winners).where(matches.c.status == "finished")
    )
    for match_id, winners in rows.all():
        connection.execute(
            sa.update(players)
            .where(players.c.match_id == match_id)
            .values(won=players.c.seat.in_(list(winners or [-1])))
        )


def downgrade() -> None:
    with op.batch_alter_table("rating_changes", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_changes_user_game")
    op.drop_table("rating_changes")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_ratings_game_rating")
    op.drop_table("ratings")
    with op.batch_alter_table("match_players", schema=None) as batch_op:
        batch_op.drop_column("won")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("ratings_applied")
        batch_op.drop_column("rated")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("rated")
    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_auth_sessions_expires_at"))
        batch_op.drop_index(batch_op.f("ix_auth_sessions_user_id"))
    op.drop_table("auth_sessions")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint("uq_users_username_key", type_="unique")
        batch_op.drop_column("password_hash")
        batch_op.drop_column("username_key")
        batch_op.drop_column("username")
