"""A mute at a table covers the person behind a fresh guest, as far as the server can
tell: a guest made in the browser that held the muted identity, and a guest made after the
mute from the muted person's address. Guests made before the mute from that address, and
people from elsewhere, still talk; unmuting lets the fresh guest talk too."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.app.helpers import make_app, next_of, running
from tests.app.live_clients import Factory, Seat
from tests.app.redis_server import RedisServer
from tests.app.test_cluster import servers

Browser = Callable[[str, str | None], TestClient]


@pytest.fixture
def browser(database_url: str, tmp_path: Path) -> Iterator[Browser]:
    """A browser at a network address (its own cookie jar), as a guest when named."""
    app = make_app(database_url, tmp_path, rate_per_second=1000.0, rate_burst=1000)
    with running(app) as new_client:
        portal = new_client(None).portal

        def at(address: str, name: str | None) -> TestClient:
            client = TestClient(app, client=(address, 50000))
            client.portal = portal  # one event loop for every client, as in a server
            if name is not None:
                assert client.post("/api/session", json={"name": name}).status_code == 200
            return client

        yield at


def user_id(client: TestClient) -> str:
    return str(client.get("/api/session").json()["user_id"])


def said(client: TestClient, room_id: str, text: str) -> dict[str, Any]:
    """What the room answers a line said on the watchers' channel: the line, or an error."""
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        next_of(ws, "chat_log")
        ws.send_json({"type": "read_watchers", "on": True})  # what a player must choose
        ws.send_json({"type": "chat", "channel": "watchers", "text": text})
        while (message := ws.receive_json())["type"] not in ("chat", "error"):
            pass
        return message


def mute(host: TestClient, room_id: str, person: str, muted: bool = True) -> None:
    answer = host.post(f"/api/rooms/{room_id}/mute", json={"user_id": person, "muted": muted})
    assert answer.status_code == 200, answer.text


def test_a_guest_made_in_a_muted_persons_browser_is_muted_too(browser: Browser) -> None:
    ann = browser("10.0.0.1", "Ann")
    room_id = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    eve = browser("10.0.0.2", "Eve")
    assert said(eve, room_id, "hello")["type"] == "chat"
    mute(ann, room_id, user_id(eve))
    # Eve drops her session cookie and comes back from another network as a new guest:
    # the browser is the one that held the muted identity.
    again = browser("10.0.0.3", None)
    for name, value in eve.cookies.items():
        if name != "parlour_session":
            again.cookies.set(name, value)
    assert again.post("/api/session", json={"name": "Evie"}).status_code == 200
    assert user_id(again) != user_id(eve)
    refused = said(again, room_id, "back again")
    assert (refused["type"], refused.get("code")) == ("error", "muted")
    # Someone else's browser on that network is not covered.
    assert said(browser("10.0.0.3", "Zed"), room_id, "hi all")["type"] == "chat"


def test_a_fresh_guest_from_a_muted_players_address_is_muted(browser: Browser) -> None:
    ann = browser("10.0.0.1", "Ann")
    room_id = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    bob = browser("10.0.0.2", "Bob")
    assert bob.post(f"/api/rooms/{room_id}/join", json={}).status_code == 200
    housemate = browser("10.0.0.2", "Cat")  # a guest of that address from before the mute
    mute(ann, room_id, user_id(bob))
    # Bob opens a private window (no cookies at all) and talks to the watchers as "Bob".
    disguised = browser("10.0.0.2", "Bob")
    refused = said(disguised, room_id, "it is me again")
    assert (refused["type"], refused.get("code")) == ("error", "muted")
    assert said(housemate, room_id, "not me")["type"] == "chat"
    assert said(ann, room_id, "the host is never covered")["type"] == "chat"
    mute(ann, room_id, user_id(bob), muted=False)
    assert said(disguised, room_id, "forgiven")["type"] == "chat"


def test_what_a_mute_covers_reaches_every_process(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    a, b = servers(live_server_factory, postgres_url, redis_server)
    ann, eve = Seat(a, "Ann"), Seat(b, "Eve")  # the room is refereed by a; Eve is on b
    room_id = ann.http.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    eve.connect(room_id)
    eve.next_of("chat_log")
    eve_id = eve.http.get("/api/session").json()["user_id"]
    muted = ann.http.post(f"{a.url}/api/rooms/{room_id}/mute", json={"user_id": eve_id})
    assert muted.is_success
    while eve_id not in eve.next_of("room")["room"]["muted"]:
        pass
    # Eve again, as a new guest in a private window (same address), through b.
    disguised = Seat(b, "Eve")
    try:
        disguised.connect(room_id)
        disguised.next_of("chat_log")
        disguised.say("watchers", "guess who")
        assert disguised.next_of("error")["code"] == "muted"
    finally:
        for person in (ann, eve, disguised):
            person.close()
