"""The rooms, wired together: one object the server builds at start and the routes use.

It holds the parts — registry, lobby, referee, computer-player driver — and connects them
to the storage and to whoever listens for changes (the hub, given as a notifier and a
presence). It adds no rules of its own.
"""

from __future__ import annotations

from typing import Any

from app.rooms.bot_driver import BotDriver
from app.rooms.lobby import Lobby
from app.rooms.notifier import Notifier, Notifiers, Presence
from app.rooms.records import LiveRoom
from app.rooms.referee import Referee
from app.rooms.registry import RoomRegistry
from app.rooms.render import describe
from app.rooms.storage import RoomStorage


class Rooms:
    """Every live room of this process and the verbs on them."""

    def __init__(
        self, storage: RoomStorage, *, notifier: Notifier, presence: Presence, bot_delay: float
    ) -> None:
        self.storage = storage
        self.presence = presence
        self.notifier = Notifiers([notifier])
        self.registry = RoomRegistry(storage, self.notifier, presence)
        self.referee = Referee(storage, self.notifier)
        self.lobby = Lobby(storage, self.registry, self.notifier, presence)
        self.bots = BotDriver(self.referee, delay=bot_delay)
        self.notifier.add(self.bots)

    async def get(self, room_id_or_code: str) -> LiveRoom:
        return await self.registry.get(room_id_or_code)

    def describe(self, room: LiveRoom) -> dict[str, Any]:
        return describe(room, self.presence)

    def presence_changed(self, room: LiveRoom) -> None:
        """Someone connected or left: the room description (who is here) is resent."""
        room.described()
        self.notifier.room_changed(room)

    async def close(self) -> None:
        self.bots.stop()
        await self.storage.close()
