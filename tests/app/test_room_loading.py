"""Loading a room into a process: nothing else in the process finds the room before it is
held (claimed, or followed with its owner's notices listened to). Otherwise an action sent
through this process meanwhile would go to the owner, whose acknowledgement arrives on a
channel this process does not listen to yet. And rooms load side by side: one slow to read
holds up no other."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast
from unittest.mock import patch

from sqlalchemy import update
from sqlalchemy.orm import Session

from app import store
from app.connections.hub import Hub
from app.models import MatchEvent, Room, Seat
from app.rooms.ownership import SoleProcess
from app.rooms.records import LiveRoom
from app.rooms.registry import RoomRegistry
from app.rooms.storage import RoomStorage, StoredRoom
from tests.app.helpers import make_app, running, started_room


class OneRoomStorage:
    """A storage holding one waiting Cupid room, without a database."""

    def __init__(self, room_id: str) -> None:
        self.row = Room(
            id=room_id,
            code="ABCDEF",
            game="cupid",
            seat_count=2,
            options={},
            visibility="public",
            status="waiting",
            host_id="u1",
            created_at=datetime.now(UTC).replace(tzinfo=None),
            match_id=None,
            rematch_id=None,
            rated=False,
            clock=None,
            clock_state=None,
            watchers_chat=True,
            muted=[],
        )
        self.row.seats = [Seat(seat=0, user_id="u1", name="Ann")]

    async def load_room(self, key: str) -> StoredRoom | None:
        return StoredRoom(self.row, None, []) if key in (self.row.id, self.row.code) else None


class SlowToHold(SoleProcess):
    """An ownership whose ``hold`` waits until the test lets it finish."""

    def __init__(self, registry: list[RoomRegistry]) -> None:
        self.registry = registry
        self.holding = asyncio.Event()
        self.finish = asyncio.Event()
        self.found_while_holding: list[LiveRoom | None] = []

    def owns(self, room: LiveRoom) -> bool:
        return room.owned

    async def forward(self, room: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
        raise AssertionError("nothing is forwarded here")

    async def hold(self, room: LiveRoom) -> bool:
        self.holding.set()
        self.found_while_holding.append(self.registry[0].held(room.id))
        await self.finish.wait()
        room.owned = False  # another process referees it: this one follows
        return False

    def release(self, room: LiveRoom) -> None:
        return None


def test_a_room_being_loaded_is_found_only_once_it_is_held() -> None:
    async def scenario() -> None:
        registries: list[RoomRegistry] = []
        ownership = SlowToHold(registries)
        hub = Hub()
        storage = cast(RoomStorage, OneRoomStorage("0123456789abcdef"))
        registry = RoomRegistry(storage, hub, hub, ownership)
        registries.append(registry)
        first = asyncio.ensure_future(registry.get("0123456789abcdef"))
        await ownership.holding.wait()
        # Meanwhile, in the same process: the room is not to be had yet.
        assert registry.held("0123456789abcdef") is None
        second = asyncio.ensure_future(registry.get("ABCDEF"))
        await asyncio.sleep(0.01)
        assert not second.done()
        ownership.finish.set()
        room = await first
        assert await second is room
        assert room.owned is False
        assert registry.held("0123456789abcdef") is room
        assert ownership.found_while_holding == [None]

    asyncio.run(scenario())


class TwoRoomStorage:
    """Two rooms; reading the first waits until the test lets it through."""

    def __init__(self) -> None:
        self.slow = OneRoomStorage("aaaaaaaaaaaaaaaa")
        self.quick = OneRoomStorage("bbbbbbbbbbbbbbbb")
        self.quick.row.code = "BCDEFG"
        self.let_slow_through = asyncio.Event()

    async def load_room(self, key: str) -> StoredRoom | None:
        if key == self.slow.row.id:
            await self.let_slow_through.wait()
            return await self.slow.load_room(key)
        return await self.quick.load_room(key)


class Holds(SoleProcess):
    """An ownership under which this process referees every room it loads."""

    def owns(self, room: LiveRoom) -> bool:
        return room.owned

    async def forward(self, room: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
        raise AssertionError("nothing is forwarded here")

    async def hold(self, room: LiveRoom) -> bool:
        room.owned = True
        return False

    def release(self, room: LiveRoom) -> None:
        return None


def test_rooms_load_side_by_side() -> None:
    """A process taking over many rooms at once reads them together: one room slow to
    read holds up no other."""

    async def scenario() -> None:
        storage = TwoRoomStorage()
        hub = Hub()
        registry = RoomRegistry(cast(RoomStorage, storage), hub, hub, cast(Any, Holds()))
        slow = asyncio.ensure_future(registry.get("aaaaaaaaaaaaaaaa"))
        quick = await asyncio.wait_for(registry.get("bbbbbbbbbbbbbbbb"), timeout=10)
        assert quick.id == "bbbbbbbbbbbbbbbb" and not slow.done()
        storage.let_slow_through.set()
        assert (await slow).id == "aaaaaaaaaaaaaaaa"

    asyncio.run(scenario())


def test_a_room_is_read_as_it_stood_at_one_moment(postgres_url: str, tmp_path: Path) -> None:
    """A room's row, its match and its events are read in one snapshot: a last move
    committed between the row's read and the events' would otherwise make a room still
    "playing" whose match is over (and its rematch refused)."""
    app = make_app(postgres_url, tmp_path)
    with running(app) as new_client:
        ann, bob = new_client("Ann"), new_client("Bob")
        room = started_room(ann, [bob])
        storage: RoomStorage = app.state.rooms.storage
        read_match = store.load_match

        def last_move_committed_meanwhile(*, session: Session, match_id: str) -> Any:
            with storage.sessions() as other:
                other.add(MatchEvent(match_id=match_id, seq=1, seat=0, action={"type": "x"}))
                other.execute(update(Room).where(Room.id == room["id"]).values(status="finished"))
                other.commit()
            return read_match(session=session, match_id=match_id)

        assert ann.portal is not None
        with patch.object(store, "load_match", last_move_committed_meanwhile):
            during = ann.portal.call(storage.load_room, room["id"])
        after = ann.portal.call(storage.load_room, room["id"])
    assert during is not None and after is not None
    assert (during.room.status, len(during.events)) == ("playing", 0)
    assert (after.room.status, len(after.events)) == ("finished", 1)
