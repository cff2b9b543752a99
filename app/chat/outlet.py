"""A message on its way out, and the interface of those who deliver it.

The chat service hands every message (a chat line or a reaction) to outlets: the hub
delivers it to this process's connections that may read it; with several processes, the
cluster publishes it for the others, whose hubs deliver it to theirs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from app.rooms.records import LiveRoom


@dataclass(frozen=True)
class Spoken:
    """One chat line or reaction, rendered once for every connection that reads it."""

    channel: str | None  # None: everyone in the room reads it (a reaction)
    body: dict[str, Any]  # the wire message
    text: str

    @staticmethod
    def of(channel: str | None, body: dict[str, Any]) -> Spoken:
        return Spoken(channel, body, orjson.dumps(body).decode())

    @property
    def is_chat(self) -> bool:
        return bool(self.body["type"] == "chat")


class ChatOutlet(Protocol):
    """Told of every message said in a room, after it is stored."""

    def spoken(self, room: LiveRoom, spoken: Spoken) -> None: ...


class ChatReaders(ChatOutlet, Protocol):
    """This process's connections (the hub): they also get a room's recent messages anew
    when they were read again from the database."""

    def chat_reloaded(self, room: LiveRoom) -> None: ...
