"""Sockets live only as long as their session: ending a session closes its open sockets.

A socket's identity is read once, when it opens; a logout (or "log out everywhere",
a sign-up or a login replacing a guest's session) ends sessions later. Whenever a user is
forgotten — here, or by another process through the sessions channel (app/cluster/) — the
sessions of that user's open sockets in this process are looked up again in the database,
and each socket whose session is gone is closed with :data:`SIGNED_OUT_CLOSE`. When every
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

SIGNED_OUT_CLOSE = 4401  # the socket's session ended: signing in again is needed
SIGNED_OUT_REASON = "signed out"

log = logging.getLogger("parlour.connections")


class SessionEnds:
    """Closes this process's sockets whose session ended."""

    def __init__(
        self,
        hub: Hub,
        live_sessions: Callable[[set[str]], set[str]],
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.hub = hub
        # Which of the given session ids still live (blocking: run in a worker thread).
        self.live_sessions = live_sessions
        self.loop = loop
        self._tasks: set[asyncio.Task[None]] = set()

    def user_forgotten(self, user_id: str) -> None:
        """A user's sessions may have ended: check their sockets here (any thread)."""
        self._on_loop(lambda: self._check(self.hub.connections(user_id)))

    def all_forgotten(self) -> None:
        """Any session may have ended: check every socket here (any thread)."""
        self._on_loop(lambda: self._check(self.hub.connections()))

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
        try:
            ids = {c.session_id for c in checked if c.session_id is not None}
            live = await asyncio.to_thread(self.live_sessions, ids)
        except Exception:
            # The database cannot say: the sockets stay open (their sessions are checked
            # again at the next word of a change).
            log.exception("could not check the sessions of %d sockets", len(checked))
        finally:
            for connection in checked:
                if connection.session_check is answer:
                    connection.session_check = None
                if live is not None and connection.session_id not in live:
                    connection.close(SIGNED_OUT_CLOSE, SIGNED_OUT_REASON)
            answer.set_result(None)

    async def close(self) -> None:
        """Wait for the checks under way (at shut-down)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
