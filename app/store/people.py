"""Users and their sessions: who a cookie names, accounts by username key, renaming."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.orm import Session

from app.models import (
    AuthSession,
    User,
    iso,
)

# Session ids asked about in one query: well under every database's limit of parameters.
LOOKUP_CHUNK = 500


def get_user(*, session: Session, user_id: str) -> User | None:
    return session.get(User, user_id)


def users_by_username_keys(*, session: Session, keys: set[str]) -> dict[str, User]:
    """The accounts whose look-alike keys are among ``keys``, by key
    (app/people/lookup.py finds the one a typed name means)."""
    return {
        str(user.username_key): user
        for user in session.scalars(select(User).where(User.username_key.in_(keys)))
    }


def users_by_id(*, session: Session, user_ids: set[str]) -> dict[str, User]:
    if not user_ids:
        return {}
    return {u.id: u for u in session.scalars(select(User).where(User.id.in_(user_ids)))}


def open_session(
    *,
    session: Session,
    session_id: str,
    user_id: str,
    expires_at: datetime,
    browser: str | None = None,
    address: str | None = None,
) -> None:
    row = {"id": session_id, "user_id": user_id, "expires_at": expires_at}
    session.execute(insert(AuthSession), [{**row, "browser": browser, "address": address}])


def session_origins(*, session: Session, user_id: str) -> list[tuple[str | None, str | None]]:
    """The (browser mark, address) each live session of a user was opened from."""
    rows = session.execute(
        select(AuthSession.browser, AuthSession.address).where(AuthSession.user_id == user_id)
    )
    return [(browser, address) for browser, address in rows]


def origins_mark(*, session: Session, user_id: str, at: datetime) -> dict[str, Any]:
    """Where a user's live sessions were opened, as a mute or a ban keeps it from ``at``:
    ``{"at": ISO time, "browsers": [...], "addresses": [...]}`` (app/chat/mutes.py says
    what it covers)."""
    origins = session_origins(session=session, user_id=user_id)
    return {
        "at": iso(at),
        "browsers": sorted({browser for browser, _ in origins if browser}),
        "addresses": sorted({address for _, address in origins if address}),
    }


class SessionUser(NamedTuple):
    """An unexpired session and what the server keeps of its person."""

    session_id: str
    expires_at: datetime
    used_at: datetime
    user_id: str
    name: str
    username: str | None
    created_at: datetime
    language: str | None


# Read for every socket opened (each match's new sockets): built once, and its columns
# alone, not the two rows as ORM objects.
_SESSION_USER = (
    select(
        AuthSession.id,
        AuthSession.expires_at,
        AuthSession.used_at,
        User.id,
        User.name,
        User.username,
        User.created_at,
        User.language,
    )
    .join(User, User.id == AuthSession.user_id)
    .where(AuthSession.id == bindparam("session"), AuthSession.expires_at > bindparam("now"))
)


def session_user(*, session: Session, session_id: str, now: datetime) -> SessionUser | None:
    """The unexpired session ``session_id`` and its user."""
    row = session.connection().execute(_SESSION_USER, {"session": session_id, "now": now}).first()
    return None if row is None else SessionUser(*row)


def live_sessions(*, session: Session, session_ids: set[str], now: datetime) -> set[str]:
    """Which of ``session_ids`` still name an unexpired session."""
    ids = sorted(session_ids)
    live: set[str] = set()
    for start in range(0, len(ids), LOOKUP_CHUNK):
        chunk = ids[start : start + LOOKUP_CHUNK]
        found = select(AuthSession.id).where(
            AuthSession.id.in_(chunk), AuthSession.expires_at > now
        )
        live.update(session.scalars(found))
    return live


def extend_session(*, session: Session, session_id: str, expires_at: datetime) -> None:
    session.execute(
        update(AuthSession).where(AuthSession.id == session_id).values(expires_at=expires_at)
    )
    session.commit()


def languages_of(*, session: Session, user_ids: set[str]) -> dict[str, str | None]:
    """Each user's language setting (None: none chosen)."""
    if not user_ids:
        return {}
    query = select(User.id, User.language).where(User.id.in_(user_ids))
    return {user_id: language for user_id, language in session.execute(query)}


def set_language(*, session: Session, user_id: str, language: str | None) -> None:
    """An account's language setting (None: none, the request's own)."""
    session.execute(update(User).where(User.id == user_id).values(language=language))
    session.commit()


def mark_session_used(*, session: Session, session_id: str, at: datetime) -> None:
    session.execute(update(AuthSession).where(AuthSession.id == session_id).values(used_at=at))
    session.commit()


def close_session(*, session: Session, session_id: str) -> None:
    session.execute(delete(AuthSession).where(AuthSession.id == session_id))


def close_user_sessions(*, session: Session, user_id: str) -> int:
    """End every session of a user; how many there were."""
    ended = session.execute(delete(AuthSession).where(AuthSession.user_id == user_id))
    return int(ended.rowcount)  # type: ignore[attr-defined]


def save_user(*, session: Session, user_id: str, name: str) -> User:
    user = session.get(User, user_id)
    if user is None:
        user = User(id=user_id, name=name)
        session.add(user)
    else:
        user.name = name
    session.commit()
    return user
