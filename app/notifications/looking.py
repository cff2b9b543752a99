"""Whether a notification still has a reason to go when its turn to be delivered comes:
the person is not looking at the table right now (connected to its socket, through any
process), and for a turn or a reminder, they are still awaited there.

Both are asked at delivery, not when the signal is emitted: an e-mail gathered into a
digest goes minutes later, and by then the person may have come back or moved.
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.cluster.channels import Channels
from app.cluster.presence import Here
from app.notifications.fan_out import iso_utc
from app.refusal import Refusal
from app.rooms import Rooms
from app.rooms.notifier import Presence


class Looking(Protocol):
    async def is_looking(self, user_id: str, room_id: str) -> bool:
        """Whether the person has a connection to the room's socket right now."""
        ...


class TurnCheck(Protocol):
    async def awaits(self, user_id: str, room_id: str, deadline: str | None) -> bool:
        """Whether the room's match is still waiting for the person to act on the same
        move (``deadline``, as the signal told it; a later move has a later one)."""
        ...


class PresenceLooking:
    """Asks the rooms' presence: this process's connections, and with several processes
    those the others told it of, for the rooms it holds."""

    def __init__(self, presence: Presence) -> None:
        self._presence = presence

    async def is_looking(self, user_id: str, room_id: str) -> bool:
        return user_id in self._presence.connected_users(room_id)


class ClusterLooking:
    """With several processes the room may be held by none of this process's copies: the
    presence hash every process keeps in Redis for the room answers then, counting only
    processes whose heartbeat is alive."""

    def __init__(self, presence: Presence, redis: Redis, channels: Channels) -> None:
        self._local = PresenceLooking(presence)
        self._redis = redis
        self._channels = channels

    async def is_looking(self, user_id: str, room_id: str) -> bool:
        if await self._local.is_looking(user_id, room_id):
            return True
        with contextlib.suppress(RedisError, OSError):
            entries = await self._redis.hgetall(self._channels.presence_key(room_id))
            for process, payload in entries.items():
                if user_id not in Here.parse(payload).users:
                    continue
                name = process.decode() if isinstance(process, bytes) else str(process)
                if await self._redis.exists(self._channels.alive_key(name)):
                    return True
        # Redis out of reach: better a notification too many than one missed.
        return False


class RoomsTurnCheck:
    """Asks the room itself (loaded if this process does not hold it)."""

    def __init__(self, rooms: Rooms) -> None:
        self._rooms = rooms

    async def awaits(self, user_id: str, room_id: str, deadline: str | None) -> bool:
        try:
            room = await self._rooms.get(room_id)
        except Refusal:
            return False
        if room.status != "playing" or room.state is None:
            return False
        seat = room.seat_of(user_id)
        if seat is None:
            seat = room.stood_in_seat(user_id)
        if seat is None or seat not in room.rules.to_act(room.state):
            return False
        clocks = room.turn_clocks
        now_due = None if clocks is None else clocks.deadlines[seat]
        if deadline is None or now_due is None:
            return True
        return iso_utc(datetime.fromtimestamp(now_due, UTC)) == deadline
