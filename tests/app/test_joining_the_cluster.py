"""A process joining the others through Redis serves only once it can hear them: its start
returns when its inbox listens, so no verb forwarded to it, and no answer to a verb it
forwards, is published before anyone listens for it. Without Redis it starts after a
lease's time and listens as soon as Redis answers."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from app.cluster.cluster import Cluster
from app.db import make_engine, make_session_factory
from app.main import build_services
from app.rooms.storage import RoomStorage
from app.store.database_thread import DatabaseThread
from tests.app.helpers import make_settings
from tests.app.redis_server import RedisServer

LEASE_SECONDS = 1.0


@asynccontextmanager
async def joined(url: str, tmp_path: Path, redis_url: str) -> AsyncIterator[Cluster]:
    """One process's services, its cluster started; everything closed afterwards."""
    settings = make_settings(
        url,
        tmp_path,
        redis_url=redis_url,
        redis_prefix=f"test{secrets.token_hex(3)}",
        lease_seconds=LEASE_SECONDS,
    )
    storage = RoomStorage(make_engine(url))
    services = build_services(
        settings, storage, DatabaseThread(make_session_factory(storage.engine)), None
    )
    cluster = services.cluster
    assert cluster is not None
    await cluster.start()
    try:
        yield cluster
    finally:
        await cluster.close()
        await services.rooms.close()
        storage.engine.dispose()


def test_a_process_starts_serving_once_its_inbox_listens(
    sqlite_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with joined(sqlite_url, tmp_path, redis_server.url) as cluster:
            assert cluster.bus.connected.is_set()

    asyncio.run(scenario())


def test_without_redis_a_process_starts_and_listens_once_redis_answers(
    sqlite_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        redis_server.stop()
        async with joined(sqlite_url, tmp_path, redis_server.url) as cluster:
            assert not cluster.bus.connected.is_set()
            redis_server.start()
            async with asyncio.timeout(20):
                await cluster.bus.connected.wait()

    asyncio.run(scenario())
