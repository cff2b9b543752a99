"""The live channel: every open page of a person holds one socket (``/ws/me``), and
``LiveChannel.tell(user_id, message)`` reaches all of them, on every process.

Each process keeps its own sockets by person. With several processes a ``Relay`` (the
cluster's, app/cluster/people.py) carries what is told through one process to the others
over Redis, and says who has a socket open anywhere (who is online). Whatever the server
tells a person this way is a JSON object with a ``type`` (docs/protocol.md, "The live
channel"); the channel does not look inside it, so any part of the server can use it —
invitations, friends' asks, a moderator's word.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

import orjson
from starlette.websockets import WebSocket

from app.connections.wakeup import Wakeup
from app.store.outage import log_failure

log = logging.getLogger("parlour.social")

SLOW_CLOSE = 4008  # the page does not read what it is sent (as on the play socket)
SIGNED_OUT_CLOSE = 4401  # the socket's session ended (as on the play socket)
BANNED_CLOSE = 4410  # it ended because a moderator banned the account (as on the play socket)
MAX_QUEUE = 100  # messages waiting for one page before it counts as not reading
SEND_TIMEOUT = 10.0  # seconds one message may wait for a page that stopped reading


class Relay(Protocol):
    """The other processes (app/cluster/people.py)."""

    def publish(self, user_id: str, text: str) -> None:
        """Deliver ``text`` to the person's sockets on the other processes."""
        ...

    def arrived(self, user_id: str) -> None:
        """The person's first socket here opened: they are online through this process."""
        ...

    def left(self, user_id: str) -> None:
        """The person's last socket here closed."""
        ...

    async def online(self, user_ids: set[str]) -> set[str]:
        """Which of them have a socket open through a live process (any process)."""
        ...


class LiveSocket:
    """One page's socket: what it is told goes out in order through one send loop.

    Every open page holds one for as long as it is open, idle nearly all the time: as the
    play socket's connection (app/connections/hub.py), it keeps its attributes in slots,
    its queue in a list, and its send loop waits on a :class:`Wakeup`."""

    __slots__ = (
        "_close",
        "_queue",
        "_sender",
        "_wakeup",
        "closed",
        "session_id",
        "user_id",
        "websocket",
    )

    def __init__(self, websocket: WebSocket, user_id: str, session_id: str | None) -> None:
        self.websocket = websocket
        self.user_id = user_id
        self.session_id = session_id
        self.closed = False
        self._queue: list[str] = []
        self._wakeup = Wakeup()
        self._close: tuple[int, str] | None = None
        self._sender: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._sender = asyncio.get_running_loop().create_task(self._run())

    def send(self, text: str) -> None:
        if self.closed:
            return
        if len(self._queue) >= MAX_QUEUE:
            self.close(SLOW_CLOSE, "too slow")
            return
        self._queue.append(text)
        self._wakeup.wake()

    def close(self, code: int, reason: str) -> None:
        """Send what is queued, then a close frame with ``code``."""
        if self._close is None:
            self._close = (code, reason)
        self.closed = True
        self._wakeup.wake()

    async def _run(self) -> None:
        try:
            while True:
                while self._queue:
                    async with asyncio.timeout(SEND_TIMEOUT):
                        await self.websocket.send_text(self._queue.pop(0))
                if self.closed:
                    break
                await self._wakeup.wait()
            if self._close is not None:
                await self.websocket.close(code=self._close[0], reason=self._close[1])
        except Exception:  # the page went away (or stopped reading) mid-send
            self.closed = True

    async def finish(self) -> None:
        self.closed = True
        self._wakeup.wake()
        if self._sender is not None:
            try:
                async with asyncio.timeout(2.0):
                    await asyncio.shield(self._sender)
            except (TimeoutError, asyncio.CancelledError):
                self._sender.cancel()


class LiveChannel:
    """Every person's live sockets in this process, and the word to them."""

    def __init__(self) -> None:
        self._sockets: dict[str, set[LiveSocket]] = {}
        self.relay: Relay | None = None
        # Which of these session ids still live (blocking: run in a worker thread); set by
        # the app, to close the sockets of a session that ended.
        self.live_sessions: Callable[[set[str]], set[str]] = lambda ids: ids
        # Which of these people are banned, each with the ``banned`` message their sockets
        # are sent before they close (blocking: run in a worker thread); set by the app.
        self.banned: Callable[[set[str]], dict[str, str]] = lambda _ids: {}

    def add(self, socket: LiveSocket) -> None:
        sockets = self._sockets.setdefault(socket.user_id, set())
        first = not sockets
        sockets.add(socket)
        if first and self.relay is not None:
            self.relay.arrived(socket.user_id)

    def remove(self, socket: LiveSocket) -> None:
        sockets = self._sockets.get(socket.user_id)
        if sockets is None or socket not in sockets:
            return
        sockets.discard(socket)
        if not sockets:
            del self._sockets[socket.user_id]
            if self.relay is not None:
                self.relay.left(socket.user_id)

    def sockets(self, user_id: str | None = None) -> list[LiveSocket]:
        """The person's sockets here, or every socket here."""
        if user_id is not None:
            return list(self._sockets.get(user_id, ()))
        return [socket for sockets in self._sockets.values() for socket in sockets]

    def people_here(self) -> list[str]:
        """Everyone with a live socket through this process."""
        return list(self._sockets)

    def tell(self, user_id: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every open page of the person, through any process (call
        on the event loop)."""
        text = orjson.dumps(message).decode()
        self.deliver(user_id, text)
        if self.relay is not None:
            self.relay.publish(user_id, text)

    def deliver(self, user_id: str, text: str) -> None:
        """Send ``text`` to the person's sockets in this process."""
        for socket in self._sockets.get(user_id, ()):
            socket.send(text)

    async def online(self, user_ids: set[str]) -> set[str]:
        """Which of these people have a Parlour page open (a live socket, any process)."""
        here = {user_id for user_id in user_ids if user_id in self._sockets}
        if self.relay is None or here == user_ids:
            return here
        return here | await self.relay.online(user_ids - here)

    def close_person(self, user_id: str, code: int, reason: str) -> None:
        """Close the person's sockets in this process (after what is queued for them)."""
        for socket in self.sockets(user_id):
            socket.close(code, reason)

    async def check_sessions(self, user_id: str | None) -> None:
        """Someone's sessions may have ended (None: anyone's): close the sockets here whose
        session is gone."""
        sockets = [s for s in self.sockets(user_id) if s.session_id is not None and not s.closed]
        if not sockets:
            return
        ids = {s.session_id for s in sockets if s.session_id is not None}
        try:
            live = await asyncio.to_thread(self.live_sessions, ids)
            ended = {s.user_id for s in sockets if s.session_id not in live}
            banned = await asyncio.to_thread(self.banned, ended) if ended else {}
        except Exception:
            log_failure(log, "could not check the sessions of %d live sockets", len(sockets))
            return
        for socket in sockets:
            if socket.session_id not in live:
                told = banned.get(socket.user_id)
                if told is not None:
                    # Why and until when, then the close the play socket gives a ban.
                    socket.send(told)
                    socket.close(BANNED_CLOSE, "banned")
                else:
                    socket.close(SIGNED_OUT_CLOSE, "signed out")
