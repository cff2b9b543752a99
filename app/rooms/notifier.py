"""The two small interfaces the rooms depend on instead of the connection hub.

The rooms change a room and then say so through a :class:`Notifier`; who listens (the hub's
connections in this process, the computer-player driver, later other processes) is not the
rooms' business. :class:`Presence` is what the rooms may ask about who is connected
(Colyseus's presence interface, in small). ``app.connections.hub.Hub`` implements both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from app.rooms.records import LiveRoom


class Notifier(Protocol):
    """Told after every committed change of a room (never before the commit)."""

    def room_changed(self, room: LiveRoom) -> None: ...


class Presence(Protocol):
    """Who is connected to which room: over every process, and here."""

    def connected_users(self, room_id: str) -> set[str]:
        """The people with a connection to the room (seated or watching)."""
        ...

    def watcher_count(self, room_id: str) -> int: ...

    def local_watcher_count(self, room_id: str) -> int:
        """Connections to the room held by this process."""
        ...


class Notifiers:
    """Several notifiers told in turn, as one."""

    def __init__(self, notifiers: Iterable[Notifier]) -> None:
        self._notifiers = list(notifiers)

    def add(self, notifier: Notifier) -> None:
        self._notifiers.append(notifier)

    def room_changed(self, room: LiveRoom) -> None:
        for notifier in self._notifiers:
            notifier.room_changed(room)
