"""The quotas shared through Redis under a burst and through an outage: a burst of more
calls than the connection pool holds waits for connections instead of failing, and with
Redis out of reach a charge is refused as ``unavailable`` (503), counting nothing."""

from __future__ import annotations

import asyncio

import pytest

from app.cluster.redis_clients import CONNECTIONS, event_loop_client
from app.limits.quotas import Over, Quota, RedisQuotas
from app.refusal import Refusal
from tests.app.redis_server import RedisServer

PER_ADDRESS = Quota("tables_per_address", 10_000, 60, "too_many_rooms", "Too many new tables")


def test_a_burst_larger_than_the_pool_waits_for_connections(redis_server: RedisServer) -> None:
    async def scenario() -> list[Over | None]:
        redis = event_loop_client(redis_server.url)
        quotas = RedisQuotas(redis, "burst")
        try:
            calls = [quotas.use((PER_ADDRESS, f"10.0.0.{i % 7}")) for i in range(3 * CONNECTIONS)]
            return await asyncio.gather(*calls)
        finally:
            await redis.aclose()

    assert asyncio.run(scenario()) == [None] * (3 * CONNECTIONS)


def test_with_redis_out_of_reach_a_charge_is_refused_as_unavailable(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        redis = event_loop_client(redis_server.url)
        quotas = RedisQuotas(redis, "outage")
        try:
            assert await quotas.use((PER_ADDRESS, "10.0.0.1")) is None
            redis_server.stop()
            with pytest.raises(Refusal) as refused:
                await quotas.use((PER_ADDRESS, "10.0.0.1"))
            assert (refused.value.code, refused.value.status) == ("unavailable", 503)
        finally:
            await redis.aclose()

    asyncio.run(scenario())
