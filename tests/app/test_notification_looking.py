"""With several processes, whether a person is looking at a table is asked of the presence
every process keeps in Redis, counting only processes whose heartbeat is alive."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from app.cluster.channels import Channels
from app.cluster.presence import Here
from app.connections.hub import Hub
from app.notifications.looking import ClusterLooking
from tests.app.redis_server import RedisServer


def test_a_person_connected_through_another_live_process_is_looking(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        redis = Redis.from_url(redis_server.url)
        channels = Channels("looking-test")
        looking = ClusterLooking(Hub(), redis, channels)
        here = Here(frozenset({"ann"}), 1)
        await redis.hset(channels.presence_key("r1"), "proc-b", here.payload())
        assert not await looking.is_looking("ann", "r1")  # proc-b's heartbeat lapsed
        await redis.set(channels.alive_key("proc-b"), "1", ex=30)
        assert await looking.is_looking("ann", "r1")
        assert not await looking.is_looking("bob", "r1")
        assert not await looking.is_looking("ann", "r2")
        await redis.aclose()

    asyncio.run(scenario())
