"""Connections per room and the fan-out to them (DESIGN.md §9.7, Django Channels' model).

Fan-out carries only "this room changed": each connection's own send loop then renders its
own seat's view (through the room's per-version cache), so one shared payload that could
carry hidden cards never exists. A connection that falls behind is not queued up without
bound: state notices coalesce (it always gets the newest version), and a connection whose
queue of other messages overflows is closed as too slow.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable

from starlette.websockets import WebSocket

SLOW_CLIENT_CLOSE = 4008  # policy: the client does not read what it is sent
SEND_TIMEOUT = 10.0  # seconds one message may wait for a client that stopped reading


class Connection:
    """One WebSocket to one room, acting for a seat or watching (``seat is None``)."""

    def __init__(
        self,
        websocket: WebSocket,
        user_id: str | None,
        seat: int | None,
        render: Callable[[Connection], list[str]],
        max_queue: int,
    ) -> None:
        self.websocket = websocket
        self.user_id = user_id
        self.seat = seat
        self._render = render
        self._outbox: deque[str] = deque()
        self._max_queue = max_queue
        self._wakeup = asyncio.Event()
        self._due = False
        self.closed = False
        # What this connection was last sent, so a notice resends only what changed.
        self.sent_meta = -1
        self.sent_version = -1
        self.sent_seat: int | None = None
        # Rate limiting (token bucket) lives with the connection it limits.
        self.tokens = 0.0
        self.refilled_at = 0.0
        self.violations = 0

    def notify(self) -> None:
        """The room changed: send its newest state when the send loop next runs."""
        self._due = True
        self._wakeup.set()

    def send(self, text: str) -> None:
        """Queue one message (an error, a pong); a client that never reads is dropped."""
        if len(self._outbox) >= self._max_queue:
            self.closed = True
        else:
            self._outbox.append(text)
        self._wakeup.set()

    async def run_sender(self) -> None:
        """Send until the connection closes; the one place that writes to the socket."""
        try:
            while not self.closed:
                await self._wakeup.wait()
                self._wakeup.clear()
                if self._due:
                    self._due = False
                    for text in self._render(self):
                        await self._send(text)
                while self._outbox and not self.closed:
                    await self._send(self._outbox.popleft())
            with contextlib.suppress(Exception):
                await self.websocket.close(code=SLOW_CLIENT_CLOSE, reason="too slow")
        except Exception:  # the peer went away mid-send; the receive loop will notice
            self.closed = True

    async def _send(self, text: str) -> None:
        # A client that stops reading would otherwise park this loop (and its buffers)
        # for ever; after SEND_TIMEOUT it is closed as too slow.
        try:
            async with asyncio.timeout(SEND_TIMEOUT):
                await self.websocket.send_text(text)
        except TimeoutError:
            self.closed = True

    def stop(self) -> None:
        self.closed = True
        self._wakeup.set()


class Hub:
    """Which connections watch which room; local fan-out."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = {}

    def add(self, room_id: str, connection: Connection) -> None:
        self._rooms.setdefault(room_id, set()).add(connection)

    def remove(self, room_id: str, connection: Connection) -> None:
        connections = self._rooms.get(room_id)
        if connections is not None:
            connections.discard(connection)
            if not connections:
                del self._rooms[room_id]

    def connections(self, room_id: str) -> set[Connection]:
        return self._rooms.get(room_id, set())

    def watched(self, room_id: str) -> bool:
        return bool(self._rooms.get(room_id))

    def notify(self, room_id: str) -> None:
        for connection in self._rooms.get(room_id, ()):
            connection.notify()

    def connected_seats(self, room_id: str) -> set[int]:
        return {c.seat for c in self._rooms.get(room_id, ()) if c.seat is not None}
