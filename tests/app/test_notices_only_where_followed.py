"""A new room's owner publishes the room's notices only while another process holds a copy
of it: nobody else listens to a room whose sockets are all on its referee (where the proxy
sends them), and a notice published to nobody still costs the owner a message. A process
that loads a copy says so to the owner and is shown where the room stands; once it lets the
copy go, the notices stop again."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from app.main import Services
from app.store.people import save_user
from tests.app.redis_server import RedisServer
from tests.app.two_processes import cluster_of, move, processes_a_and_b, two_players

WAIT_SECONDS = 20  # a failure's timeout, never a measure of speed


@asynccontextmanager
async def listening(redis_url: str, channel: str) -> AsyncIterator[tuple[Redis, PubSub]]:
    """A Redis client of the test's own, subscribed to ``channel``."""
    redis = Redis.from_url(redis_url)
    listener = redis.pubsub()
    await listener.subscribe(channel)
    try:
        yield redis, listener
    finally:
        await listener.aclose()  # type: ignore[no-untyped-call]
        await redis.aclose()


async def published_until_marker(a: Services, listener: PubSub, channel: str) -> list[Any]:
    """What ``a`` published on ``channel`` until a marker it publishes now: its messages
    leave in order, so everything it published before is heard first."""
    marker = {"kind": "marker", "id": secrets.token_hex(8)}
    cluster_of(a).bus.publish(channel, orjson.dumps(marker))
    heard: list[Any] = []
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        message = await listener.get_message(ignore_subscribe_messages=True, timeout=1)
        if message is None:
            continue
        data = orjson.loads(message["data"])
        if data == marker:
            return heard
        heard.append(data)
    raise AssertionError("the marker was never heard")


def test_a_new_rooms_notices_go_out_only_while_another_process_holds_a_copy(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, b):
            room, people = await two_players(a.rooms)
            channel = cluster_of(a).channels.room(room.id)
            async with listening(redis_server.url, channel) as (_redis, listener):
                # Only A holds the room: its moves are published to nobody.
                await move(a.rooms, room, people)
                await move(a.rooms, room, people)
                assert await published_until_marker(a, listener, channel) == []

                # B loads a copy: it is shown where the room stands, and follows each move.
                copy = await b.rooms.get(room.id)
                assert not copy.owned
                assert copy.version == room.version
                assert copy.state == room.state
                await move(a.rooms, room, people)
                notices = await published_until_marker(a, listener, channel)
                assert [notice["version"] for notice in notices][-1] == room.version
                deadline = time.monotonic() + WAIT_SECONDS
                while copy.version != room.version:
                    assert time.monotonic() < deadline, "the copy never followed the move"
                    await listener.get_message(timeout=0.01)
                assert copy.state == room.state

                # B lets its copy go: once A has heard it, the moves go to nobody again.
                b.rooms.registry.release_if_idle(copy)
                assert b.rooms.registry.held(room.id) is None
                deadline = time.monotonic() + WAIT_SECONDS
                while True:
                    await move(a.rooms, room, people)
                    if not await published_until_marker(a, listener, channel):
                        break
                    assert time.monotonic() < deadline, "A never heard that B let go"
                await move(a.rooms, room, people)
                assert await published_until_marker(a, listener, channel) == []

    asyncio.run(scenario())


def test_a_process_connected_to_a_new_room_hears_its_notices_though_it_never_said_it_follows(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    """A process of an earlier release (both run while a deploy restarts them in turn)
    never says it follows; its sockets in the room, which every process hears of, do."""

    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, _b):
            room, people = await two_players(a.rooms)
            channels = cluster_of(a).channels
            async with listening(redis_server.url, channels.room(room.id)) as (redis, listener):
                await move(a.rooms, room, people)
                assert await published_until_marker(a, listener, channels.room(room.id)) == []
                # Its heartbeat, or A's upkeep would drop it as a process that is gone.
                await redis.set(channels.alive_key("earlier-release"), b"1", ex=WAIT_SECONDS)
                here = {"users": [], "watchers": 1}
                presence = {"kind": "presence", "proc": "earlier-release", "here": here}
                await redis.publish(channels.presence(room.id), orjson.dumps(presence))
                deadline = time.monotonic() + WAIT_SECONDS
                while not cluster_of(a).presence.elsewhere(room.id):
                    assert time.monotonic() < deadline, "A never heard of the connection"
                    await asyncio.sleep(0.01)
                await move(a.rooms, room, people)
                notices = await published_until_marker(a, listener, channels.room(room.id))
                assert cluster_of(a).presence.elsewhere(room.id), "still connected there"
                assert room.version in [notice["version"] for notice in notices]

    asyncio.run(scenario())


def test_a_process_that_asks_a_verb_of_a_new_room_hears_what_the_verb_changed(
    database_url: str, tmp_path: Path, redis_server: RedisServer
) -> None:
    """A process of an earlier release never says it follows, but a verb it forwards says
    it holds a copy: the verb's notice reaches it before the answer does."""

    async def scenario() -> None:
        async with processes_a_and_b(database_url, tmp_path, redis_server.url) as (a, b):
            host, guest = secrets.token_hex(12), secrets.token_hex(12)
            for person, name in ((host, "Host"), (guest, "Guest")):
                await a.rooms.storage.call(save_user, user_id=person, name=name)
            room = await a.rooms.create(
                host_id=host, host_name="Host", game="cupid", seats=2, options={},
                visibility="public",
            )  # fmt: skip

            async def says_nothing(room_id: str) -> None:
                return None

            cluster_of(b)._follow = says_nothing  # type: ignore[method-assign]
            copy = await b.rooms.get(room.id)
            assert not copy.owned
            await b.rooms.join(copy, user_id=guest, name="Guest", seat=1)
            assert room.seats[1] is not None and room.seats[1].user_id == guest
            assert copy.seats == room.seats, "the copy shows the seat it just took"

    asyncio.run(scenario())
