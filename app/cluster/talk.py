"""Table talk between processes: a chat line or reaction said through one process is
published on the room's talk channel, which every process holding the room listens to;
each delivers it to its own connections that may read it (app/connections/hub.py). After
an outage of Redis every process reads each room's recent chat again."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

import orjson

from app.chat.outlet import Spoken
from app.cluster.bus import RedisBus
from app.cluster.channels import Channels
from app.rooms import LiveRoom
from app.store.outage import log_failure

log = logging.getLogger("parlour.cluster")


class Listener(Protocol):
    """This process's chat (app/chat/service.py): what it needs to hear of the others."""

    def heard(self, room: LiveRoom, spoken: Spoken) -> None:
        """A message said through another process."""
        ...

    async def catch_up(self, room: LiveRoom) -> None:
        """Messages may have been missed: read them again."""
        ...


class Talk:
    """Publishes what is said here and hands on what is said through the others."""

    def __init__(self, bus: RedisBus, channels: Channels, process_id: str) -> None:
        self.bus = bus
        self.channels = channels
        self.process_id = process_id

    def spoken(self, room: LiveRoom, spoken: Spoken) -> None:
        """A line or reaction said through this process: the others deliver it too."""
        message = {
            "kind": "talk",
            "proc": self.process_id,
            "channel": spoken.channel,
            "body": spoken.body,
        }
        self.bus.publish(self.channels.talk(room.id), orjson.dumps(message))

    def heard(self, room: LiveRoom | None, message: dict[str, Any], listener: Listener) -> None:
        """A talk message for ``room`` (None: not held here) from the room's channel."""
        if room is None or message["proc"] == self.process_id:
            return
        listener.heard(room, Spoken.of(message["channel"], message["body"]))

    def catch_up(self, room: LiveRoom, listener: Listener) -> None:
        """Lines said meanwhile on other processes were not heard here: read them again."""
        asyncio.get_running_loop().create_task(self._catch_up(room, listener))

    async def _catch_up(self, room: LiveRoom, listener: Listener) -> None:
        try:
            await listener.catch_up(room)
        except Exception:
            log_failure(log, "could not read room %s's chat again", room.id)
