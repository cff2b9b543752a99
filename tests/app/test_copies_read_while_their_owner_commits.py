"""A process that loads a room another process referees keeps a copy that shows every move
its owner commits, even one committed between the copy's read of the log and the moment it
holds the room: the owner's notices are listened to from before the read, and those that
came after it are applied. The interleaving is driven step by step, in one event loop, with
two processes' services sharing the database and Redis."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest

from app.rooms.storage import StoredRoom
from tests.app.redis_server import RedisServer
from tests.app.two_processes import cluster_of, move, processes_a_and_b, two_players


@pytest.mark.parametrize("asked_by", ["id", "code"])
def test_a_copy_read_just_before_its_owners_move_shows_that_move(
    asked_by: str, database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, b):
            room, people = await two_players(a.rooms)
            await move(a.rooms, room, people)
            read_at = room.version

            # A browser reconnects through B, which reads the room and is held up there,
            # its read done.
            read, go = asyncio.Event(), asyncio.Event()
            load_room = b.rooms.storage.load_room

            async def read_then_wait(key: str) -> StoredRoom | None:
                stored = await load_room(key)
                if key in (room.id, room.code) and not read.is_set():
                    read.set()
                    await go.wait()
                return stored

            b.rooms.storage.load_room = read_then_wait  # type: ignore[method-assign]
            key = room.id if asked_by == "id" else room.code
            assert key is not None
            loading = asyncio.create_task(b.rooms.get(key))
            await read.wait()

            # Meanwhile A commits one more move and publishes its notice.
            await move(a.rooms, room, people)
            assert room.version == read_at + 1
            await asyncio.sleep(0)  # the notice is queued (A's flush runs first)
            # A word A publishes after that notice: once B has heard it, B has heard the
            # notice too (one connection each way, in order).
            marker, heard = secrets.token_hex(8), asyncio.Event()
            forget = cluster_of(b).on_forget_user

            def forgetting(user_id: str) -> None:
                forget(user_id)
                if user_id == marker:
                    heard.set()

            cluster_of(b).on_forget_user = forgetting
            cluster_of(a).forget_user(marker)
            await heard.wait()

            go.set()
            copy = await loading
            assert not copy.owned, "A referees the room: B keeps a copy"
            assert copy.version == read_at + 1, "the copy shows the move made after its read"
            assert copy.state == room.state

    asyncio.run(scenario())
