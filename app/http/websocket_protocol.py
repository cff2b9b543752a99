"""The WebSocket protocol uvicorn serves Parlour's sockets with: uvicorn's own sans-I/O
protocol over the websockets library, made to hold less for each open socket.

A table's sockets stay open for hours and are idle nearly all the time, so what each one
holds while idle is what limits how many a process serves (``bench.load --runs crowd`` and
``--runs memory``). uvicorn's protocol keeps, for every socket, an ``asyncio.Queue`` of
what the app has yet to read (three deques and an ``asyncio.Event``, each deque 760 bytes
even when empty), an ``asyncio.Event`` for whether the transport takes more writing
(another deque), and the handshake's request and response with all their headers for as
long as the socket is open. Here the queue is an :class:`Inbox` (a list and at most one
waiting reader), the writing gate a :class:`WriteGate` (a flag, and a list of waiters
only while the transport is paused), and once the handshake is answered the response is
let go and the request's headers emptied (the ASGI scope keeps its own copy of them).

It also offers the app a way to write a text message at once, in the call that has it to
send (:meth:`LeanWebSocketProtocol.send_now`, given in the scope's extensions under
:data:`SEND_NOW`). Through ASGI, every message sent is a message dict and three
coroutines (Starlette's ``send_text``, its ``send``, uvicorn's ``send``) awaited from a
task of the connection's own, woken for it; a table's move is one message to each of its
sockets, and that machinery cost more than writing the frame. When the socket cannot take
the message at once — not open yet, closing, or its writes paused because the client does
not read — ``send_now`` writes nothing and says so, and the app sends it the ASGI way.

The same holds for what the client sends: through ASGI each message is a message dict put
in the inbox, reading paused until the app takes it, and three coroutines (Starlette's
``receive``, uvicorn's, the inbox's) made anew for every message and alive until the next
— with thousands of sockets, the larger part of what the garbage collector looks at. So
the app may give the socket a reader of its own (:meth:`LeanWebSocketProtocol.read_by`,
under :data:`READ_BY`): from then on each text message is handed to it as its frame is
parsed, in the protocol's own call, and only the disconnect goes through the inbox. The
reader bounds what it keeps (reading is no longer paused for it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from uvicorn._types import ASGIReceiveEvent
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.exceptions import InvalidState
from websockets.protocol import State

# What uvicorn is given as its ``ws`` setting, by `make run` and the benchmarks alike.
PROTOCOL_PATH = "app.http.websocket_protocol:LeanWebSocketProtocol"
# The key of ``send_now`` in a socket's ASGI scope["extensions"]; absent under another
# server (the test client), where everything is sent the ASGI way.
SEND_NOW = "parlour.send_now"
# Writes a text message at once; False (nothing written) if the socket cannot take it now.
SendNow = Callable[[str], bool]
# The key of ``read_by`` in a socket's ASGI scope["extensions"]; absent under another
# server, where the app reads every message the ASGI way.
READ_BY = "parlour.read_by"
# Takes one message the client sent: its text, or None for a binary message.
Reader = Callable[[str | None], None]
ReadBy = Callable[[Reader], None]


def text_frame(payload: bytes) -> bytes:
    """One unmasked, final text frame holding ``payload`` (RFC 6455, section 5.2): the bytes
    websockets writes for a server's text message with no extension, made here without
    its frame object, for the messages every move sends."""
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 65536:
        return b"\x81\x7e" + size.to_bytes(2, "big") + payload
    return b"\x81\x7f" + size.to_bytes(8, "big") + payload


def send_now_of(scope: Mapping[str, Any]) -> SendNow | None:
    """The socket's ``send_now``, if the server serving it offers one."""
    send_now: SendNow | None = scope.get("extensions", {}).get(SEND_NOW)
    return send_now


def read_by_of(scope: Mapping[str, Any]) -> ReadBy | None:
    """The socket's ``read_by``, if the server serving it offers one."""
    read_by: ReadBy | None = scope.get("extensions", {}).get(READ_BY)
    return read_by


