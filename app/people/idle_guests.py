"""The clean-up of idle guests: run by the server every ``GUEST_SWEEP_SECONDS``, and by
an operator with ``python -m app.people remove-idle-guests``.

A guest costs a row and a session kept a year; one nobody has used for ``GUEST_IDLE_DAYS``
(30) and that left no record (app/store/idle_guests.py says which) is removed, with its
sessions. Guests that played matches stay: the match records name them.

With several processes each runs the clean-up; two at once remove each guest once (a
guest already removed is simply not found again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from app.models import utcnow
from app.store.idle_guests import idle_guest_ids, remove_guests

log = logging.getLogger("parlour")

BATCH = 500  # guests removed per transaction, so that no transaction holds locks for long


def remove_idle_guests(
    sessions: sessionmaker[Session], *, idle_days: int, now: datetime | None = None
) -> int:
    """Remove every guest idle for ``idle_days`` that left no record; how many."""
    idle_since = (now or utcnow()) - timedelta(days=idle_days)
    removed = 0
    while True:
        with sessions() as session:
            ids = idle_guest_ids(session=session, idle_since=idle_since, limit=BATCH)
            removed += remove_guests(session=session, user_ids=ids)
        if len(ids) < BATCH:
            return removed


class GuestSweeper:
    """Removes idle guests now and then, off the event loop, while the server runs."""

    def __init__(self, sessions: sessionmaker[Session], *, idle_days: int, every: float) -> None:
        self.sessions = sessions
        self.idle_days = idle_days
        self.every = every
        # Told how many guests each clean-up removed (None: it failed); tests listen here.
        self.on_sweep: Callable[[int | None], None] | None = None

    async def sweep(self) -> int | None:
        """One clean-up; how many guests it removed, or None if the database failed it
        (the next one tries again)."""
        try:
            removed: int | None = await asyncio.to_thread(
                remove_idle_guests, self.sessions, idle_days=self.idle_days
            )
        except SQLAlchemyError as error:
            log.warning("removing idle guests failed (tried again later): %s", error)
            removed = None
        else:
            if removed:
                log.info("removed %d idle guests", removed)
        if self.on_sweep is not None:
            self.on_sweep(removed)
        return removed

    async def run(self) -> None:
        """A clean-up at start-up, then one every ``every`` seconds, until cancelled."""
        while True:
            await self.sweep()
            await asyncio.sleep(self.every)
