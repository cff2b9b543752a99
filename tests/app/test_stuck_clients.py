"""A client that stops reading is dropped by the hub's watchdog, not queued for ever."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import games
from app.connections import hub as hub_module
from app.connections.hub import Connection, Hub
from app.rooms.records import LiveRoom
from app.rooms.time_source import SystemTime


class StuckSocket:
    """A WebSocket whose client never reads: every send waits for ever."""

    def __init__(self) -> None:
        self.sends = 0

    async def send_text(self, text: str) -> None:
        self.sends += 1
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await asyncio.Event().wait()


def a_room() -> LiveRoom:
    return LiveRoom(
        id="r1",
        code="ABCDEF",
        rules=games.get("cupid"),
        seat_count=2,
        options={},
        visibility="public",
        status="waiting",
        host_id="u1",
        created_at="2026-11-23T00:00:00Z",
        seats=[None, None],
        away_since=[None, None],
    )


def test_a_connection_stuck_sending_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "SEND_TIMEOUT", 0.05)

    async def scenario() -> tuple[Connection, StuckSocket, bool]:
        hub, socket = Hub(), StuckSocket()
        connection = Connection(
            socket,  # type: ignore[arg-type]
            None,
            a_room(),
            hub,
            8,
            time_source=SystemTime(),
            grace=60.0,
            address="test",
        )
        hub.add(connection)
        served = asyncio.Event()

        async def handler() -> Any:
            connection.start()
            served.set()
            await asyncio.Event().wait()  # the receive loop, waiting on a silent client

        task = asyncio.get_running_loop().create_task(handler())
        await served.wait()
        connection.notify()  # the room description: its send never returns
        watchdog = asyncio.get_running_loop().create_task(hub.watch_for_stuck_clients(0.01))
        try:
            await asyncio.wait_for(task, 5)
        except asyncio.CancelledError:
            cancelled = True
        else:
            cancelled = False
        watchdog.cancel()
        return connection, socket, cancelled

    connection, socket, cancelled = asyncio.run(scenario())
    assert socket.sends == 1
    assert cancelled and connection.dropped and connection.closed


def test_a_connection_that_reads_is_never_dropped() -> None:
    connection = Connection(
        StuckSocket(),  # type: ignore[arg-type]
        None,
        a_room(),
        Hub(),
        8,
        time_source=SystemTime(),
        grace=60.0,
        address="test",
    )
    assert not connection.drop_if_stuck(now=1e9)  # no send waiting
    connection.sending_since = 100.0
    assert not connection.drop_if_stuck(now=100.0 + hub_module.SEND_TIMEOUT / 2)
    assert connection.drop_if_stuck(now=100.0 + hub_module.SEND_TIMEOUT)
