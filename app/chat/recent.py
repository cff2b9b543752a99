"""A room's last messages, per channel, as this process knows them.

Kept by the chat (:class:`RecentChats`, one per room) as long as the room is held here. It
is filled from the database the first time a connection needs it; messages said or heard
before that are kept and merged in by id, so none is lost to the race. The ``chat_log``
message a connection is sent on connect is rendered once per set of channels and reused
until the next message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

KEPT = 100  # messages per channel; a connection is sent the last KEPT it may read


@dataclass
class RecentChat:
    """The last KEPT messages of each channel (wire form, by ascending id)."""

    loaded: bool = False
    channels: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _logs: dict[frozenset[str], str] = field(default_factory=dict)

    def remember(self, message: dict[str, Any]) -> None:
        """Keep a message said or heard now."""
        self._merge(message["channel"], [message])

    def fill(self, stored: Iterable[dict[str, Any]]) -> None:
        """Merge the messages read from the database; the room's chat is known from now."""
        by_channel: dict[str, list[dict[str, Any]]] = {}
        for message in stored:
            by_channel.setdefault(message["channel"], []).append(message)
        for channel, messages in by_channel.items():
            self._merge(channel, messages)
        self.loaded = True

    def forget(self) -> None:
        """Messages may have been missed (Redis was away): read them again when needed."""
        self.loaded = False
        self.channels.clear()
        self._logs.clear()

    def drop(self, channel: str, message_id: int) -> None:
        """A line deleted by a moderator is no longer among them."""
        kept = self.channels.get(channel)
        if kept is not None:
            self.channels[channel] = [m for m in kept if m["id"] != message_id]
            self._logs.clear()

    def _merge(self, channel: str, messages: list[dict[str, Any]]) -> None:
        kept = {m["id"]: m for m in self.channels.get(channel, ())}
        kept.update((m["id"], m) for m in messages)
        self.channels[channel] = [kept[i] for i in sorted(kept)][-KEPT:]
        self._logs.clear()

    def log(self, channels: frozenset[str]) -> list[dict[str, Any]]:
        """The last KEPT messages of these channels, oldest first."""
        merged = [m for channel in channels for m in self.channels.get(channel, ())]
        merged.sort(key=lambda m: int(m["id"]))
        return merged[-KEPT:]

    def log_text(self, channels: frozenset[str]) -> str:
        """The ``chat_log`` message for a reader of these channels."""
        text = self._logs.get(channels)
        if text is None:
            text = orjson.dumps({"type": "chat_log", "messages": self.log(channels)}).decode()
            self._logs[channels] = text
        return text


class RecentChats:
    """The recent messages of every room held here, by room id: the chat's own storage
    in memory (the database holds every line; app/store/chat.py)."""

    def __init__(self) -> None:
        self._rooms: dict[str, RecentChat] = {}

    def of(self, room_id: str) -> RecentChat:
        """The room's recent messages (not known yet, for a room new here)."""
        recent = self._rooms.get(room_id)
        if recent is None:
            recent = self._rooms[room_id] = RecentChat()
        return recent

    def drop(self, room_id: str) -> None:
        """The room is no longer held here."""
        self._rooms.pop(room_id, None)
