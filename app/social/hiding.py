"""Whose table talk each connection hides: the people its person blocked.

The filter is at delivery, per recipient (``Connection.hides``, app/connections/hub.py):
a line is stored and spread as usual, and each process's hub leaves it out for the
connections whose person blocked its speaker — whichever process it was said through
(app/cluster/talk.py). A connection learns its person's blocks when it opens; a block or
unblock made through any process reaches the person's connections on every process
(here directly, the others through the cluster's relay, app/cluster/people.py).

A connection being opened is not yet among the hub's when its blocks are read, so a block
told meanwhile would miss it: it is watched from before the read (``opening``), and what
was told during the read, being newer, wins over what was read (``opened``).
"""

from __future__ import annotations

from typing import Protocol

from app.connections.hub import Hub
from app.store import social as social_store
from app.store.database_thread import DatabaseThread


class HidesRelay(Protocol):
    def hides(self, user_id: str, people: frozenset[str]) -> None:
        """Tell the other processes whom the person hides now."""
        ...


class Opening:
    """A person's connection being opened: the blocks read for it, and the newest blocks
    told meanwhile (None: none)."""

    def __init__(self, user_id: str) -> None:
        self.user_id = user_id
        self.read: frozenset[str] = frozenset()
        self.told: frozenset[str] | None = None


class Hiding:
    """Keeps this process's connections' ``hides`` true to their people's blocks."""

    def __init__(self, hub: Hub, database: DatabaseThread) -> None:
        self.hub = hub
        self.database = database
        self.relay: HidesRelay | None = None
        self._openings: dict[str, set[Opening]] = {}

    async def blocked(self, user_id: str) -> frozenset[str]:
        found = await self.database.call(social_store.blocked_by, blocker_id=user_id)
        return frozenset(found)

    async def opening(self, user_id: str) -> Opening:
        """Read the blocks for a connection of the person about to open, watching from
        before the read for blocks told meanwhile; ``opened`` ends the watch."""
        opening = Opening(user_id)
        self._openings.setdefault(user_id, set()).add(opening)
        try:
            opening.read = await self.blocked(user_id)
        except BaseException:
            self._forget(opening)
            raise
        return opening

    def opened(self, opening: Opening) -> frozenset[str]:
        """Whom the connection hides; call it with no wait before adding the connection to
        the hub, from when on it is told of blocks directly."""
        self._forget(opening)
        return opening.read if opening.told is None else opening.told

    def _forget(self, opening: Opening) -> None:
        openings = self._openings.get(opening.user_id)
        if openings is not None:
            openings.discard(opening)
            if not openings:
                del self._openings[opening.user_id]

    def changed(self, user_id: str, people: frozenset[str]) -> None:
        """The person's blocks changed through this process: every process applies them."""
        self.apply(user_id, people)
        if self.relay is not None:
            self.relay.hides(user_id, people)

    def apply(self, user_id: str, people: frozenset[str]) -> None:
        """The person's connections here hide ``people`` from now on."""
        for opening in self._openings.get(user_id, ()):
            opening.told = people
        for connection in self.hub.connections(user_id):
            connection.hide(people)
