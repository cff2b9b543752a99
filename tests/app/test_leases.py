"""Room leases against a real Redis: a process whose event loop falls behind keeps its
leases (it is slow, not dead), and a process cut off from Redis stops counting them as its
own before another process could claim them."""

from __future__ import annotations

import asyncio
import time

from app.cluster.leases import Leases
from app.cluster.redis_clients import event_loop_client, lease_keeper_client
from tests.app.redis_server import RedisServer

LEASE = 0.6  # seconds; short, so that the tests wait a few of them


def _leases(url: str, process_id: str) -> Leases:
    return Leases(
        event_loop_client(url),
        lease_keeper_client(url, LEASE),
        process_id,
        LEASE,
        "test",
        alive_key=f"test:alive:{process_id}",
    )


def test_a_process_whose_event_loop_lags_keeps_its_leases(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        mine, other = _leases(redis_server.url, "one"), _leases(redis_server.url, "two")
        assert await mine.claim("room")
        mine.start()
        try:
            time.sleep(4 * LEASE)  # the event loop is stuck: nothing on it runs meanwhile
            assert mine.holds("room")
            assert mine.lost() == []
            assert await other.claim("room") is False
            assert await other.owner("room") == "one"
            assert await other.redis.exists("test:alive:one")
        finally:
            mine.stop()
            mine.close()
            other.close()
            await mine.redis.aclose()
            await other.redis.aclose()

    asyncio.run(scenario())


def test_a_process_cut_off_from_redis_gives_up_its_leases_in_time(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        mine = _leases(redis_server.url, "one")
        assert await mine.claim("room")
        mine.start()
        try:
            await asyncio.sleep(2 * LEASE)
            assert mine.holds("room")
            redis_server.stop()
            cut_off = time.monotonic()
            while mine.holds("room"):
                await asyncio.sleep(0.02)
            # It stopped refereeing no later than the key it last renewed could expire.
            assert time.monotonic() - cut_off <= LEASE + 0.1
            assert mine.lost() == ["room"]
            assert mine.held() == []
            redis_server.start()
            other = _leases(redis_server.url, "two")
            assert await other.claim("room")
            other.close()
            await other.redis.aclose()
        finally:
            mine.stop()
            mine.close()
            await mine.redis.aclose()

    asyncio.run(scenario())


def test_a_lease_taken_by_another_process_is_reported_lost(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        mine = _leases(redis_server.url, "one")
        assert await mine.claim("room")
        # Another process holds the key now (say this one was partitioned and it expired).
        await mine.redis.set(mine.key("room"), b"two", px=10_000)
        mine.renew()
        assert not mine.holds("room")
        assert mine.lost() == ["room"]
        assert await mine.owner("room") == "two"
        mine.close()
        await mine.redis.aclose()

    asyncio.run(scenario())
