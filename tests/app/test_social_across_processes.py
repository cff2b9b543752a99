"""Friends, invitations and blocks with two server processes sharing Redis: an invitation
made through one process reaches the invitee's page connected to the other at once, a
friend whose page is open through the other process is online, and a block made through
one process keeps the blocked person's talk, said through one, from the blocker's
connection on the other."""

from __future__ import annotations

import secrets
from typing import Any

import orjson
from websockets.sync.client import ClientConnection, connect

from tests.app.helpers import PASSWORD
from tests.app.live_clients import UNLIMITED, Factory, Seat
from tests.app.redis_server import RedisServer
from tests.conftest import LiveServer


def person(server: LiveServer, username: str) -> Seat:
    seat = Seat(server, "Someone")
    made = seat.http.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return seat


def on(seat: Seat, server: LiveServer) -> Seat:
    """The same person's browser, talking to ``server``."""
    again = Seat(server, None)
    again.http.cookies.set("parlour_session", seat.http.cookies.get("parlour_session") or "")
    return again


def live_page(seat: Seat) -> ClientConnection:
    cookie = seat.http.cookies.get("parlour_session")
    page = connect(
        f"{seat.server.ws_url}/ws/me",
        additional_headers={"Cookie": f"parlour_session={cookie}"},
        legacy=True,
    )
    page.send('{"type":"ping"}')  # answered once the page is registered
    assert orjson.loads(page.recv(timeout=10)) == {"type": "pong"}
    return page


def told(page: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = orjson.loads(page.recv(timeout=10))
    return message


def test_invitations_presence_and_blocks_cross_processes(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    env = {"REDIS_URL": redis_server.url, "REDIS_PREFIX": f"t{secrets.token_hex(3)}", **UNLIMITED}
    a, b = (live_server_factory(database_url=postgres_url, **env) for _ in range(2))
    ada, bob, cat = person(a, "Ada"), person(b, "Bob"), person(a, "Cat")
    assert ada.http.post("/api/friends/Bob").status_code == 200
    assert bob.http.post("/api/friends/Ada").status_code == 200

    bob_page = live_page(bob)  # through b
    (friend,) = ada.http.get("/api/friends").json()["friends"]  # asked through a
    assert friend["username"] == "Bob" and friend["online"] is True

    room = ada.http.post("/api/rooms", json={"game": "cups", "seats": 3}).json()
    sent = ada.http.post(f"/api/rooms/{room['id']}/invitations", json={"username": "Bob"})
    assert sent.status_code == 201, sent.text
    invitation = told(bob_page)
    assert invitation["type"] == "invitation"
    assert invitation["invitation"] == {
        "id": sent.json()["id"],
        "room_id": room["id"],
        "game": "cups",
        "from": "Ada",
    }
    accepted = bob.http.post(f"/api/me/invitations/{sent.json()['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["seat"] == 1
    assert cat.http.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    bob_page.close()

    # Ada reads the table through b, Bob and Cat talk through a; Ada blocks Bob through a.
    ada_on_b = on(ada, b)
    for seat in (ada_on_b, bob, cat):
        seat.connect(room["id"])
        seat.next_of("chat_log")
    bob.say("table", "before")
    assert ada_on_b.next_of("chat")["text"] == "before"
    assert ada.http.post("/api/blocks/Bob").status_code == 204
    assert ada_on_b.next_of("chat_log")["messages"] == []  # b heard of the block
    bob.say("table", "hidden")
    assert cat.next_of("chat")["text"] == "before"
    assert cat.next_of("chat")["text"] == "hidden"
    cat.say("table", "from Cat")
    assert cat.next_of("chat")["text"] == "from Cat"
    # Both lines crossed from a to b on one channel, in the order they were said: the next
    # line Ada's connection on b is sent is Cat's, so Bob's was left out.
    assert ada_on_b.next_of("chat")["text"] == "from Cat"
    for seat in (ada_on_b, bob, cat):
        seat.close()
