"""Who is connected to a room through a process is told to the others on the room's
presence channel and kept in Redis beside it, in the same batch, for a process that starts
holding the room later; a process whose last connection left removes its entry."""

from __future__ import annotations

import asyncio

import orjson
from redis.asyncio import Redis

from app.cluster.bus import RedisBus
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


def test_a_late_process_learns_who_is_connected_elsewhere(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        channels = Channels("presence-test")
        heard: list[tuple[str, bytes]] = []

        async def nothing() -> None:
            return None

        redis_a, redis_b = Redis.from_url(redis_server.url), Redis.from_url(redis_server.url)
        bus_a = RedisBus(redis_a, lambda _c, _d: None, nothing)
        bus_b = RedisBus(redis_b, lambda c, d: heard.append((c, d)), nothing)
        bus_a.start({channels.inbox("proc-a")})
        bus_b.start({channels.presence("r1")})
        await bus_b.connected.wait()
        hub = RoomHub()
        a = ClusterPresence(hub, "proc-a", redis_a, bus_a, channels)  # type: ignore[arg-type]
        b = ClusterPresence(RoomHub(), "proc-b", redis_b, bus_b, channels)  # type: ignore[arg-type]

        hub.users = {"ann", "bob"}
        a.share("r1")
        a.share("r1")  # nothing changed: nothing more is sent
        await bus_a.flushed()
        await b.learn("r1")
        assert b.connected_users("r1") == {"ann", "bob"}
        assert b.watcher_count("r1") == 2
        async with asyncio.timeout(5):
            while not heard:
                await asyncio.sleep(0.01)
        assert len(heard) == 1 and heard[0][0] == channels.presence("r1")

        hub.users = set()
        a.share("r1")
        await bus_a.flushed()
        assert await redis_b.hgetall(channels.presence_key("r1")) == {}
        late = ClusterPresence(RoomHub(), "proc-c", redis_b, bus_b, channels)  # type: ignore[arg-type]
        await late.learn("r1")
        assert late.connected_users("r1") == set()
        async with asyncio.timeout(5):
            while len(heard) < 2:
                await asyncio.sleep(0.01)
        told = [Here.of(orjson.loads(data)["here"]) for _, data in heard]
        assert told == [Here(frozenset({"ann", "bob"}), 2), Here(frozenset(), 0)]

        await bus_a.close()
        await bus_b.close()
        await redis_a.aclose()
        await redis_b.aclose()

    asyncio.run(scenario())


def test_a_hash_write_redis_refuses_neither_stops_nor_repeats_the_messages(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        channels = Channels("refused-test")
        heard: list[bytes] = []

        async def nothing() -> None:
            return None

        redis = Redis.from_url(redis_server.url)
        listening = Redis.from_url(redis_server.url)
        # A string where the hash should be: Redis answers the HSET with WRONGTYPE.
        await redis.set("refused-test:not-a-hash", "x")
        bus = RedisBus(redis, lambda _c, _d: None, nothing)
        ear = RedisBus(listening, lambda _c, data: heard.append(data), nothing)
        bus.start({channels.inbox("proc-a")})
        ear.start({channels.talk("r1")})
        await ear.connected.wait()

        bus.publish(channels.talk("r1"), b"first")
        bus.store("refused-test:not-a-hash", "proc-a", b"{}")
        bus.publish(channels.talk("r1"), b"second")
        await bus.flushed()
        bus.publish(channels.talk("r1"), b"last")
        async with asyncio.timeout(5):
            while b"last" not in heard:
                await asyncio.sleep(0.01)
        assert heard == [b"first", b"second", b"last"]
        assert await redis.get("refused-test:not-a-hash") == b"x"

        await bus.close()
        await ear.close()
        await redis.aclose()
        await listening.aclose()

    asyncio.run(scenario())


def test_several_channels_are_listened_to_and_let_go_together(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        channels = Channels("channels-test")
        heard: list[str] = []

        async def nothing() -> None:
            return None

        redis = Redis.from_url(redis_server.url)
        bus = RedisBus(redis, lambda channel, _d: heard.append(channel), nothing)
        bus.start({channels.inbox("proc-a")})
        await bus.connected.wait()
        room, here, talk = channels.room("r1"), channels.presence("r1"), channels.talk("r1")

        await bus.subscribe(here, talk)
        await bus.subscribe(room, here)  # ``here`` is listened to already
        async with asyncio.timeout(5):
            while dict(await redis.pubsub_numsub(room, here, talk)) != {
                room.encode(): 1,
                here.encode(): 1,
                talk.encode(): 1,
            }:
                await asyncio.sleep(0.01)
        for channel in (room, here, talk):
            await redis.publish(channel, b"{}")
        async with asyncio.timeout(5):
            while len(heard) < 3:
                await asyncio.sleep(0.01)
        assert sorted(heard) == sorted([room, here, talk])

        await bus.unsubscribe(room, talk)
        await bus.unsubscribe(room)  # let go of already: nothing is sent
        async with asyncio.timeout(5):
            while dict(await redis.pubsub_numsub(room, here, talk)) != {
                room.encode(): 0,
                here.encode(): 1,
                talk.encode(): 0,
            }:
                await asyncio.sleep(0.01)

        await bus.close()
        await redis.aclose()

    asyncio.run(scenario())
