"""The processes' Redis bus and the presence it carries: who is connected to a room
through a process is told to the others on the room's presence channel and kept in Redis
beside it, in the same batch, for a process that starts holding the room later; a write
Redis refuses is dropped alone; a room's channels are listened to and let go of together."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import orjson
from redis.asyncio import Redis

from app.cluster.bus import Handler, RedisBus
from app.cluster.channels import Channels
from app.cluster.presence import ClusterPresence, Here
from tests.app.redis_server import RedisServer


class RoomHub:
    """The part of the hub the presence reads: the people connected to room r1 here."""

    def __init__(self) -> None:
        self.users: set[str] = set()

    def connected_users(self, room_id: str) -> set[str]:
        return set(self.users) if room_id == "r1" else set()

    def local_watcher_count(self, room_id: str) -> int:
        return len(self.users) if room_id == "r1" else 0


async def nothing_to_catch_up() -> None:
    """A bus's ``on_reconnect``: these tests keep nothing a lost message would leave stale."""


async def started_bus(url: str, channel: str, on_message: Handler | None = None) -> RedisBus:
    """A bus on a Redis client of its own, listening to ``channel`` once this returns."""
    bus = RedisBus(Redis.from_url(url), on_message or (lambda _c, _d: None), nothing_to_catch_up)
    bus.start({channel})
    await bus.connected.wait()
    return bus


async def closed(*buses: RedisBus) -> None:
    for bus in buses:
        await bus.close()
        await bus.redis.aclose()


async def until(holds: Callable[[], Awaitable[bool]]) -> None:
    """Wait for what Redis or a listener says to hold (five seconds at most)."""
    async with asyncio.timeout(5):
        while not await holds():
            await asyncio.sleep(0.01)


def test_a_late_process_learns_who_is_connected_elsewhere(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        channels = Channels("presence-test")
        heard: list[tuple[str, bytes]] = []
        bus_a = await started_bus(redis_server.url, channels.inbox("proc-a"))
        bus_b = await started_bus(
            redis_server.url, channels.presence("r1"), lambda c, d: heard.append((c, d))
        )
        hub = RoomHub()
        a = ClusterPresence(hub, "proc-a", bus_a.redis, bus_a, channels)  # type: ignore[arg-type]
        b = ClusterPresence(RoomHub(), "proc-b", bus_b.redis, bus_b, channels)  # type: ignore[arg-type]

        async def told(count: int) -> bool:
            return len(heard) >= count

        hub.users = {"ann", "bob"}
        a.share("r1")
        a.share("r1")  # nothing changed: nothing more is sent
        await bus_a.flushed()
        await b.learn("r1")
        assert b.connected_users("r1") == {"ann", "bob"}
        assert b.watcher_count("r1") == 2
        await until(lambda: told(1))
        assert [channel for channel, _ in heard] == [channels.presence("r1")]

        hub.users = set()
        a.share("r1")
        await bus_a.flushed()
        assert await bus_b.redis.hgetall(channels.presence_key("r1")) == {}
        late = ClusterPresence(RoomHub(), "proc-c", bus_b.redis, bus_b, channels)  # type: ignore[arg-type]
        await late.learn("r1")
        assert late.connected_users("r1") == set()
        await until(lambda: told(2))
        said = [Here.of(orjson.loads(data)["here"]) for _, data in heard]
        assert said == [Here(frozenset({"ann", "bob"}), 2), Here(frozenset(), 0)]
        await closed(bus_a, bus_b)

    asyncio.run(scenario())


def test_a_hash_write_redis_refuses_neither_stops_nor_repeats_the_messages(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        channels = Channels("refused-test")
        heard: list[bytes] = []
        bus = await started_bus(redis_server.url, channels.inbox("proc-a"))
        ear = await started_bus(
            redis_server.url, channels.talk("r1"), lambda _c, data: heard.append(data)
        )
        # A string where the hash should be: Redis answers the HSET with WRONGTYPE.
        await bus.redis.set("refused-test:not-a-hash", "x")

        async def heard_last() -> bool:
            return b"last" in heard

        bus.publish(channels.talk("r1"), b"first")
        bus.store("refused-test:not-a-hash", "proc-a", b"{}")
        bus.publish(channels.talk("r1"), b"second")
        await bus.flushed()
        bus.publish(channels.talk("r1"), b"last")
        await until(heard_last)
        assert heard == [b"first", b"second", b"last"]
        assert await bus.redis.get("refused-test:not-a-hash") == b"x"
        await closed(bus, ear)

    asyncio.run(scenario())


def test_several_channels_are_listened_to_and_let_go_together(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        channels = Channels("channels-test")
        heard: list[str] = []
        bus = await started_bus(
            redis_server.url, channels.inbox("proc-a"), lambda channel, _d: heard.append(channel)
        )
        redis = bus.redis
        room, here, talk = channels.room("r1"), channels.presence("r1"), channels.talk("r1")

        def listeners(counts: tuple[int, int, int]) -> Callable[[], Awaitable[bool]]:
            async def hold() -> bool:
                found = dict(await redis.pubsub_numsub(room, here, talk))
                return [found[c.encode()] for c in (room, here, talk)] == list(counts)

            return hold

        async def heard_all() -> bool:
            return len(heard) >= 3

        await bus.subscribe(here, talk)
        await bus.subscribe(room, here)  # ``here`` is listened to already
        await until(listeners((1, 1, 1)))
        for channel in (room, here, talk):
            await redis.publish(channel, b"{}")
        await until(heard_all)
        assert sorted(heard) == sorted([room, here, talk])

        await bus.unsubscribe(room, talk)
        await bus.unsubscribe(room)  # let go of already: nothing is sent
        await until(listeners((0, 1, 0)))
        await closed(bus)

    asyncio.run(scenario())
