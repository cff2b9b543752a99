"""The WebSocket protocol the server runs under uvicorn: its inbox hands the app every
message in order and loses none to a cancelled read; its writing gate holds senders back
while the client does not read and lets them go when it does; and a socket served by it
through a real uvicorn server delivers everything both ways, the app still reading the
handshake's headers from its scope after the handshake; and the app's ``send_now`` writes
a message at once while the client reads, and refuses (writing nothing) while it does not
and once the socket is closing."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import uvicorn
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.streams import StreamReader
from websockets.uri import parse_uri

from app.http.websocket_protocol import (
    PROTOCOL_PATH,
    Inbox,
    WriteGate,
    send_now_of,
    text_frame,
)


def receive(text: str) -> Any:
    return {"type": "websocket.receive", "text": text}


def test_the_inbox_gives_messages_in_order_to_a_reader_waiting_or_not() -> None:
    async def scenario() -> list[Any]:
        inbox = Inbox()
        inbox.put_nowait(receive("one"))
        inbox.put_nowait(receive("two"))
        first, second = await inbox.get(), await inbox.get()
        assert inbox.empty()
        waiting = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)  # the reader now waits for a message
        assert not waiting.done()
        inbox.put_nowait(receive("three"))
        return [first, second, await waiting]

    got = asyncio.run(scenario())
    assert [message["text"] for message in got] == ["one", "two", "three"]


def test_a_read_cancelled_as_a_message_arrives_leaves_it_for_the_next_read() -> None:
    async def scenario() -> Any:
        inbox = Inbox()
        waiting = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)
        inbox.put_nowait(receive("kept"))
        waiting.cancel()  # woken, but cancelled before it could take the message
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert not inbox.empty()
        return await inbox.get()

    assert asyncio.run(scenario())["text"] == "kept"


def test_a_second_reader_at_once_is_refused() -> None:
    async def scenario() -> None:
        inbox = Inbox()
        first = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)
        with pytest.raises(RuntimeError, match="one task at a time"):
            await inbox.get()
        first.cancel()

    asyncio.run(scenario())


def test_the_writing_gate_holds_writers_while_shut_and_forgets_a_cancelled_one() -> None:
    async def scenario() -> None:
        gate = WriteGate()
        assert gate.is_set() and await gate.wait()
        gate.clear()
        held = [asyncio.create_task(gate.wait()) for _ in range(2)]
        given_up = asyncio.create_task(gate.wait())
        await asyncio.sleep(0)
        assert not any(task.done() for task in [*held, given_up])
        given_up.cancel()
        await asyncio.sleep(0)
        gate.set()
        assert await asyncio.gather(*held) == [True, True]
        assert given_up.cancelled()

    asyncio.run(scenario())


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
def test_a_text_frame_is_the_frame_websockets_writes(size: int) -> None:
    payload = ("é" * size).encode()[:size]
    server = ServerProtocol()
    server.state = State.OPEN
    server.send_text(payload)
    assert text_frame(payload) == b"".join(server.data_to_send())
    reader = StreamReader()
    reader.feed_data(text_frame(payload))
    parsed = Frame.parse(reader.read_exact, mask=False, max_size=None, extensions=[])
    try:
        next(parsed)
    except StopIteration as done:
        frame = done.value
    assert frame.opcode is Opcode.TEXT and frame.fin and frame.data == payload


# Far more than the kernel's socket buffers and the transport's high water mark hold, so
# that the server's writes pause while the client does not read.
MESSAGES = 1_000
MESSAGE = "x" * 16_384


# What ``send_now`` answered once the app had closed the socket.
AFTER_CLOSE: list[bool] = []


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accept, then on "flood" send MESSAGES numbered messages; answer "header" with the
    handshake's X-Table header as the scope still holds it; stop on disconnect."""
    assert scope["type"] == "websocket"
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        if message["text"] == "flood":
            for number in range(MESSAGES):
                await send({"type": "websocket.send", "text": f"{number}:{MESSAGE}"})
        elif message["text"] == "flood at once":
            # Each message written at once if the socket takes it, else the ASGI way (which
            # waits for the client to read); then how many were refused.
            send_now = send_now_of(scope)
            assert send_now is not None
            refused = 0
            for number in range(MESSAGES):
                text = f"{number}:{MESSAGE}"
                if not send_now(text):
                    refused += 1
                    await send({"type": "websocket.send", "text": text})
            await send({"type": "websocket.send", "text": f"refused {refused}"})
        elif message["text"] == "close":
            await send({"type": "websocket.close", "code": 1000})
            send_now = send_now_of(scope)
            assert send_now is not None
            AFTER_CLOSE.append(send_now("too late"))
        elif message["text"] == "header":
            headers = dict(scope["headers"])
            await send({"type": "websocket.send", "text": headers[b"x-table"].decode()})


