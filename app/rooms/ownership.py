"""Which process referees a room: the interface the rooms use, and the one-process answer.

Each room is refereed by one process at a time. When Parlour runs as one process that is
always this one (:class:`SoleProcess`). With several processes (app/cluster/) a process
holds a lease on the rooms it referees, and sends every verb on another process's room to
that owner; its own copy of such a room follows the owner's notices.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager, nullcontext
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


async def hold_stored(ownership: Ownership, room: LiveRoom) -> None:
    """A room this process has just stored (a new table, a rematch): claim it, or follow
    whoever claimed it first (another process's sweep for rooms nobody holds may read it
    between its storing and this claim), as one claim ``stop_claiming`` waits for."""
    async with ownership.claiming():
        await ownership.hold(room, new=True)


class Ownership(Protocol):
    def owns(self, room: LiveRoom) -> bool:
        """Whether this process may referee the room now (its lease is current)."""
        ...

    async def forward(self, room: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
        """Run a verb on the room's owner and return its result (or raise its Refusal);
        if the owner is gone, become the owner and run it here."""
        ...

    async def watch(self, room_id: str) -> None:
        """The room ``room_id`` (if there is one by that id) is about to be read from the
        database: keep what its owner says of it from now on, so that ``hold`` can apply
        to a copy what was committed after the read."""
        ...

    async def unwatch(self, room_id: str) -> None:
        """The read did not lead to ``hold`` (no such room, a code rather than an id, a
        room held here already): stop keeping what its owner says."""
        ...

    def claiming(self) -> AbstractAsyncContextManager[None]:
        """Around a claim and what makes its room this process's (the room held, or
        brought up to date, with ``owned`` set): ``stop_claiming`` waits for it."""
        ...

    async def stop_claiming(self) -> None:
        """This process is stopping: it claims no room from now on, and every claim under
        way (``claiming``) has landed when this returns — so the rooms it owns can be
        listed once, for ``hand_over``."""
        ...

    async def hold(self, room: LiveRoom, *, new: bool = False) -> bool:
        """The room was loaded into this process: start following it (or claim it). A
        copy applies what its owner said since ``watch`` and after the read.

        True when this process has just claimed it from whoever held it before: the room
        was read before its claim, and the previous owner may have committed more between
        that read and the release of its lease, so the caller reads it again. ``new``: this
        process has just stored the room (``hold_stored``)."""
        ...

    def release(self, room: LiveRoom) -> None:
        """The room leaves this process's memory."""
        ...

    async def referee_name(self, room: LiveRoom) -> str | None:
        """The name the reverse proxy knows the room's referee by, for a page to send the
        room's sockets there; None when there is no name to give."""
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

    async def watch(self, room_id: str) -> None:
        return None  # nobody else writes its log

    async def unwatch(self, room_id: str) -> None:
        return None

    def claiming(self) -> AbstractAsyncContextManager[None]:
        return nullcontext()

    async def stop_claiming(self) -> None:
        return None  # it owns every room it holds, without a claim

    async def hold(self, room: LiveRoom, *, new: bool = False) -> bool:
        set_owned(room, True)
        return False  # nobody else writes its log

    def release(self, room: LiveRoom) -> None:
        return None

    async def referee_name(self, room: LiveRoom) -> str | None:
        return None  # every socket comes here

    async def hand_over(self, rooms: list[LiveRoom]) -> None:
        # Nobody to hand them to: the next start rebuilds them from the log.
        await stop_refereeing(rooms)
