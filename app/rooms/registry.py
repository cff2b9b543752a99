"""The registry: which rooms are in memory, loading them, and letting them go.

A room is loaded on first touch (by id or by its short code) and rebuilt from its match's
log through the referee's ``restore``; at start-up every unfinished match is resumed that
way, so a killed server loses nothing it acknowledged. A finished room nobody watches is
released; it loads again from the database if it is asked for.
"""

from __future__ import annotations

import asyncio

import games
from app.models import Room, iso
from app.rooms.errors import RoomError
from app.rooms.notifier import Notifier, Presence
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.referee import restore
from app.rooms.storage import RoomStorage


def live_room(row: Room) -> LiveRoom:
    """A room record in memory from its stored row (and seats), before any match state."""
    seats: list[SeatHolder | None] = [None] * row.seat_count
    for seat in row.seats:
        seats[seat.seat] = SeatHolder(seat.user_id, seat.bot, seat.name)
    return LiveRoom(
        id=row.id,
        code=row.code,
        rules=games.get(row.game),
        seat_count=row.seat_count,
        options=dict(row.options),
        visibility=row.visibility,
        status=row.status,
        host_id=row.host_id,
        created_at=iso(row.created_at) or "",
        seats=seats,
        match_id=row.match_id,
        rematch_id=row.rematch_id,
    )


class RoomRegistry:
    """The rooms this process holds in memory, by id (and by code)."""

    def __init__(self, storage: RoomStorage, notifier: Notifier, presence: Presence) -> None:
        self.storage = storage
        self.notifier = notifier
        self.presence = presence
        self._rooms: dict[str, LiveRoom] = {}
        self._ids_by_code: dict[str, str] = {}
        self._load_lock = asyncio.Lock()

    def add(self, room: LiveRoom) -> LiveRoom:
        """Hold a room made in this process (created, or a rematch)."""
        self._rooms[room.id] = room
        self._ids_by_code[room.code] = room.id
        return room

    def rooms(self) -> list[LiveRoom]:
        return list(self._rooms.values())

    def _cached(self, key: str) -> LiveRoom | None:
        room_id = self._ids_by_code.get(key.upper(), key)
        return self._rooms.get(room_id)

    async def get(self, room_id_or_code: str) -> LiveRoom:
        """The room with that id or short code (any case); ``room_not_found`` if none."""
        room = self._cached(room_id_or_code)
        if room is not None:
            return room
        async with self._load_lock:
            room = self._cached(room_id_or_code)
            if room is None:
                room = await self._load(room_id_or_code)
                self.add(room)
                # A resumed match may be waiting for a computer player.
                self.notifier.room_changed(room)
            return room

    async def _load(self, room_id_or_code: str) -> LiveRoom:
        stored = await self.storage.load_room(room_id_or_code)
        if stored is None:
            raise RoomError("room_not_found", "There is no such room.", 404)
        room = live_room(stored.room)
        if stored.match is not None:
            restore(room, stored.match, stored.events)
        return room

    async def resume_all(self) -> int:
        """Load every unfinished match from its log (server start). Returns how many."""
        ids = await self.storage.playing_room_ids()
        for room_id in ids:
            await self.get(room_id)
        return len(ids)

    def release_if_idle(self, room: LiveRoom) -> None:
        """Forget a finished room nobody watches; it reloads from the database if needed."""
        if room.status == "finished" and self.presence.watcher_count(room.id) == 0:
            self._rooms.pop(room.id, None)
            self._ids_by_code.pop(room.code, None)
