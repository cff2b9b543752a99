"""A move whose commit has begun is played into the room even when its sender goes away.

A socket may send a move and close at once, and the hub drops a stuck connection: either
cancels the task that sent the move, possibly while the move's commit is under way. The
log then holds the move, so the room must make it too; were it left behind, the next move
at that version would find its seq taken and be refused as stale.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from app.refusal import Refusal
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.referee import Referee, begin
from app.rooms.time_source import SystemTime
from tests.app.test_stuck_clients import a_room


class HeldStorage:
    """An event log whose commits wait until released, and then take or fail.

    As the real one's group commit, a commit once begun goes on whether or not the move's
    sender is still waiting for it."""

    def __init__(self, failure: Exception | None = None) -> None:
        self.committing = asyncio.Event()
        self.release = asyncio.Event()
        self.committed: list[int] = []
        self.failure = failure

    async def append_event(self, *, seq: int, **_: Any) -> None:
        self.committing.set()
        await asyncio.shield(asyncio.ensure_future(self._commit(seq)))

    async def _commit(self, seq: int) -> None:
        await self.release.wait()
        if self.failure is not None:
            raise self.failure
        self.committed.append(seq)


class Told:
    """A notifier that notes the versions it was told of."""

    def __init__(self) -> None:
        self.versions: list[int] = []

    def room_changed(self, room: LiveRoom) -> None:
        self.versions.append(room.version)


def a_match() -> LiveRoom:
    room = a_room()
    room.seats = [SeatHolder("u1", None, "Ada"), SeatHolder("u2", None, "Bob")]
    room.status = "playing"
    begin(room, match_id="m", seed=7, seed_hash="h")
    return room


async def _cancelled_mid_commit(storage: HeldStorage) -> tuple[LiveRoom, Told, Referee]:
    room, told = a_match(), Told()
    referee = Referee(storage, told, SystemTime())  # type: ignore[arg-type]
    seat = room.rules.to_act(room.state)[0]
    action = room.rules.legal_actions(room.state, seat)[0]
    sender = asyncio.ensure_future(
        referee.act(room, version=0, action=action, by={"user_id": f"u{seat + 1}"})
    )
    await storage.committing.wait()
    sender.cancel()  # the socket closed while its move was being committed
    with pytest.raises(asyncio.CancelledError):
        await sender
    storage.release.set()
    async with room.lock:  # taken once the move is through
        return room, told, referee


def test_a_move_committed_after_its_sender_was_cancelled_moves_the_room() -> None:
    async def scenario() -> tuple[LiveRoom, Told, HeldStorage, Refusal | None]:
        storage = HeldStorage()
        room, told, referee = await _cancelled_mid_commit(storage)
        # The next player's move at the version the log is now at is taken.
        seat = room.rules.to_act(room.state)[0]
        action = room.rules.legal_actions(room.state, seat)[0]
        refused = None
        try:
            await referee.act(room, version=1, action=action, by={"user_id": f"u{seat + 1}"})
        except Refusal as refusal:
            refused = refusal
        return room, told, storage, refused

    room, told, storage, refused = asyncio.run(scenario())
    assert refused is None
    assert storage.committed == [1, 2]
    assert room.version == 2
    assert told.versions == [1, 2]


def test_a_move_that_fails_after_its_sender_was_cancelled_is_logged_and_changes_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> LiveRoom:
        storage = HeldStorage(failure=OSError("the database went away"))
        room, _, _ = await _cancelled_mid_commit(storage)
        await asyncio.sleep(0)  # the failed move's outcome is taken on the next turn
        return room

    with caplog.at_level(logging.ERROR, logger="parlour.rooms"):
        room = asyncio.run(scenario())
    assert room.version == 0
    assert [record.getMessage() for record in caplog.records] == [
        "a move whose sender went away failed"
    ]
