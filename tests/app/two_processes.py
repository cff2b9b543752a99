"""Server processes' services in one event loop, sharing the database and Redis, for tests
that drive an interleaving between processes step by step."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from app.cluster.cluster import Cluster
from app.db import make_engine, make_session_factory
from app.main import Services, build_services
from app.rooms import LiveRoom, Rooms
from app.rooms.storage import RoomStorage
from app.store.database_thread import DatabaseThread
from app.store.people import save_user
from tests.app.helpers import make_settings

LEASE_SECONDS = 1.0


@asynccontextmanager
async def process(
    url: str, tmp_path: Path, redis_url: str, prefix: str, lease_seconds: float = LEASE_SECONDS
) -> AsyncIterator[Services]:
    """One server process's services on the shared database and Redis, its cluster started."""
    settings = make_settings(
        url, tmp_path, redis_url=redis_url, redis_prefix=prefix, lease_seconds=lease_seconds
    )
    storage = RoomStorage(make_engine(url))
    services = build_services(
        settings, storage, DatabaseThread(make_session_factory(storage.engine)), None
    )
    assert services.cluster is not None
    await services.cluster.start()
    try:
        yield services
    finally:
        await services.cluster.close()
        await services.rooms.close()
        storage.engine.dispose()


@asynccontextmanager
async def processes_a_and_b(
    url: str, tmp_path: Path, redis_url: str, lease_seconds: float = LEASE_SECONDS
) -> AsyncIterator[tuple[Services, Services]]:
    """Two server processes, A and B, sharing the database and Redis under a prefix of
    their own."""
    prefix = f"test{secrets.token_hex(3)}"
    async with (
        process(url, tmp_path / "a", redis_url, prefix, lease_seconds) as a,
        process(url, tmp_path / "b", redis_url, prefix, lease_seconds) as b,
    ):
        yield a, b


def cluster_of(services: Services) -> Cluster:
    assert services.cluster is not None
    return services.cluster


async def two_players(rooms: Rooms) -> tuple[LiveRoom, list[str]]:
    """A started Cupid match between two people, refereed by ``rooms``' process."""
    people = [secrets.token_hex(12) for _ in range(2)]
    for number, person in enumerate(people):
        await rooms.storage.call(save_user, user_id=person, name=f"Player {number}")
    room = await rooms.create(
        host_id=people[0], host_name="Player 0", game="cupid", seats=2, options={},
        visibility="public",
    )  # fmt: skip
    await rooms.join(room, user_id=people[1], name="Player 1", seat=1)
    await rooms.start(room, user_id=people[0])
    return room, people


async def move(rooms: Rooms, room: LiveRoom, people: list[str]) -> None:
    """The awaited person plays their first legal action at the room's version."""
    assert room.state is not None
    seat = room.rules.to_act(room.state)[0]
    action = room.rules.legal_actions(room.state, seat)[0]
    await rooms.act(room, user_id=people[seat], version=room.version, action=action)


async def play_to_the_end(rooms: Rooms, room: LiveRoom, people: list[str]) -> None:
    """Each awaited person plays their first legal action until the match is over."""
    while room.status == "playing":
        await move(rooms, room, people)
