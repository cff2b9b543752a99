"""Which process referees a room: the interface the rooms use, and the one-process answer.

Each room is refereed by one process at a time. When Parlour runs as one process that is
always this one (:class:`SoleProcess`). With several processes (app/cluster/) a process
holds a lease on the rooms it referees, and sends every verb on another process's room to
that owner; its own copy of such a room follows the owner's notices.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.rooms.records import LiveRoom


def set_owned(room: LiveRoom, owned: bool) -> None:
    """Whether this process referees ``room`` from now on (it holds the room's lease), or
    keeps a copy that follows the owner's notices."""
    room.owned = owned


class Ownership(Protocol):
    def owns(self, room: LiveRoom) -> bool:
        """Whether this process may referee the room now (its lease is current)."""
        ...

    async def forward(self, room: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
        """Run a verb on the room's owner and return its result (or raise its Refusal);
        if the owner is gone, become the owner and run it here."""
        ...

    async def hold(self, room: LiveRoom) -> None:
        """The room was loaded into this process: start following it (or claim it)."""
        ...

    def release(self, room: LiveRoom) -> None:
        """The room leaves this process's memory."""
        ...


class SoleProcess:
    """One process runs alone: it owns every room."""

    def owns(self, room: LiveRoom) -> bool:
        return True

    async def forward(self, room: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
        raise AssertionError("a process running alone owns every room")

    async def hold(self, room: LiveRoom) -> None:
        set_owned(room, True)

    def release(self, room: LiveRoom) -> None:
        return None
