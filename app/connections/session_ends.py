"""Sockets live only as long as their session: ending a session closes its open sockets.

A socket's identity is read once, when it opens; a logout (or "log out everywhere",
a sign-up or a login replacing a guest's session) ends sessions later. Whenever a user is
forgotten — here, or by another process through the sessions channel (app/cluster/) — the
sessions of that user's open sockets in this process are looked up again in the database,
and each socket whose session is gone is closed with :data:`SIGNED_OUT_CLOSE` — or, when a
moderator banned the account, sent the ban (why, until when) and closed with
:data:`BANNED_CLOSE`. When every
identity is forgotten (Redis came back: word may have been missed), every socket's session
is looked up.

Until the answer comes, each socket being checked holds its next message back
(``Connection.session_check``), so nothing a socket sends after its session ended in this
process is acted on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from app.connections.hub import Connection, Hub
from app.store.outage import log_failure

SIGNED_OUT_CLOSE = 4401  # the socket's session ended: signing in again is needed
SIGNED_OUT_REASON = "signed out"
BANNED_CLOSE = 4410  # the session ended because a moderator banned its account
BANNED_REASON = "banned"
MAX_REMEMBERED = 10_000  # users whose word is remembered for sockets being opened

log = logging.getLogger("parlour.connections")


class SessionEnds:
    """Closes this process's sockets whose session ended."""

    def __init__(
        self,
        hub: Hub,
        live_sessions: Callable[[set[str]], set[str]],
        loop: asyncio.AbstractEventLoop,
        banned: Callable[[set[str]], dict[str, str]] = lambda _user_ids: {},
    ) -> None:
        self.hub = hub
        # Which of the given session ids still live, and which of the given users are
        # banned: the ``banned`` message each is sent before the close (blocking: run in a
        # worker thread).
        self.live_sessions = live_sessions
        self.banned = banned
        self.loop = loop
        self._tasks: set[asyncio.Task[None]] = set()
        # Word of ended sessions, numbered as it comes: per user the number of the last
        # word, and the last word that concerned everyone. A socket whose identity was read
        # while word came is checked once registered (``registered``).
        self.heard = 0
        self._last_word: dict[str, int] = {}
        self._last_word_for_all = 0

    def user_forgotten(self, user_id: str) -> None:
        """A user's sessions may have ended: check their sockets here (any thread)."""

        def check() -> None:
            self._note(user_id)
            self._check(self.hub.connections(user_id))

        self._on_loop(check)

    def all_forgotten(self) -> None:
        """Any session may have ended: check every socket here (any thread)."""

        def check() -> None:
            self._note(None)
            self._check(self.hub.connections())

        self._on_loop(check)

    def registered(self, connection: Connection, heard_before: int) -> None:
        """A socket just joined the hub; ``heard_before`` was ``heard`` before its identity
        was read. Word that came meanwhile for its user found it not yet registered: it is
        checked now."""
        user_id = connection.user_id
        last = max(self._last_word.get(user_id, 0) if user_id else 0, self._last_word_for_all)
        if last > heard_before:
            self._check([connection])

    def _note(self, user_id: str | None) -> None:
        self.heard += 1
        if user_id is None or len(self._last_word) >= MAX_REMEMBERED:
            # Forgetting who was named only makes more sockets checked, never fewer.
            self._last_word.clear()
            self._last_word_for_all = self.heard
        else:
            self._last_word[user_id] = self.heard

    def _on_loop(self, callback: Callable[[], None]) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            # At once: a socket's next message must not slip in before its check starts
            # (the logout's answer is not sent yet).
            callback()
        else:
            self.loop.call_soon_threadsafe(callback)

    def _check(self, connections: list[Connection]) -> None:
        checked = [c for c in connections if c.session_id is not None and not c.closed]
        if not checked:
            return
        answer = self.loop.create_future()
        for connection in checked:
            connection.session_check = answer
        task = self.loop.create_task(self._close_ended(checked, answer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _close_ended(self, checked: list[Connection], answer: asyncio.Future[None]) -> None:
        live: set[str] | None = None
        banned: dict[str, str] = {}
        try:
            ids = {c.session_id for c in checked if c.session_id is not None}
            live = await asyncio.to_thread(self.live_sessions, ids)
            ended = {c.user_id for c in checked if c.session_id not in live and c.user_id}
            if ended:
                banned = await asyncio.to_thread(self.banned, ended)
        except Exception:
            # The database cannot say: the sockets stay open (their sessions are checked
            # again at the next word of a change).
            log_failure(log, "could not check the sessions of %d sockets", len(checked))
        finally:
            for connection in checked:
                if connection.session_check is answer:
                    connection.session_check = None
                if live is not None and connection.session_id not in live:
                    told = banned.get(connection.user_id or "")
                    if told is not None:
                        # Why and until when, before the close (its reason is too short).
                        connection.reply(told)
                        connection.close(BANNED_CLOSE, BANNED_REASON)
                    else:
                        connection.close(SIGNED_OUT_CLOSE, SIGNED_OUT_REASON)
            answer.set_result(None)

    async def close(self) -> None:
        """Wait for the checks under way (at shut-down)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
