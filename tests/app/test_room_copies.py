"""A process's copy of a room another process referees (app/rooms/follower.py): a notice
that arrives while the copy is being restored from the database is not lost, even when it
changes the room's description but not its version (a seat taken before the match)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from app.rooms.follower import Follower, room_description
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.registry import RoomRegistry
from tests.app.test_stuck_clients import a_room as a_waiting_room

ANN = SeatHolder(user_id="u1", bot=None, name="Ann")
BOB = SeatHolder(user_id="u2", bot=None, name="Bob")


def a_room() -> LiveRoom:
    """A waiting Cupid table whose host, Ann, sits in the first seat."""
    room = a_waiting_room()
    room.seats = [ANN, None]
    return room


class SlowDatabase:
    """A registry whose first read of the room waits until the test lets it through; each
    read returns the seats committed when it began."""

    def __init__(self) -> None:
        self.committed: list[SeatHolder | None] = [ANN, None]
        self.first_read_began = asyncio.Event()
        self.let_first_read_through = asyncio.Event()

    async def reload(self, room: LiveRoom) -> None:
        seats = list(self.committed)
        if not self.first_read_began.is_set():
            self.first_read_began.set()
            await self.let_first_read_through.wait()
        room.seats = seats


class Restored:
    """This process's connections, as the follower tells them: here, that the copy moved."""

    def __init__(self) -> None:
        self.moved = asyncio.Event()

    def room_changed(self, room: LiveRoom) -> None:
        self.moved.set()


def test_a_seat_taken_while_the_copy_is_restored_is_in_the_copy() -> None:
    async def scenario() -> list[SeatHolder | None]:
        room = a_room()
        database, told = SlowDatabase(), Restored()
        follower = Follower(cast(RoomRegistry, database), cast(Any, told))
        follower.restore(room, room.version)
        await database.first_read_began.wait()
        # Bob sits down at the owner, which commits and sends its notice while the copy's
        # read (begun before the commit) is still on its way.
        database.committed = [ANN, BOB]
        owners_room = a_room()
        owners_room.seats = [ANN, BOB]
        description = room_description(owners_room)
        follower.noticed(room, description=description, version=0, event=None, clocks=None)
        database.let_first_read_through.set()
        await told.moved.wait()
        return room.seats

    assert asyncio.run(scenario()) == [ANN, BOB]
