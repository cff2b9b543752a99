"""A Redis restart empties the leases: until its next renewal fails, a room's old owner
still counts its lease while another process claims the room. A move the old owner commits
in that moment is read by the new owner once the old one gives the room up — the new owner
referees from the last committed move, and the seats connected through it see that move
instead of waiting for it. The interleaving is driven step by step, in one event loop, with
two processes' services sharing the database and Redis."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.rooms.records import LiveRoom
from tests.app.redis_server import RedisServer
from tests.app.two_processes import cluster_of, move, processes_a_and_b, two_players

LEASE_SECONDS = 30.0  # nothing lapses by the clock while the test runs
SHORTLY = 10.0  # a bound on a wait that never ends when the new owner is not told


def test_a_move_the_old_owner_commits_after_the_leases_were_emptied_reaches_the_new_owner(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        both = processes_a_and_b(database_url, tmp_path, redis_server.url, LEASE_SECONDS)
        async with both as (a, b):
            room, people = await two_players(a.rooms)
            copy = await b.rooms.get(room.id)
            old, new = cluster_of(a), cluster_of(b)

            # Redis loses A's lease between two of A's renewals (run by hand from here);
            # B claims the room it holds a copy of.
            await asyncio.to_thread(old.leases.stop)
            await old.redis.delete(old.leases.key(room.id))
            await new.upkeep.claim_free([copy])
            read_at = copy.version
            assert copy.owned and old.owns(room), "both count the room as theirs"

            # A commits a move before it learns that the room is B's now.
            await move(a.rooms, room, people)
            assert room.version == read_at + 1
            reload = b.rooms.registry.reload
            read_again = asyncio.Event()

            async def reload_noting(on: LiveRoom) -> None:
                await reload(on)
                read_again.set()

            b.rooms.registry.reload = reload_noting  # type: ignore[method-assign]
            await asyncio.to_thread(old.leases.renew)  # finds B's lease
            await old.upkeep.tick(sweep=False)  # and gives the room up
            async with asyncio.timeout(SHORTLY):
                await read_again.wait()

            assert copy.owned and not room.owned, "the lease is B's"
            assert copy.version == read_at + 1, "B shows the move A committed"
            assert copy.state == room.state
            await move(b.rooms, copy, people)  # B's next move takes the next seq
            assert room.match_id is not None
            _, events = await b.rooms.storage.load_log(room.match_id)
            assert [event.seq for event in events] == list(range(1, read_at + 3))

    asyncio.run(scenario())
