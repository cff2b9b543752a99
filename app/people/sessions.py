"""Who a request is: sessions in the database, looked up through a short-lived cache.

A session is a row of ``auth_sessions`` (its id, its user, when it expires); the cookie
carries its id, signed (app/people/names.py). Deleting the row revokes it: logging out, logging
out everywhere, signing up (the guest's session is replaced by a new one), and the removal
of idle guests. Loading a session from the database also notes, to the day, that it was
used (``used_at``).

Every request needs its identity, and loading it from the database in a worker thread was
most of what a small request cost. So an identity, once loaded, is kept in this process for
``cache_seconds`` (5 s) and answered from memory, on the event loop. Whatever changes a
user or ends a session forgets that user's cached identities here at once and, with
several processes (REDIS_URL), tells the others, who forget them too (app/cluster/); if
that word is lost (Redis down), a revoked session still ends within ``cache_seconds``.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session, sessionmaker

from app import store
from app.models import User, utcnow
from app.people.cookie import CookieSigner
from app.people.names import guest_name, new_user_id

GUEST_DAYS = 365  # a guest keeps their identity (and their matches) a year between visits
ACCOUNT_DAYS = 30  # an account's browser stays signed in a month after its last visit
CACHE_SECONDS = 5.0
# A session's last use is written down at most once a day: enough to tell a guest idle for
# a month (app/people/idle_guests.py), without a write per request.
USE_RESOLUTION = timedelta(days=1)
MAX_CACHED = 50_000


@dataclass(frozen=True)
class Identity:
    """The person behind a request, and the session it came with."""

    id: str
    name: str
    username: str | None
    session_id: str
    expires_at: datetime
    # When the person was first made (None: not loaded); a mute covers guests made after it
    # from the muted person's address (app/chat/mutes.py).
    since: datetime | None = None
    # The account's language setting (None: none chosen, or a guest).
    language: str | None = None

    @property
    def is_account(self) -> bool:
        return self.username is not None


def lifetime(is_account: bool) -> timedelta:
    return timedelta(days=ACCOUNT_DAYS if is_account else GUEST_DAYS)


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Origin:
    """Where a session is opened: the browser's mark (app/people/browser_mark.py) and the
    network address (None: not known)."""

    browser: str | None = None
    address: str | None = None


def open_session(
    session: Session, user_id: str, *, is_account: bool, origin: Origin | None = None
) -> tuple[str, datetime]:
    """Add a new session for ``user_id`` to the transaction; (its id, its expiry)."""
    session_id, expires_at = new_session_id(), utcnow() + lifetime(is_account)
    origin = origin or Origin()
    store.open_session(
        session=session,
        session_id=session_id,
        user_id=user_id,
        expires_at=expires_at,
        browser=origin.browser,
        address=origin.address,
    )
    return session_id, expires_at


def new_guest(session: Session, name: str | None = None, origin: Origin | None = None) -> Identity:
    """A new guest with a session of its own (committed)."""
    user = User(id=new_user_id(), name=name or guest_name(), created_at=utcnow())
    session.add(user)
    session.flush()
    session_id, expires_at = open_session(session, user.id, is_account=False, origin=origin)
    session.commit()
    return Identity(user.id, user.name, None, session_id, expires_at, user.created_at)


class Authenticator:
    """Session cookies to identities, with a per-process cache that forgets on change."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        signer: CookieSigner,
        *,
        cache_seconds: float = CACHE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sessions = sessions
        self.signer = signer
        self.cache_seconds = cache_seconds
        self.clock = clock
        self._cache: dict[str, tuple[float, Identity]] = {}
        self._by_user: dict[str, set[str]] = {}
        # Set when several processes run: tells the others to forget a user too.
        self.tell_others: Callable[[str], None] | None = None
        # Told here whenever a user is forgotten (said here or by another process), and
        # when everything is: the open sockets of ended sessions close (app/connections/).
        # Called from whichever thread forgets.
        self.on_forget_user: Callable[[str], None] = lambda _user_id: None
        self.on_forget_all: Callable[[], None] = lambda: None

    def session_id(self, cookie: str | None) -> str | None:
        return self.signer.read(cookie)

    async def identify(self, cookie: str | None) -> Identity | None:
        """The identity behind a cookie (None: no cookie, forged, expired or revoked)."""
        session_id = self.signer.read(cookie)
        if session_id is None:
            return None
        cached = self._cached(session_id)
        if cached is not None:
            return cached
        return self._keep(await asyncio.to_thread(self._load, session_id))

    def identify_now(self, cookie: str | None) -> Identity | None:
        """``identify`` for code already in a worker thread (the pages)."""
        session_id = self.signer.read(cookie)
        if session_id is None:
            return None
        return self._cached(session_id) or self._keep(self._load(session_id))

    def _cached(self, session_id: str) -> Identity | None:
        entry = self._cache.get(session_id)
        if entry is None:
            return None
        loaded_at, identity = entry
        if self.clock() - loaded_at > self.cache_seconds or identity.expires_at <= utcnow():
            self._drop(session_id, identity.id)
            return None
        return identity

    def _load(self, session_id: str) -> Identity | None:
        now = utcnow()
        with self.sessions() as session:
            found = store.session_user(session=session, session_id=session_id, now=now)
            if found is not None and found.used_at <= now - USE_RESOLUTION:
                store.mark_session_used(session=session, session_id=session_id, at=now)
        if found is None:
            return None
        return Identity(
            found.user_id,
            found.name,
            found.username,
            found.session_id,
            found.expires_at,
            found.created_at,
            found.language,
        )

    def _keep(self, identity: Identity | None) -> Identity | None:
        if identity is None:
            return None
        if len(self._cache) >= MAX_CACHED:
            self._clear()
        self._cache[identity.session_id] = (self.clock(), identity)
        self._by_user.setdefault(identity.id, set()).add(identity.session_id)
        return identity

    def _drop(self, session_id: str, user_id: str) -> None:
        self._cache.pop(session_id, None)
        held = self._by_user.get(user_id)
        if held is not None:
            held.discard(session_id)
            if not held:
                del self._by_user[user_id]

    def forget_user(self, user_id: str) -> None:
        """A user changed or lost sessions: drop their cached identities everywhere."""
        self.forget_here(user_id)
        if self.tell_others is not None:
            self.tell_others(user_id)

    def forget_here(self, user_id: str) -> None:
        for session_id in self._by_user.pop(user_id, set()):
            self._cache.pop(session_id, None)
        self.on_forget_user(user_id)

    def forget_all(self) -> None:
        """Word of ended sessions may have been missed: forget every cached identity."""
        self._clear()
        self.on_forget_all()

    def _clear(self) -> None:
        self._cache.clear()
        self._by_user.clear()

    def live_sessions(self, session_ids: set[str]) -> set[str]:
        """Which of ``session_ids`` still name an unexpired session, from the database
        (never the cache); for code in a worker thread."""
        if not session_ids:
            return set()
        with self.sessions() as session:
            return store.live_sessions(session=session, session_ids=session_ids, now=utcnow())
