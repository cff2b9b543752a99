"""Caps per person and per address: open sockets, tables opened, room codes tried.

A single client opening dozens of sockets, thousands of rooms or guessing codes as fast as
it can must be stopped at the door with a documented code, leaving everyone else alone.
And a private room cannot be guessed at all: it has no short code, only its id's link.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.app.helpers import make_app, running
from tests.app.test_api import error_of, play_out_seat0

Clients = Callable[[str | None], TestClient]
CAPS = {
    "sockets_per_person": 2,
    "sockets_per_address": 3,
    "rooms_per_hour_per_person": 2,
    "rooms_per_hour_per_address": 4,
    "code_lookups_per_minute": 3,
}


@pytest.fixture
def capped(database_url: str, tmp_path: Path) -> Iterator[Clients]:
    with running(make_app(database_url, tmp_path, **CAPS)) as factory:
        yield factory


def refused_socket(client: TestClient, path: str) -> tuple[dict[str, Any], int]:
    """The error a refused socket is sent, and the code it is then closed with."""
    with client.websocket_connect(path) as ws:
        error = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return error, closed.value.code


def test_a_person_and_an_address_hold_only_so_many_sockets(capped: Clients) -> None:
    ann, bob = capped("Ann"), capped("Bob")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    path = f"/ws/rooms/{room['id']}"
    with ann.websocket_connect(path) as first, ann.websocket_connect(path) as second:
        for ws in (first, second):
            assert ws.receive_json()["type"] in ("room", "state")
        error, code = refused_socket(ann, path)
        assert (error["code"], code) == ("too_many_connections", 1008)
        # Bob is someone else, but from the same address: one more, then the address is full.
        with bob.websocket_connect(path) as third:
            assert third.receive_json()["type"] in ("room", "state")
            error, code = refused_socket(bob, path)
            assert (error["code"], code) == ("too_many_connections", 1008)
    # Closed sockets no longer count.
    with ann.websocket_connect(path) as again:
        assert again.receive_json()["type"] in ("room", "state")


def test_opening_tables_is_capped_per_person_and_per_address(capped: Clients) -> None:
    ann, bob = capped("Ann"), capped("Bob")
    for _ in range(2):
        assert ann.post("/api/rooms", json={"game": "cupid"}).status_code == 201
    message = error_of(ann.post("/api/rooms", json={"game": "cupid"}), 429, "too_many_rooms")
    assert re.search(r"try again in \d+ s", message)
    # Ann's refused try took nothing from the address (2 of its 4 used): two more for Bob.
    for _ in range(2):
        assert bob.post("/api/rooms", json={"game": "cupid"}).status_code == 201
    error_of(bob.post("/api/rooms", json={"game": "cupid"}), 429, "too_many_rooms")


def test_codes_tried_are_capped_per_address_and_ids_are_not(capped: Clients) -> None:
    ann = capped("Ann")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    assert ann.get(f"/api/rooms/{room['code']}").json()["id"] == room["id"]
    error_of(ann.get("/api/rooms/ZZZZZZ"), 404, "room_not_found")
    error_of(ann.get("/api/rooms/YYYYYY"), 404, "room_not_found")
    error_of(ann.get(f"/api/rooms/{room['code']}"), 429, "too_many_lookups")
    error_of(ann.post(f"/api/rooms/{room['code']}/join"), 429, "too_many_lookups")
    error, code = refused_socket(ann, f"/ws/rooms/{room['code']}")
    assert (error["code"], code) == ("too_many_lookups", 1008)
    assert ann.get(f"/api/rooms/{room['id']}").json()["id"] == room["id"]
    with ann.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        assert ws.receive_json()["type"] in ("room", "state")


def test_private_rooms_have_no_code_and_ended_rooms_free_theirs(
    new_client: Clients,
) -> None:
    ann = new_client("Ann")
    private = ann.post("/api/rooms", json={"game": "cupid", "visibility": "private"}).json()
    assert private["code"] is None
    assert re.fullmatch(r"[0-9a-f]{16}", private["id"])  # 64 random bits: the link
    public = ann.post("/api/rooms", json={"game": "coins", "seats": 3}).json()
    assert re.fullmatch(r"[0-9A-Z]{6}", public["code"])
    rid = public["id"]
    for seat in (1, 2):
        ann.post(f"/api/rooms/{rid}/bots", json={"seat": seat})
    ann.post(f"/api/rooms/{rid}/start")
    play_out_seat0(ann, rid)
    ended = ann.get(f"/api/rooms/{rid}").json()
    assert ended["status"] == "finished" and ended["code"] is None
    error_of(ann.get(f"/api/rooms/{public['code']}"), 404, "room_not_found")


def test_room_pages_count_the_codes_they_are_asked_for(capped: Clients) -> None:
    ann = capped("Ann")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    assert ann.get(f"/rooms/{room['code']}").status_code == 200
    assert ann.get("/rooms/ZZZZZZ").status_code == 404
    assert ann.get("/join/YYYYYY").status_code == 404
    error_of(ann.get(f"/rooms/{room['code']}/watch"), 429, "too_many_lookups")
    assert ann.get(f"/rooms/{room['id']}").status_code == 200  # ids are not counted


def test_a_private_matchs_review_page_is_for_its_players(new_client: Clients) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    rid = ann.post("/api/rooms", json={"game": "coins", "seats": 3, "visibility": "private"})
    room_id = rid.json()["id"]
    for seat in (1, 2):
        ann.post(f"/api/rooms/{room_id}/bots", json={"seat": seat})
    ann.post(f"/api/rooms/{room_id}/start")
    play_out_seat0(ann, room_id)
    match_id = ann.get(f"/api/rooms/{room_id}").json()["match_id"]
    assert ann.get(f"/matches/{match_id}").status_code == 200
    assert bob.get(f"/matches/{match_id}").status_code == 404
    assert new_client(None).get(f"/matches/{match_id}").status_code == 404


def test_a_person_holds_only_so_many_live_channel_sockets(capped: Clients) -> None:
    ann = capped("Ann")
    with ann.websocket_connect("/ws/me") as first, ann.websocket_connect("/ws/me") as second:
        for page in (first, second):
            page.send_json({"type": "ping"})
            assert page.receive_json() == {"type": "pong"}
        error, code = refused_socket(ann, "/ws/me")
        assert (error["code"], code) == ("too_many_connections", 1008)
    # Closed sockets no longer count.
    with ann.websocket_connect("/ws/me") as again:
        again.send_json({"type": "ping"})
        assert again.receive_json() == {"type": "pong"}
