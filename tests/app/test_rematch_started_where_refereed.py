"""A rematch everyone accepted starts on the process that referees its new room, even when
that is not the process that opened it: the new room is stored before its opener claims
it, and in between another process's sweep for rooms nobody holds may find it and claim it
first. The match then starts there, the opener's copy follows, and the first move sent
through the opener is played — where a match begun on the opener's copy was one its
referee never heard of, refusing every move as not started. The interleaving is driven
step by step, in one event loop, with two processes' services sharing the database and
Redis."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from app.rooms import LiveRoom
from tests.app.redis_server import RedisServer
from tests.app.two_processes import cluster_of, move, processes_a_and_b, two_players


def test_a_rematch_claimed_by_another_process_starts_there_and_plays(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, b):
            room, people = await two_players(a.rooms)
            while room.status == "playing":
                await move(a.rooms, room, people)
            assert room.status == "finished"

            # A stores the rematch room; before A claims it, B's sweep finds it with no
            # owner and claims it.
            lobby = a.rooms.lobby
            open_rematch = lobby.open_rematch

            async def opened_then_swept(*args: Any, **kwargs: Any) -> LiveRoom:
                opened = await open_rematch(*args, **kwargs)
                await cluster_of(b).upkeep.sweep_orphans([opened.id])
                return opened

            lobby.open_rematch = opened_then_swept  # type: ignore[method-assign]
            for person in people:
                await a.rooms.rematch_answer(room, user_id=person, accept=True)
            assert room.rematch_offer is not None and room.rematch_offer.started
            assert room.rematch_id is not None

            refereed = b.rooms.registry.held(room.rematch_id)
            assert refereed is not None and refereed.owned, "B's sweep claimed the new room"
            copy = await a.rooms.get(room.rematch_id)
            assert not copy.owned
            # Started by its referee; A's copy heard of it before the accept was answered.
            assert refereed.status == "playing" and refereed.version == 0
            assert copy.status == "playing" and copy.version == 0
            assert copy.match_id == refereed.match_id is not None

            await move(a.rooms, copy, people)  # sent through A, played by B
            assert refereed.version == 1
            assert copy.version == 1

    asyncio.run(scenario())
