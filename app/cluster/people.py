"""People across processes: the live channel's relay (app/social/live.py) and whose
talk a person hides after a block (app/social/hiding.py).

What is told to a person through one process is published on the cluster's ``people``
channel, which every process listens to; each delivers it to the person's live sockets it
holds. Who is online is a Redis hash per person naming the processes through which they
have a live socket; a process that died leaves its entries behind, so only processes whose
heartbeat key is alive count. After a Redis outage (which may have lost the hashes) each
process writes its entries again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.cluster.bus import RedisBus
from app.cluster.channels import Channels
from app.observability.metrics import REDIS_ERRORS
from app.social.live import LiveChannel

log = logging.getLogger("parlour.cluster")


class PeopleRelay:
    """The live channel's ``Relay``, and the hides' relay, over Redis."""

    def __init__(self, redis: Redis, bus: RedisBus, channels: Channels, process_id: str) -> None:
        self.redis = redis
        self.bus = bus
        self.channels = channels
        self.process_id = process_id
        self.live: LiveChannel | None = None
        self.on_hides: Callable[[str, frozenset[str]], None] = lambda _user, _people: None
        # People whose online entry for this process must be written (or removed), one
        # at a time by one task, so that the last word for a person is the one kept.
        self._dirty: dict[str, None] = {}
        self._writer: asyncio.Task[None] | None = None

    def attach(self, live: LiveChannel, on_hides: Callable[[str, frozenset[str]], None]) -> None:
        self.live = live
        self.on_hides = on_hides
        live.relay = self

    # --- the live channel ------------------------------------------------------------------

    def publish(self, user_id: str, text: str) -> None:
        message = {"kind": "person", "proc": self.process_id, "user": user_id, "text": text}
        self.bus.publish(self.channels.people, orjson.dumps(message))

    def hides(self, user_id: str, people: frozenset[str]) -> None:
        message = {
            "kind": "hides",
            "proc": self.process_id,
            "user": user_id,
            "people": sorted(people),
        }
        self.bus.publish(self.channels.people, orjson.dumps(message))

    def heard(self, message: dict[str, Any]) -> None:
        """A message from the people channel (said through another process)."""
        if message["proc"] == self.process_id:
            return
        if message["kind"] == "person":
            if self.live is not None:
                self.live.deliver(message["user"], message["text"])
        else:
            self.on_hides(message["user"], frozenset(message["people"]))

    # --- who is online ---------------------------------------------------------------------

    def arrived(self, user_id: str) -> None:
        self._mark(user_id)

    def left(self, user_id: str) -> None:
        self._mark(user_id)

    def _mark(self, user_id: str) -> None:
        self._dirty[user_id] = None
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while self._dirty:
            user_id = next(iter(self._dirty))
            del self._dirty[user_id]
            here = self.live is not None and bool(self.live.sockets(user_id))
            key = self.channels.online_key(user_id)
            try:
                if here:
                    await self.redis.hset(key, self.process_id, "1")
                else:
                    await self.redis.hdel(key, self.process_id)
            except (RedisError, OSError):
                # Written again when Redis is back (``caught_up``).
                REDIS_ERRORS.labels(operation="online").inc()

    async def online(self, user_ids: set[str]) -> set[str]:
        ordered = sorted(user_ids)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for user_id in ordered:
                    pipe.hkeys(self.channels.online_key(user_id))
                entries = await pipe.execute()
            processes = {
                (p.decode() if isinstance(p, bytes) else str(p)) for found in entries for p in found
            }
            alive = {p for p in processes if await self.redis.exists(self.channels.alive_key(p))}
        except (RedisError, OSError):
            REDIS_ERRORS.labels(operation="online").inc()
            return set()
        return {
            user_id
            for user_id, found in zip(ordered, entries, strict=True)
            if any((p.decode() if isinstance(p, bytes) else str(p)) in alive for p in found)
        }

    def caught_up(self) -> None:
        """Redis is back: write again who is online through this process."""
        if self.live is not None:
            for user_id in self.live.people_here():
                self._mark(user_id)

    async def close(self) -> None:
        """This process stops: its people are no longer online through it."""
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self.live is not None:
            with contextlib.suppress(RedisError, OSError):
                for user_id in self.live.people_here():
                    await self.redis.hdel(self.channels.online_key(user_id), self.process_id)
