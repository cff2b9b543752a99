"""What a client sends on a room's socket is taken as the real server reads it — each frame
handed to the socket's reader as it is parsed (app/http/websocket_protocol.py, ``read_by``):
messages that arrive together are answered in the order they were sent, each waiting for
the work of the one before; and a client that piles up more than the socket's rate lets
through behind a message still being answered is closed as a flood, having changed nothing
beyond what was answered."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import orjson
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from tests.conftest import LiveServer

POLICY_VIOLATION = 1008


class FramesAtOnce:
    """A WebSocket client on a plain socket that writes many frames in one ``sendall``, so
    the server reads them together, and reads what comes back until the server closes."""

    def __init__(self, server: LiveServer, room_id: str, cookie: str) -> None:
        self.protocol = ClientProtocol(parse_uri(f"{server.ws_url}/ws/rooms/{room_id}"))
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        request = self.protocol.connect()
        request.headers["Cookie"] = f"parlour_session={cookie}"
        request.headers["Origin"] = server.url
        self.protocol.send_request(request)
        self.flush()
        self.received: list[dict[str, Any]] = []
        self.close_code: int | None = None
        while self.protocol.state is not State.OPEN:
            self.read_some()

    def flush(self) -> None:
        self.sock.sendall(b"".join(self.protocol.data_to_send()))

    def send_together(self, messages: list[dict[str, Any]]) -> None:
        for message in messages:
            self.protocol.send_text(orjson.dumps(message))
        self.flush()  # every frame in one write

    def read_some(self) -> bool:
        """Read what the server sent; False once it has closed the connection."""
        data = self.sock.recv(65_536)
        if not data:
            self.protocol.receive_eof()
            return False
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.received.append(orjson.loads(event.data))
            elif isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                self.close_code = Close.parse(event.data).code
        self.flush()  # the close answered
        return True

    def until(self, done: Callable[[], bool]) -> None:
        while not done():
            assert self.read_some(), f"closed early; received {self.received}"

    def until_closed(self) -> None:
        while self.read_some():
            pass


@contextmanager
def a_table(server: LiveServer) -> Iterator[tuple[str, str]]:
    """A waiting room of a guest's, and the guest's session cookie."""
    with httpx.Client(base_url=server.url, timeout=10) as http:
        assert http.post("/api/session", json={"name": "Ann"}).is_success
        room = http.post("/api/rooms", json={"game": "cupid"}).json()
        yield str(room["id"]), str(http.cookies["parlour_session"])


def test_messages_sent_together_are_answered_in_the_order_sent(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory()
    with a_table(server) as (room_id, cookie):
        client = FramesAtOnce(server, room_id, cookie)
        line = {"type": "chat", "channel": "table", "text": "first"}
        client.send_together(
            [{"type": "ping"}, line, {"type": "ping"}, {**line, "text": "second"}, {"type": "ping"}]
        )
        client.until(lambda: [m["type"] for m in client.received].count("pong") == 3)
        said = [m for m in client.received if m["type"] in ("pong", "chat")]
        assert [m["type"] for m in said] == ["pong", "chat", "pong", "chat", "pong"]
        assert [m["text"] for m in said if m["type"] == "chat"] == ["first", "second"]


def test_a_pile_of_messages_behind_one_being_answered_closes_the_socket_as_a_flood(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    # At most rate_burst + max_rate_violations (3 + 5) messages wait behind the one answered.
    server = live_server_factory(RATE_BURST="3", MAX_RATE_VIOLATIONS="5")
    with a_table(server) as (room_id, cookie):
        client = FramesAtOnce(server, room_id, cookie)
        lines = [{"type": "chat", "channel": "table", "text": f"line {n}"} for n in range(20)]
        client.send_together(lines)
        client.until_closed()
        assert client.close_code == POLICY_VIOLATION
        # The first line was being said when the pile came; none behind it was taken.
        said = [m["text"] for m in client.received if m["type"] == "chat"]
        assert said in ([], ["line 0"])
        again = FramesAtOnce(server, room_id, cookie)
        again.until(lambda: any(m["type"] == "chat_log" for m in again.received))
        (log,) = [m for m in again.received if m["type"] == "chat_log"]
        assert [m["text"] for m in log["messages"]] in ([], ["line 0"])
