"""A rematch everyone accepted starts on the process that referees its new room, even when
that is not the process that opened it: the new room is stored before its opener claims
it, and in between another process's sweep for rooms nobody holds may find it and claim it
first. The match then starts there, the opener's copy follows, and the first move sent
through the opener is played — where a match begun on the opener's copy was one its
referee never heard of, refusing every move as not started. The interleaving is driven
step by step, in one event loop, with two processes' services sharing the database and
Redis.

A rematch whose start fails once its table is open (Redis, or the new room's referee, out
of reach) is told to everyone at once as an open table, which its host starts; and a match
is never begun this way with a seat empty."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from app.refusal import Refusal, unavailable
from app.rooms import LiveRoom
from app.store.people import save_user
from tests.app.redis_server import RedisServer
from tests.app.two_processes import (
    cluster_of,
    move,
    play_to_the_end,
    processes_a_and_b,
    two_players,
)


def test_a_rematch_claimed_by_another_process_starts_there_and_plays(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, b):
            room, people = await two_players(a.rooms)
            await play_to_the_end(a.rooms, room, people)
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


def test_a_rematch_whose_start_fails_is_told_as_an_open_table_its_host_starts(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, _b):
            room, people = await two_players(a.rooms)
            await play_to_the_end(a.rooms, room, people)
            offers = a.rooms.rematch_offers
            run = offers.run

            async def referee_out_of_reach(target: LiveRoom, verb: str, args: Any) -> Any:
                if verb == "begin_match":
                    raise unavailable()
                return await run(target, verb, args)

            offers.run = referee_out_of_reach
            await a.rooms.rematch_answer(room, user_id=people[0], accept=True)
            told = room.meta_version
            with pytest.raises(Refusal) as refused:
                await a.rooms.rematch_answer(room, user_id=people[1], accept=True)
            assert refused.value.code == "unavailable"
            # The table is open and named, and the pages were told so at once.
            assert room.rematch_id is not None
            assert room.meta_version > told
            assert room.rematch_offer is not None and not room.rematch_offer.started

            offers.run = run
            rematch = await a.rooms.get(room.rematch_id)
            assert rematch.status == "waiting" and None not in rematch.seats
            await a.rooms.start(rematch, user_id=room.host_id)
            assert rematch.status == "playing"

    asyncio.run(scenario())


def test_a_match_is_never_begun_with_a_seat_empty(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, _b):
            await a.rooms.storage.call(save_user, user_id="host", name="Host")
            room = await a.rooms.create(
                host_id="host", host_name="Host", game="cupid", seats=2, options={},
                visibility="public",
            )  # fmt: skip
            with pytest.raises(Refusal) as refused:
                await a.rooms.run(room, "begin_match", {})
            assert refused.value.code == "seats_free"
            assert room.status == "waiting" and room.match_id is None

    asyncio.run(scenario())
