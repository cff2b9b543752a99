"""A move sent again after it was taken — its answer lost to a timeout or a restart — is
answered as taken, not refused, and is not played twice; another action sent at that past
version is still refused ``stale_version``. The interleaving is driven step by step, in one
event loop, with two processes' services sharing the database and Redis."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from app.refusal import Refusal
from app.rooms import LiveRoom
from tests.app.redis_server import RedisServer
from tests.app.two_processes import cluster_of, processes_a_and_b, two_players


def test_a_forwarded_move_that_timed_out_and_was_taken_is_answered_as_taken_when_resent(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, b):
            room, people = await two_players(a.rooms)
            copy = await b.rooms.get(room.id)
            assert room.state is not None and room.match_id is not None
            seat = room.rules.to_act(room.state)[0]
            move, other = room.rules.legal_actions(room.state, seat)[:2]
            version = room.version

            # A, the owner, takes the move, but its answer is held up...
            taken, answer = asyncio.Event(), asyncio.Event()
            run_here = a.rooms.run_here

            async def answer_late(on: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
                result = await run_here(on, verb, args)
                if verb == "act":
                    taken.set()
                    await answer.wait()
                return result

            a.rooms.run_here = answer_late  # type: ignore[method-assign]
            # ...past the time B waits for it.
            asker = cluster_of(b).calls
            asker.timeout = 0.05
            gave_up = asyncio.Event()
            call = asker.call

            async def call_noting(*args: Any) -> Any:
                try:
                    return await call(*args)
                except TimeoutError:
                    gave_up.set()
                    raise

            asker.call = call_noting  # type: ignore[method-assign]
            asking = asyncio.create_task(
                b.rooms.act(copy, user_id=people[seat], version=version, action=move)
            )
            await taken.wait()
            await gave_up.wait()

            # A stops and hands the room over; B, still asking, claims it and sends the
            # move once more, now to itself: the move the log holds, answered as taken.
            await a.rooms.hand_over()
            await asking
            answer.set()
            assert copy.owned and copy.version == version + 1
            _, events = await b.rooms.storage.load_log(room.match_id)
            assert [(e.seq, e.seat, e.action) for e in events] == [(version + 1, seat, move)]

            # Another action at that version is not the move the log holds.
            with pytest.raises(Refusal) as refused:
                await b.rooms.act(copy, user_id=people[seat], version=version, action=other)
            assert refused.value.code == "stale_version"
            assert copy.version == version + 1

    asyncio.run(scenario())
