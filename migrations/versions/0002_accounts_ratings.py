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
    # Plain ADD COLUMN and indexes, never a batch copy: on SQLite a copy drops the old
    # table, which the foreign keys pointing at it refuse (users) or follow by deleting
    # every row that points at it (ON DELETE CASCADE: a match's players and events).
    op.add_column("users", sa.Column("username", sa.String(length=20), nullable=True))
    op.add_column("users", sa.Column("username_key", sa.String(length=100), nullable=True))
    op.add_column("users", sa.Column("password_hash", sa.String(length=255), nullable=True))
    op.create_index("ix_users_username_key", "users", ["username_key"], unique=True)

    op.create_table(
        "auth_sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_auth_sessions_user_id", "auth_sessions", ["user_id"], unique=False)
    op.create_index("ix_auth_sessions_expires_at", "auth_sessions", ["expires_at"], unique=False)

    op.add_column(
        "rooms", sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.add_column(
        "matches", sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.add_column(
        "matches",
        sa.Column("ratings_applied", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.add_column("match_players", sa.Column("won", sa.Boolean(), nullable=True))

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
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"], unique=False)

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
    op.create_index(
        "ix_rating_changes_user_game", "rating_changes", ["user_id", "game"], unique=False
    )

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
    op.drop_index("ix_rating_changes_user_game", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_game_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_column("match_players", "won")
    op.drop_column("matches", "ratings_applied")
    op.drop_column("matches", "rated")
    op.drop_column("rooms", "rated")
    op.drop_index("ix_auth_sessions_expires_at", table_name="auth_sessions")
    op.drop_index("ix_auth_sessions_user_id", table_name="auth_sessions")
    op.drop_table("auth_sessions")
    op.drop_index("ix_users_username_key", table_name="users")
    op.drop_column("users", "password_hash")
    op.drop_column("users", "username_key")
    op.drop_column("users", "username")
