"""Redis pub/sub for the processes: batched publishing, subscriptions that outlive Redis.

Messages are published from one task in pipelines, so a burst of notices costs one round
trip; the writes of the hashes that go with them (who is connected to a room, for a
process joining late) leave in the same pipelines, in order with the messages. A batch
that fails is sent again, in order, once Redis answers. The listener keeps
this process's subscriptions in a set and, whenever its connection breaks (Redis
restarted, a network cut), connects again with growing pauses, subscribes to all of them
again and calls ``on_reconnect`` — messages published to it in between are lost, so the
caller catches up from the database. A lost connection is logged once per outage, not
once per attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Literal, NamedTuple

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError, ResponseError

from app.observability.metrics import REDIS_ERRORS

log = logging.getLogger("parlour.cluster")

Handler = Callable[[str, bytes], None]


class Outgoing(NamedTuple):
    """What the publishing task sends, in order: a message ("publish" to channel ``name``)
    or a hash's field set ("hset" in hash ``name``) or removed ("hdel")."""

    command: Literal["publish", "hset", "hdel"]
    name: str
    field: str
    value: bytes


# Messages kept while Redis is unreachable; older ones are dropped beyond this (the copies
# that miss them catch up from the database).
MAX_OUTBOX = 10_000


class RedisBus:
    """Publish to channels; receive from the channels subscribed."""

    max_pause = 2.0

    def __init__(
        self, redis: Redis, on_message: Handler, on_reconnect: Callable[[], Awaitable[None]]
    ) -> None:
        self.redis = redis
        self._on_message = on_message
        self._on_reconnect = on_reconnect
        self._channels: set[str] = set()
        self._pubsub: PubSub | None = None
        self._outbox: list[Outgoing] = []
        self._outbox_ready = asyncio.Event()
        self._sending = False  # a batch is on its way to Redis
        self._tasks: list[asyncio.Task[None]] = []
        self.connected = asyncio.Event()

    def start(self, channels: set[str]) -> None:
        self._channels |= channels
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.aclose()

    # --- publishing ---------------------------------------------------------------------

    def publish(self, channel: str, payload: bytes) -> None:
        """Queue a message; it leaves with the next batch."""
        self._outbox.append(Outgoing("publish", channel, "", payload))
        self._outbox_ready.set()

    def store(self, key: str, field: str, value: bytes | None) -> None:
        """Queue a hash's field to be set to ``value`` (removed when None); it leaves with
        the next batch, after the messages queued before it."""
        if value is None:
            self._outbox.append(Outgoing("hdel", key, field, b""))
        else:
            self._outbox.append(Outgoing("hset", key, field, value))
        self._outbox_ready.set()

    async def flushed(self) -> None:
        """Return once every message queued so far has been sent (a stopping process's
        last words); while Redis is unreachable this waits, so bound it with a timeout."""
        while self._outbox or self._sending:
            await asyncio.sleep(0.005)

    async def _publish(self) -> None:
        failing = False
        pause = 0.02
        while True:
            await self._outbox_ready.wait()
            self._outbox_ready.clear()
            batch, self._outbox = self._outbox, []
            if not batch:
                continue
            self._sending = True
            try:
                pipe = self.redis.pipeline(transaction=False)
                for out in batch:
                    if out.command == "publish":
                        pipe.publish(out.name, out.value)
                    elif out.command == "hset":
                        pipe.hset(out.name, out.field, out.value)
                    else:
                        pipe.hdel(out.name, out.field)
                # A command Redis refuses (a hash write on a key of another type, a full
                # or read-only Redis) is answered in its place and dropped: sent again, it
                # would be refused again, and the batch's messages sent again with it.
                answers = await pipe.execute(raise_on_error=False)
                self._refused(batch, answers)
            except (RedisError, OSError) as error:
                REDIS_ERRORS.labels(operation="publish").inc()
                # Keep the batch, in order, and try again: the first command on a
                # connection broken by a Redis restart fails even when Redis is back.
                if not failing:
                    log.warning("cannot publish to Redis (%s); retrying", error)
                failing = True
                self._outbox = batch + self._outbox
                if len(self._outbox) > MAX_OUTBOX:
                    dropped = len(self._outbox) - MAX_OUTBOX
                    del self._outbox[:dropped]
                    log.warning("dropped %d messages and writes while Redis was away", dropped)
                await asyncio.sleep(pause)
                pause = min(pause * 2, self.max_pause)
                self._outbox_ready.set()
            else:
                if failing:
                    log.warning("publishing to Redis again")
                failing, pause = False, 0.02
            finally:
                self._sending = False

    @staticmethod
    def _refused(batch: list[Outgoing], answers: list[object]) -> None:
        for out, answer in zip(batch, answers, strict=True):
            if isinstance(answer, ResponseError):
                REDIS_ERRORS.labels(
                    operation="publish" if out.command == "publish" else "store"
                ).inc()
                log.warning("Redis refused %s %s (%s); dropped", out.command, out.name, answer)

    # --- subscribing --------------------------------------------------------------------

    async def subscribe(self, *channels: str) -> None:
        """Listen to ``channels`` too, in one command (those listened to already aside)."""
        new = [channel for channel in channels if channel not in self._channels]
        if not new:
            return
        self._channels.update(new)
        if self._pubsub is not None and self.connected.is_set():
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.subscribe(*new)

    async def unsubscribe(self, *channels: str) -> None:
        """Stop listening to ``channels``, in one command (those not listened to aside)."""
        gone = [channel for channel in channels if channel in self._channels]
        if not gone:
            return
        self._channels.difference_update(gone)
        if self._pubsub is not None and self.connected.is_set():
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.unsubscribe(*gone)

    async def _listen(self) -> None:
        pause = 0.05
        first = True
        while True:
            try:
                self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                subscribed = set(self._channels)
                await self._pubsub.subscribe(*subscribed)
                self.connected.set()
                # Channels added while that subscription was on its way were subscribed by
                # neither it nor ``subscribe`` (not connected yet): subscribe them now; and
                # those let go of meanwhile were subscribed by it alone: let go of them.
                missed = self._channels - subscribed
                if missed:
                    await self._pubsub.subscribe(*missed)
                stale = subscribed - self._channels
                if stale:
                    await self._pubsub.unsubscribe(*stale)
                if not first:
                    log.warning("Redis is back; catching up")
                    await self._on_reconnect()
                first, pause = False, 0.05
                async for message in self._pubsub.listen():
                    if message["type"] == "message":
                        channel = message["channel"]
                        if isinstance(channel, bytes):
                            channel = channel.decode()
                        self._on_message(channel, message["data"])
            except (RedisError, OSError) as error:
                REDIS_ERRORS.labels(operation="subscribe").inc()
                if self.connected.is_set():
                    log.warning("lost Redis (%s); reconnecting", error)
                self.connected.clear()
                if self._pubsub is not None:
                    with contextlib.suppress(RedisError, OSError):
                        await self._pubsub.aclose()
                await asyncio.sleep(pause)
                pause = min(pause * 2, self.max_pause)