class Inbox:
    """The messages a socket received for the app to read, in order: the part of
    ``asyncio.Queue`` uvicorn's protocol uses (``put_nowait``, ``get``, ``empty``).

    One task reads a socket (the one serving it), so one reader at most waits. A message
    stays in the inbox until a reader takes it: a reader cancelled just as a message
    arrived loses nothing, the next read returns it."""

    __slots__ = ("_messages", "_reader")

    def __init__(self) -> None:
        self._messages: list[ASGIReceiveEvent] = []
        self._reader: asyncio.Future[None] | None = None

    def put_nowait(self, message: ASGIReceiveEvent) -> None:
        self._messages.append(message)
        reader, self._reader = self._reader, None
        if reader is not None and not reader.done():
            reader.set_result(None)

    def empty(self) -> bool:
        return not self._messages

    def take_received(self) -> list[str | None]:
        """Take out every message received (``websocket.receive``) still waiting, in
        order, as its text (None: a binary message); the others (the connect, a
        disconnect) stay for the next read."""
        kept: list[ASGIReceiveEvent] = []
        texts: list[str | None] = []
        for message in self._messages:
            if message["type"] == "websocket.receive":
                texts.append(message.get("text"))
            else:
                kept.append(message)
        self._messages = kept
        return texts

    async def get(self) -> ASGIReceiveEvent:
        while not self._messages:
            if self._reader is not None:
                raise RuntimeError("a socket's messages are read by one task at a time")
            reader = asyncio.get_running_loop().create_future()
            self._reader = reader
            try:
                await reader
            finally:
                if self._reader is reader:
                    self._reader = None
        return self._messages.pop(0)


class WriteGate:
    """Whether the transport takes more writing: open unless its buffer is over the high
    water mark (``asyncio.Event``'s ``set``, ``clear``, ``is_set`` and ``wait``)."""

    __slots__ = ("_open", "_waiters")

    def __init__(self) -> None:
        self._open = True
        # Made only while the gate is shut and someone waits: most sockets never are.
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._open

    def set(self) -> None:
        self._open = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._open = False

    async def wait(self) -> bool:
        if self._open:
            return True
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
        return True


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with the lighter inbox and writing gate, and
    without the handshake's headers once it is done."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        # Same methods, far less held: see the module's docstring.
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = WriteGate()  # type: ignore[assignment]
        # Given by the app (``read_by``): takes each message as it arrives.
        self.reader: Reader | None = None

    def start_keepalive(self) -> None:
        # uvicorn calls this once, as soon as the handshake's response is written (the
        # socket is open): from then on nothing reads the handshake's request or response.
        # The request itself stays referenced by the websockets parser, so its headers are
        # emptied in place. (Here rather than around ``send``: a wrapper there would cost
        # a coroutine more on every message sent.)
        del self.response
        self.request.headers.clear()
        super().start_keepalive()

    async def run_asgi(self) -> None:
        # The scope is made with the handshake; the app reads it once this task runs.
        extensions = self.scope["extensions"]
        extensions[SEND_NOW] = self.send_now  # type: ignore[assignment]
        extensions[READ_BY] = self.read_by  # type: ignore[assignment]
        try:
            await super().run_asgi()
        finally:
            # The bound methods in the scope, and the app's reader, tie the protocol to
            # itself: let go of them, so that a closed socket's protocol is freed at once,
            # not by the cycle collector.
            extensions.pop(SEND_NOW, None)
            extensions.pop(READ_BY, None)
            self.reader = None

    def read_by(self, reader: Reader) -> None:
        """Hand every message from now on to ``reader`` as it arrives — first those
        already waiting in the inbox, in order — rather than to the app's ``receive``,
        which from then on gives only the disconnect."""
        self.reader = reader
        for text in self.queue.take_received():  # type: ignore[attr-defined]
            self._hand_to(reader, text)
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()

    def send_receive_event_to_app(self) -> None:
        reader = self.reader
        if reader is None or self.close_sent:
            # Through the inbox (and, past the app's close, dropped there).
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.curr_msg_data_type != "text":
            self._hand_to(reader, None)
            return
        try:
            text = data.decode()
        except UnicodeDecodeError:
            # As uvicorn answers it: the socket closes, invalid data (1007).
            self.logger.info("Invalid UTF-8 sequence received from client.")
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        self._hand_to(reader, text)

    def _hand_to(self, reader: Reader, text: str | None) -> None:
        try:
            reader(text)
        except Exception:
            # As uvicorn does when the app fails: logged, and the socket closed.
            self.logger.exception("Exception in the app's reader of a WebSocket message")
            self.transport.close()

    def send_now(self, text: str) -> bool:
        """Write ``text`` as one text frame now, if the socket takes it at once: open (the
        handshake answered, no close sent or received) and its writes not paused. The
        same frame uvicorn's ``send`` writes for a ``websocket.send`` message."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        conn = self.conn
        if conn.extensions:  # a compressed frame: websockets makes it
            try:
                conn.send_text(text.encode())
            except InvalidState:  # the client's close frame has come in
                return False
            self.transport.write(b"".join(conn.data_to_send()))
            return True
        if conn.state is not State.OPEN:  # the client's close frame has come in
            return False
        self.transport.write(text_frame(text.encode()))
        return True
