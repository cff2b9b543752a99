"""What a socket delivers: answers in the order of the messages they answer, written at
once while nothing waits before them, a flood told and then closed with a close frame,
bursts of comings and goings coalesced, and one server time for every connection told of
one change."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
from starlette.testclient import WebSocketTestSession
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from app.connections.hub import Connection, Hub
from app.rooms.referee import begin
from app.rooms.time_source import SystemTime
from tests.app.helpers import timed_app
from tests.app.test_stuck_clients import a_room
from tests.conftest import LiveServer


class RecordingSocket:
    """Records what is sent; the first send waits until released (a slow client)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.release = asyncio.Event()

    async def send_text(self, text: str) -> None:
        if not self.sent:
            self.sent.append(text)
            await self.release.wait()
        else:
            self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.sent.append(f"close {code}")


def test_an_answer_is_not_overtaken_by_the_state_of_a_later_message() -> None:
    async def scenario() -> list[str]:
        room = a_room()
        socket = RecordingSocket()
        connection = Connection(
            socket,  # type: ignore[arg-type]
            None,
            room,
            Hub(),
            16,
            time_source=SystemTime(),
            grace=60.0,
            address="test",
        )
        connection.start()
        connection.reply('{"type":"pong","n":0}')  # goes out, and the client is slow
        await asyncio.sleep(0)
        connection.reply('{"type":"preview","n":1}')  # the answer to an earlier message
        begin(room, match_id="m", seed=7, seed_hash="h")  # then a later act moves the table
        connection.notify()
        socket.release.set()
        await connection.finish()
        return socket.sent

    sent = [orjson.loads(text)["type"] for text in asyncio.run(scenario())]
    assert sent == ["pong", "preview", "room", "state"]


def test_updates_waiting_to_go_out_coalesce_into_the_newest() -> None:
    async def scenario() -> list[str]:
        room = a_room()
        socket = RecordingSocket()
        connection = Connection(
            socket,  # type: ignore[arg-type]
            None,
            room,
            Hub(),
            16,
            time_source=SystemTime(),
            grace=60.0,
            address="test",
        )
        connection.start()
        connection.reply('{"type":"pong"}')
        await asyncio.sleep(0)  # the pong is on its way; the client is slow
        for seed in (1, 2, 3):
            begin(room, match_id=f"m{seed}", seed=seed, seed_hash="h")
            room.described()
            connection.notify()
        socket.release.set()
        await connection.finish()
        return socket.sent

    sent = [orjson.loads(text) for text in asyncio.run(scenario())]
    assert [m["type"] for m in sent] == ["pong", "room", "state"]
    assert sent[1]["room"]["match_id"] == "m3"


class FillingSocket:
    """A socket the server may write to at once (``send_now``) until the client's buffers
    are full; then only the send loop's ``send_text``, which waits for them to drain.
    Records each message with the way it went out."""

    def __init__(self) -> None:
        self.written: list[tuple[str, str]] = []
        self.full = False
        self.drained = asyncio.Event()

    def send_now(self, text: str) -> bool:
        if self.full:
            return False
        self.written.append(("at once", text))
        return True

    async def send_text(self, text: str) -> None:
        await self.drained.wait()
        self.written.append(("send loop", text))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.written.append(("send loop", f"close {code}"))


def test_a_message_goes_out_at_once_unless_another_waits_before_it() -> None:
    async def scenario() -> tuple[list[tuple[str, str]], bool, list[tuple[str, str]]]:
        socket = FillingSocket()
        connection = Connection(
            socket,  # type: ignore[arg-type]
            None,
            a_room(),
            Hub(),
            16,
            time_source=SystemTime(),
            grace=60.0,
            address="test",
            send_now=socket.send_now,
        )
        connection.start()
        connection.reply("one")  # written in the call itself: no await between
        at_first = list(socket.written)
        socket.full = True
        connection.reply("two")  # refused by the socket: queued for the send loop
        await asyncio.sleep(0)  # the send loop takes it and waits for the client to read
        socket.full = False
        connection.reply("three")  # the socket takes writes again, but "two" is on its way
        socket.drained.set()
        while len(socket.written) < 3:
            await asyncio.sleep(0)
        # Nothing waits now, yet a reply told once (a flood refused) is queued all the same:
        # the refusals after it look for it in the queue.
        connection.reply("flood", once="rate_limited")
        flood_at_once = ("at once", "flood") in socket.written
        await connection.finish()
        return at_first, flood_at_once, socket.written

    at_first, flood_at_once, written = asyncio.run(scenario())
    assert at_first == [("at once", "one")]
    assert not flood_at_once
    assert written == [
        ("at once", "one"),
        ("send loop", "two"),
        ("send loop", "three"),
        ("send loop", "flood"),
    ]


