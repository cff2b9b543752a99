"""A room handed over by a stopping process is refereed by its new owner from the log's last
committed move, even when the new owner read the room before the old one's last commit and
claimed it after the release: the interleaving is driven step by step, in one event loop,
with two processes' services sharing the database and Redis."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.rooms import LiveRoom
from tests.app.redis_server import RedisServer
from tests.app.two_processes import cluster_of, move, processes_a_and_b, two_players


def test_a_room_read_before_the_last_commit_and_claimed_after_the_release_is_caught_up(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, b):
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
