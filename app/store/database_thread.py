"""Database work off the event loop: one generic way to run it on a worker thread.

No database call runs on the event loop (docs/architecture.md says why). Whoever needs a
transaction hands its work to :class:`DatabaseThread`: ``run`` for a function of the
session, ``call`` for one of the store's functions with its keyword arguments
(``await database.call(store.put_seat, room_id=..., seat=..., holder=...)``). Each runs in
a session of its own, in a worker thread, and returns once that is done.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session, sessionmaker

T = TypeVar("T")


class DatabaseThread:
    """Runs work in a session of its own on a worker thread."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    async def run(self, work: Callable[[Session], T]) -> T:
        """``work(session)`` on a worker thread; its result."""

        def in_session() -> T:
            with self.sessions() as session:
                return work(session)

        return await asyncio.to_thread(in_session)

    async def call(self, function: Callable[..., T], /, **arguments: Any) -> T:
        """``function(session=..., **arguments)``, a function of app/store, on a worker
        thread; its result."""
        return await self.run(lambda session: function(session=session, **arguments))
