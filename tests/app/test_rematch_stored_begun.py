"""A rematch everyone accepted is stored with its match begun, in the transaction that
opens its room: whichever process claims the new room referees that match. Another
process's sweep for rooms nobody holds may read the room between its storing and its
opener's claim, and claim it first: the match plays there, the opener's copy follows, and
the first move sent through the opener is played. The interleaving is driven step by step,
in one event loop, with two processes' services sharing the database and Redis.

A rematch whose claim fails once it is stored (Redis out of reach) is told to everyone at
once, and its first move claims it and is played. The last acceptance writes one
transaction: the match, who sat where, the room already playing, its seats and the finished
room's link to it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from app.refusal import Refusal, unavailable
from app.rooms import LiveRoom
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
            open_begun_rematch = lobby.open_begun_rematch

            async def opened_then_swept(*args: Any, **kwargs: Any) -> LiveRoom:
                opened = await open_begun_rematch(*args, **kwargs)
                await cluster_of(b).upkeep.sweep_orphans([opened.id])
                return opened

            lobby.open_begun_rematch = opened_then_swept  # type: ignore[method-assign]
            for person in people:
                await a.rooms.rematch_answer(room, user_id=person, accept=True)
            assert room.rematch_offer is not None and room.rematch_offer.started
            assert room.rematch_id is not None

            refereed = b.rooms.registry.held(room.rematch_id)
            assert refereed is not None and refereed.owned, "B's sweep claimed the new room"
            copy = await a.rooms.get(room.rematch_id)
            assert not copy.owned
            # B read the match stored with the room, and A's copy follows B.
            assert refereed.status == "playing" and refereed.version == 0
            assert copy.status == "playing" and copy.version == 0
            assert copy.match_id == refereed.match_id is not None

            await move(a.rooms, copy, people)  # sent through A, played by B
            assert refereed.version == 1
            assert copy.version == 1

    asyncio.run(scenario())


def test_a_rematch_whose_claim_fails_is_told_at_once_and_its_first_move_claims_it(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, _b):
            room, people = await two_players(a.rooms)
            await play_to_the_end(a.rooms, room, people)
            ownership = cluster_of(a)
            hold = ownership.hold

            async def redis_out_of_reach(target: LiveRoom, *, new: bool = False) -> bool:
                raise unavailable()

            ownership.hold = redis_out_of_reach  # type: ignore[method-assign]
            await a.rooms.rematch_answer(room, user_id=people[0], accept=True)
            told = room.meta_version
            with pytest.raises(Refusal) as refused:
                await a.rooms.rematch_answer(room, user_id=people[1], accept=True)
            assert refused.value.code == "unavailable"
            # The table is stored and named, and the pages were told so at once.
            assert room.rematch_id is not None
            assert room.meta_version > told
            assert room.rematch_offer is not None and not room.rematch_offer.started

            ownership.hold = hold  # type: ignore[method-assign]
            rematch = await a.rooms.get(room.rematch_id)
            assert rematch.status == "playing" and rematch.version == 0
            assert not ownership.owns(rematch), "nobody claimed it"
            await move(a.rooms, rematch, people)
            assert ownership.owns(rematch) and rematch.version == 1

    asyncio.run(scenario())


def test_the_last_acceptance_stores_the_rematch_and_its_match_in_one_transaction(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, _b):
            room, people = await two_players(a.rooms)
            await play_to_the_end(a.rooms, room, people)
            await a.rooms.rematch_answer(room, user_id=people[0], accept=True)
            # What each connection said, in order (other work of the process may share the
            # engine meanwhile: only the connection that stores the match is read).
            said: list[tuple[int, str]] = []

            def statement(connection: Any, _cursor: Any, text: str, *_: Any) -> None:
                said.append((id(connection), " ".join(text.split()[:3])))

            def committed(connection: Any) -> None:
                said.append((id(connection), "COMMIT"))

            engine = a.rooms.storage.engine
            event.listen(engine, "before_cursor_execute", statement)
            event.listen(engine, "commit", committed)
            try:
                await a.rooms.rematch_answer(room, user_id=people[1], accept=True)
            finally:
                event.remove(engine, "before_cursor_execute", statement)
                event.remove(engine, "commit", committed)
            assert room.rematch_offer is not None and room.rematch_offer.started
            storer = next(who for who, text in said if text == "INSERT INTO matches")
            assert [text for who, text in said if who == storer] == [
                "INSERT INTO matches",
                "INSERT INTO match_players",
                "INSERT INTO rooms",
                "INSERT INTO seats",
                "UPDATE rooms SET",
                "COMMIT",
            ]
            assert sum(text == "INSERT INTO rooms" for _, text in said) == 1

    asyncio.run(scenario())
