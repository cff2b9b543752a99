"""A room handed over by a stopping process is refereed by its new owner from the log's last
committed move, even when the new owner read the room before the old one's last commit and
claimed it after the release: the interleaving is driven step by step, in one event loop,
with two processes' services sharing the database and Redis."""

from __future__ import annotations

import asyncio
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
from tests.app.redis_server import RedisServer

LEASE_SECONDS = 1.0


@asynccontextmanager
async def process(url: str, tmp_path: Path, redis_url: str, prefix: str) -> AsyncIterator[Services]:
    """One server process's services on the shared database and Redis, its cluster started."""
    settings = make_settings(
        url, tmp_path, redis_url=redis_url, redis_prefix=prefix, lease_seconds=LEASE_SECONDS
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


def test_a_room_read_before_the_last_commit_and_claimed_after_the_release_is_caught_up(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        prefix = f"test{secrets.token_hex(3)}"
        async with (
            process(database_url, tmp_path / "a", redis_server.url, prefix) as a,
            process(database_url, tmp_path / "b", redis_server.url, prefix) as b,
        ):
            room, people = await two_players(a.rooms)
            await move(a.rooms, room, people)
            read_at = room.version

            # B reads the room (someone opened it through B) and stops short of holding it.
            read, go = asyncio.Event(), asyncio.Event()
            hold = cluster_of(b).hold

            async def hold_later(loaded: LiveRoom) -> bool:
                read.set()
                await go.wait()
                return await hold(loaded)

            cluster_of(b).hold = hold_later  # type: ignore[method-assign]
            loading = asyncio.create_task(b.rooms.get(room.id))
            await read.wait()

            # Meanwhile A commits one more move, then stops and hands the room over.
            await move(a.rooms, room, people)
            await a.rooms.hand_over()
            assert room.version == read_at + 1

            go.set()
            taken = await loading
            assert taken.owned, "the room was handed over: B referees it"
            assert taken.version == read_at + 1, "B starts from the log, not from its read"
            assert taken.state == room.state

            # B's first move takes the next seq: no stale_version, nothing written twice.
            await move(b.rooms, taken, people)
            _, events = await b.rooms.storage.load_log(room.match_id or "")
            assert [event.seq for event in events] == list(range(1, read_at + 3))

    asyncio.run(scenario())
