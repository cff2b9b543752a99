"""A process that begins to stop while one of its claims is under way hands that room over
too: claiming stops, and the claims under way land, before it lists the rooms it owns.
The interleaving is driven step by step, in one event loop, with the services of a process
sharing the database and Redis."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest

from app.cluster.leases import Leases
from tests.app.redis_server import RedisServer
from tests.app.two_processes import cluster_of, process, two_players


def test_a_room_claimed_as_its_process_begins_to_stop_is_handed_over(
    database_url: str, tmp_path: Path, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        prefix = f"test{secrets.token_hex(3)}"
        async with process(database_url, tmp_path / "b", redis_server.url, prefix) as b:
            room, _ = await two_players(b.rooms)
        # B is gone, its lease released: the match is open and nobody holds it.

        claiming, go = asyncio.Event(), asyncio.Event()
        claim = Leases.claim

        async def claim_when_told(leases: Leases, room_id: str) -> bool:
            if room_id == room.id:
                claiming.set()
                await go.wait()
            return await claim(leases, room_id)

        monkeypatch.setattr(Leases, "claim", claim_when_told)
        async with process(database_url, tmp_path / "a", redis_server.url, prefix) as a:
            # A's upkeep finds the room nobody holds and claims it; the claim is on its way
            # to Redis when A is told to stop.
            await claiming.wait()
            stopping = asyncio.create_task(a.rooms.hand_over())
            while not cluster_of(a).leaving:
                await asyncio.sleep(0)
            go.set()  # the claim lands now
            await stopping

            held = await a.rooms.get(room.id)  # the load under way, once done
            assert not held.owned, "the stopping process referees nothing"
            assert room.id not in cluster_of(a).leases.held()
            assert await cluster_of(a).leases.owner(room.id) is None, "its lease is released"

    asyncio.run(scenario())