class RawClient:
    """A WebSocket client over a plain asyncio stream that reads only when told to: what
    it does not read backs up to the server (a client library would read on its own)."""

    def __init__(self, port: int, reader: asyncio.StreamReader, writer: Any) -> None:
        self.protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/"), max_size=None)
        self.reader, self.writer = reader, writer
        self.texts: list[str] = []

    @classmethod
    async def open(cls, port: int, table: str) -> RawClient:
        sock = socket.socket()
        # A small receive buffer (the kernel would otherwise let it grow to tens of
        # megabytes on loopback), so that what the client leaves unread fills it soon.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        client = cls(port, *await asyncio.open_connection(sock=sock, limit=4096))
        request = client.protocol.connect()
        request.headers["X-Table"] = table
        client.protocol.send_request(request)
        client.flush()
        while client.protocol.state is not State.OPEN:
            await client.read_some()
        return client

    def flush(self) -> None:
        self.writer.write(b"".join(self.protocol.data_to_send()))

    def send(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        self.flush()

    async def read_some(self) -> None:
        data = await self.reader.read(65_536)
        assert data, "the server closed the socket"
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.texts.append(event.data.decode())

    async def recv(self) -> str:
        while not self.texts:
            await self.read_some()
        return self.texts.pop(0)


@asynccontextmanager
async def served() -> AsyncIterator[tuple[uvicorn.Server, int]]:
    """A real uvicorn server running ``app`` under the project's protocol, and its port."""
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(
        app, ws=PROTOCOL_PATH, log_config=None, lifespan="off", timeout_graceful_shutdown=5
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[listening]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield server, port
    finally:
        server.should_exit = True
        await serving


def test_a_real_socket_is_served_whole_to_a_client_that_stops_reading() -> None:
    async def scenario() -> None:
        async with served() as (server, port):
            client = await RawClient.open(port, "seven")
            client.send("header")
            assert await client.recv() == "seven"
            (protocol,) = server.server_state.connections
            # Answered, the handshake's headers are let go (the scope keeps its copy).
            assert not hasattr(protocol, "response")
            assert not protocol.request.headers  # type: ignore[attr-defined]
            client.send("flood")
            # The client reads nothing until the server's writes have paused ...
            async with asyncio.timeout(10):
                while protocol.writable.is_set():  # type: ignore[attr-defined]
                    await asyncio.sleep(0.01)
            # ... then everything, in order; the paused sends went on once it read.
            async with asyncio.timeout(30):
                texts = [await client.recv() for _ in range(MESSAGES)]
            numbers = [int(text.split(":", 1)[0]) for text in texts]
            assert numbers == list(range(MESSAGES))
            client.send("header")  # the socket still serves after the flood
            assert await client.recv() == "seven"
            client.writer.close()

    asyncio.run(scenario())


def test_a_message_written_at_once_reaches_the_client_and_waits_when_it_does_not_read() -> None:
    async def scenario() -> None:
        async with served() as (server, port):
            client = await RawClient.open(port, "eight")
            client.send("flood at once")
            (protocol,) = server.server_state.connections
            # The client reads nothing until the server's writes have paused ...
            async with asyncio.timeout(10):
                while protocol.writable.is_set():  # type: ignore[attr-defined]
                    await asyncio.sleep(0.01)
            # ... then everything, in order: those written at once and those refused then
            # and sent the ASGI way once the client read.
            async with asyncio.timeout(30):
                texts = [await client.recv() for _ in range(MESSAGES)]
                refused = await client.recv()
            numbers = [int(text.split(":", 1)[0]) for text in texts]
            assert numbers == list(range(MESSAGES))
            assert refused.startswith("refused ") and 0 < int(refused.split()[1]) < MESSAGES
            client.send("header")
            assert await client.recv() == "eight"
            # Once the socket is closing, nothing more is written at once.
            client.send("close")
            async with asyncio.timeout(10):
                while client.protocol.close_rcvd is None:
                    await client.read_some()
            assert AFTER_CLOSE == [False]
            assert not client.texts
            client.writer.close()

    asyncio.run(scenario())
