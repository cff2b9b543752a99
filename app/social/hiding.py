"""Whose table talk each connection hides: the people its person blocked.

The filter is at delivery, per recipient (``Connection.hides``, app/connections/hub.py):
a line is stored and spread as usual, and each process's hub leaves it out for the
connections whose person blocked its speaker — whichever process it was said through
(app/cluster/talk.py). A connection learns its person's blocks when it opens; a block or
unblock made through any process reaches the person's connections on every process
(here directly, the others through the cluster's relay, app/cluster/people.py).
"""

from __future__ import annotations

from typing import Protocol

from app.connections.hub import Connection, Hub
from app.store import social as social_store
from app.store.database_thread import DatabaseThread


class HidesRelay(Protocol):
    def hides(self, user_id: str, people: frozenset[str]) -> None:
        """Tell the other processes whom the person hides now."""
        ...


class Hiding:
    """Keeps this process's connections' ``hides`` true to their people's blocks."""

    def __init__(self, hub: Hub, database: DatabaseThread) -> None:
        self.hub = hub
        self.database = database
        self.relay: HidesRelay | None = None

    async def blocked(self, user_id: str) -> frozenset[str]:
        found = await self.database.call(social_store.blocked_by, blocker_id=user_id)
        return frozenset(found)

    async def load(self, connection: Connection) -> None:
        """A connection just opened: hide whom its person blocked."""
        if connection.user_id is not None:
            connection.hide(await self.blocked(connection.user_id))

    def changed(self, user_id: str, people: frozenset[str]) -> None:
        """The person's blocks changed through this process: every process applies them."""
        self.apply(user_id, people)
        if self.relay is not None:
            self.relay.hides(user_id, people)

    def apply(self, user_id: str, people: frozenset[str]) -> None:
        """The person's connections here hide ``people`` from now on."""
        for connection in self.hub.connections(user_id):
            connection.hide(people)
