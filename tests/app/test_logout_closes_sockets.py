"""Ending a session closes the sockets opened with it, in every process, with close code
4401: a device logged out everywhere can no longer move or read the table talk, while the
sockets of sessions that live on stay open."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed

from app.connections.hub import Connection, Hub
from app.connections.session_ends import SessionEnds
from app.rooms.time_source import SystemTime
from tests.app.helpers import PASSWORD, NewClient, account, next_of, started_room, state_at
from tests.app.live_clients import Seat, two_processes_caching_identities
from tests.app.redis_server import RedisServer
from tests.app.test_stuck_clients import a_room
from tests.conftest import LiveServer

SIGNED_OUT = 4401


def close_code(ws: WebSocketTestSession, allowed: Callable[[dict[str, Any]], bool]) -> int:
    """Read until the server closes the socket, each message ``allowed``; its close code."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            message = ws.receive_json()
            assert allowed(message), f"after its session ended the socket got {message}"
    return closed.value.code


def test_logging_out_everywhere_closes_the_sockets_of_every_session(
    new_client: NewClient,
) -> None:
    laptop = account(new_client, "Gil")
    phone = new_client(None)
    assert phone.post("/api/login", json={"username": "Gil", "password": PASSWORD}).is_success
    bob = new_client("Bob")
    room = started_room(phone, [bob])
    path = f"/ws/rooms/{room['id']}"
    with phone.websocket_connect(path) as on_phone, bob.websocket_connect(path) as on_bob:
        state, bobs = state_at(on_phone, 0), state_at(on_bob, 0)
        if state["view"]["to_act"] != [0]:  # Bob leads: then the phone's seat is awaited
            action = bobs["view"]["legal_actions"][0]
            on_bob.send_json({"type": "act", "version": 0, "action": action})
            state = state_at(on_phone, 1)
        version = state["version"]
        assert laptop.post("/api/logout/everywhere").json() == {"sessions_ended": 2}
        # The phone tries a move and a line after its session ended: neither is taken.
        move = {"type": "act", "version": version, "action": state["view"]["legal_actions"][0]}
        on_phone.send_json(move)
        on_phone.send_json({"type": "chat", "channel": "table", "text": "still here"})

        def unchanged(message: dict[str, Any]) -> bool:
            return message["type"] in ("room", "chat_log") or (
                message["type"] == "state" and message["version"] == version
            )

        assert close_code(on_phone, unchanged) == SIGNED_OUT
        assert phone.get(f"/api/rooms/{room['id']}").json()["version"] == version
        on_bob.send_json({"type": "chat", "channel": "table", "text": "you there?"})
        assert next_of(on_bob, "chat")["text"] == "you there?"  # nothing of the phone's


def test_logging_out_closes_only_that_devices_sockets(new_client: NewClient) -> None:
    laptop = account(new_client, "Gil")
    phone = new_client(None)
    assert phone.post("/api/login", json={"username": "Gil", "password": PASSWORD}).is_success
    room = laptop.post("/api/rooms", json={"game": "cupid"}).json()
    path = f"/ws/rooms/{room['id']}"
    with laptop.websocket_connect(path) as on_laptop, phone.websocket_connect(path) as on_phone:
        next_of(on_laptop, "room")
        next_of(on_phone, "room")
        assert phone.post("/api/logout").json() == {"sessions_ended": 1}
        on_phone.send_json({"type": "ping"})  # unanswered: the session is gone
        quiet = close_code(on_phone, lambda m: m["type"] in ("room", "chat_log"))
        assert quiet == SIGNED_OUT
        on_laptop.send_json({"type": "ping"})
        assert next_of(on_laptop, "pong") == {"type": "pong"}


def test_logging_out_everywhere_closes_sockets_in_every_process(
    live_server_factory: Callable[..., LiveServer], postgres_url: str, redis_server: RedisServer
) -> None:
    one, two = two_processes_caching_identities(live_server_factory, postgres_url, redis_server)
    body = {"username": "Gil", "password": PASSWORD}
    with httpx.Client(base_url=one.url) as laptop:
        assert laptop.post("/api/session", json={"name": "Guest"}).status_code == 200
        assert laptop.post("/api/accounts", json=body).status_code == 201
        phone, bob = Seat(two, None), Seat(one, "Bob")
        try:
            assert phone.http.post("/api/login", json=body).status_code == 200
            room = phone.http.post("/api/rooms", json={"game": "cupid"}).json()
            assert bob.http.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
            phone.connect(room["id"])
            bob.connect(room["id"])
            phone.next_of("room")
            bob.next_of("room")
            assert laptop.post("/api/logout/everywhere").json() == {"sessions_ended": 2}
            assert phone.ws is not None
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    message = orjson.loads(phone.ws.recv(timeout=20))
                    assert message["type"] != "chat", message
            assert closed.value.rcvd is not None and closed.value.rcvd.code == SIGNED_OUT
            bob.say("table", "anyone?")
            assert bob.next_of("chat")["text"] == "anyone?"
        finally:
            phone.close()
            bob.close()


def test_a_session_ended_while_its_socket_opens_closes_the_socket() -> None:
    """The word of the logout comes before the socket is registered with the hub (its
    identity was already read): the socket is checked once it is."""

    async def scenario() -> tuple[bool, tuple[int, str] | None, bool]:
        loop = asyncio.get_running_loop()
        hub = Hub()
        ends = SessionEnds(hub, lambda ids: {"live"} & ids, loop)

        def opened(user_id: str, session_id: str) -> Connection:
            return Connection(
                None,  # type: ignore[arg-type]  # never started: nothing is sent
                user_id,
                a_room(),
                hub,
                8,
                time_source=SystemTime(),
                grace=60.0,
                address="test",
                session_id=session_id,
            )

        heard_before = ends.heard
        ends.user_forgotten("u1")  # the logout, while the socket of "u1" is being opened
        ended, other = opened("u1", "gone"), opened("u2", "live")
        for connection in (ended, other):
            hub.add(connection)
            ends.registered(connection, heard_before)
        check = ended.session_check
        assert check is not None and other.session_check is None
        await check
        return ended.closed, ended._close, other.closed

    closed, frame, other_closed = asyncio.run(scenario())
    assert closed and frame == (SIGNED_OUT, "signed out")
    assert not other_closed
