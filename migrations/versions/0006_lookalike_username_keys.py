"""usernames keyed again: small capitals and other look-alikes fold as the letters they copy

An account's ``username_key`` is its username's look-alike key (app/people/confusables.py),
which now also folds the small capitals ("ᴀɴɴ" is "ann") and letters of other scripts drawn
as Latin ones. Every key is computed again, so that an existing account is still found by
its username (at login, on its page). A username whose new key an account already holds
(one registered as a look-alike before this fold) keeps its old key: the index stays unique,
and no account is taken from its owner.

The downgrade leaves the keys as they are: the former fold is not kept to compute them.

Revision ID: 0006_lookalike_username_keys
Revises: 0005_free_room_codes
Create Date: 2026-11-26 00:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.people.confusables import name_key

revision: str = "0006_lookalike_username_keys"
down_revision: str | None = "0005_free_room_codes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

USERS = sa.table(
    "users",
    sa.column("id", sa.String),
    sa.column("username", sa.String),
    sa.column("username_key", sa.String),
    sa.column("created_at", sa.DateTime),
)


def upgrade() -> None:
    bind = op.get_bind()
    accounts = bind.execute(
        sa.select(USERS.c.id, USERS.c.username, USERS.c.username_key)
        .where(USERS.c.username.is_not(None))
        .order_by(USERS.c.created_at, USERS.c.id)
    ).all()
    held = {key for _, _, key in accounts}
    for user_id, username, old_key in accounts:
        key = name_key(username)
        if key == old_key or key in held:
            continue
        held.discard(old_key)
        held.add(key)
        bind.execute(sa.update(USERS).where(USERS.c.id == user_id).values(username_key=key))


def downgrade() -> None:
    pass
