"""Which process referees a room: the interface the rooms use, and the one-process answer.

Each room is refereed by one process at a time. When Parlour runs as one process that is
always this one (:class:`SoleProcess`). With several processes (app/cluster/) a process
holds a lease on the rooms it referees, and sends every verb on another process's room to
that owner; its own copy of such a room follows the owner's notices.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.refusal import unavailable
from app.rooms.records import LiveRoom


def set_owned(room: LiveRoom, owned: bool) -> None:
    """Whether this process referees ``room`` from now on (it holds the room's lease), or
    keeps a copy that follows the owner's notices."""
    room.owned = owned


async def stop_refereeing(rooms: list[LiveRoom]) -> None:
    """This process referees none of ``rooms`` from now on, and every change to them that
    was under way is done (its event committed) when this returns.

    Every verb, computer move and timer takes the room's lock and the referee checks
    ``owned`` under it, so: ownership is dropped first, all at once (nothing new starts
    here), then each lock is taken once — the lock is fair, so whatever held it or waited
    for it before has finished by then.
    """
    for room in rooms:
        set_owned(room, False)
    for room in rooms:
        async with room.lock:
            pass


class Ownership(Protocol):
    def owns(self, room: LiveRoom) -> bool:
        """Whether this process may referee the room now (its lease is current)."""
        ...

    async def forward(self, room: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
        """Run a verb on the room's owner and return its result (or raise its Refusal);
        if the owner is gone, become the owner and run it here."""
        ...

    async def hold(self, room: LiveRoom) -> bool:
        """The room was loaded into this process: start following it (or claim it).

        True when this process has just claimed it from whoever held it before: the room
        was read before its claim, and the previous owner may have committed more between
        that read and the release of its lease, so the caller reads it again."""
        ...

    def release(self, room: LiveRoom) -> None:
        """The room leaves this process's memory."""
        ...

    async def hand_over(self, rooms: list[LiveRoom]) -> None:
        """This process is stopping: stop refereeing ``rooms`` (those it owns) and let
        whoever will referee them next know, so they play on at once."""
        ...


class SoleProcess:
    """One process runs alone: it owns every room."""

    def owns(self, room: LiveRoom) -> bool:
        return room.owned  # always, until the process stops (``hand_over``)

    async def forward(self, room: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
        # Only once the process stopped refereeing: it is going away, and the next one
        # will take the request.
        raise unavailable()

    async def hold(self, room: LiveRoom) -> bool:
        set_owned(room, True)
        return False  # nobody else writes its log

    def release(self, room: LiveRoom) -> None:
        return None

    async def hand_over(self, rooms: list[LiveRoom]) -> None:
        # Nobody to hand them to: the next start rebuilds them from the log.
        await stop_refereeing(rooms)