class TakingSocket:
    """Takes every send at once, as a client that reads."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.sent.append(f"close {code}")


class SteppingTime(SystemTime):
    """A clock that moves a millisecond each time it is read."""

    def __init__(self) -> None:
        self.reads = 0

    def now(self) -> float:
        self.reads += 1
        return 1_800_000_000.0 + self.reads / 1000


def test_every_connection_told_of_one_change_is_sent_the_same_server_time() -> None:
    async def scenario() -> list[dict[str, Any]]:
        room, hub, clock = a_room(), Hub(), SteppingTime()
        clients = [TakingSocket() for _ in range(3)]
        for client in clients:
            connection = Connection(
                client,  # type: ignore[arg-type]
                None,
                room,
                hub,
                16,
                time_source=clock,
                grace=60.0,
                address="test",
            )
            hub.add(connection)
            connection.start()
        begin(room, match_id="m", seed=7, seed_hash="h")
        hub.room_changed(room)
        for _ in range(3):
            await asyncio.sleep(0)
        return [orjson.loads(text) for client in clients for text in client.sent]

    sent = asyncio.run(scenario())
    assert [m["type"] for m in sent] == ["room", "state"] * 3
    assert len({m["now"] for m in sent}) == 1


def burst(server: LiveServer, path: str, cookie: str, messages: int) -> tuple[list[str], int]:
    """Send ``messages`` pings in ONE write (as a flood arrives: many frames in one read),
    without reading; then read everything. Returns the kinds received and the close code
    (1006 if the socket was dropped without a close frame)."""
    protocol = ClientProtocol(parse_uri(f"{server.ws_url}{path}"))
    request = protocol.connect()
    request.headers["Cookie"] = f"parlour_session={cookie}"
    protocol.send_request(request)
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(b"".join(protocol.data_to_send()))
        while protocol.state is State.CONNECTING:  # the handshake's answer
            protocol.receive_data(sock.recv(65536))
        early = protocol.events_received()  # the response, perhaps the first messages
        for _ in range(messages):
            protocol.send_text(b'{"type":"ping"}')
        sock.sendall(b"".join(protocol.data_to_send()))
        kinds: list[str] = [orjson.loads(e.data)["type"] for e in early if isinstance(e, Frame)]
        while True:
            data = sock.recv(65536)
            if not data:
                protocol.receive_eof()
            else:
                protocol.receive_data(data)
            for event in protocol.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                    message = orjson.loads(event.data)
                    kinds.append(message.get("code") or message["type"])
            sock.sendall(b"".join(protocol.data_to_send()))
            if not data or protocol.close_code is not None:
                return kinds, protocol.close_code or 1006


def test_a_burst_is_told_once_then_closed_with_a_close_frame(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory()  # the default limits: 20/s, bursts of 40
    ann = httpx.Client(base_url=server.url)
    ann.post("/api/session", json={"name": "Ann"})
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    cookie = ann.cookies["parlour_session"]
    kinds, code = burst(server, f"/ws/rooms/{room['id']}", cookie, 300)
    assert code == 1008, (code, kinds)
    assert kinds.count("rate_limited") >= 1
    assert set(kinds) <= {"room", "chat_log", "pong", "rate_limited"}
    assert kinds.count("pong") <= 41
    ann.close()


def until_pong(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Ping, and return everything received before the pong."""
    ws.send_json({"type": "ping"})
    received = []
    while (message := ws.receive_json())["type"] != "pong":
        received.append(message)
    return received


def test_comings_and_goings_reach_a_watcher_coalesced(database_url: str, tmp_path: Path) -> None:
    with timed_app(database_url, tmp_path, presence_delay=0.2) as app:
        ann, bob = app.client("Ann"), app.client("Bob")
        rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
        with ann.websocket_connect(f"/ws/rooms/{rid}") as watcher:
            app.advance(0.2)
            until_pong(watcher)  # the room as the watcher found it, and once it was in
            for _ in range(30):  # 60 comings and goings, well within the gathering time
                with bob.websocket_connect(f"/ws/rooms/{rid}") as visit:
                    visit.receive_json()  # in the room, then gone
            app.advance(0.2)
            told = until_pong(watcher)
    # One description for all of them, saying who is here now: the watcher alone.
    assert [m["type"] for m in told] == ["room"]
    assert told[0]["room"]["watchers"] == 1
