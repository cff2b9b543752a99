"""Rematch by acceptance, over the room's socket: at the end of a match a player proposes a
rematch, everyone sees the offer with the room; another declines it (it stands no more) or
accepts it; when every seat has accepted — the computers the host chose accept at once — the
new match starts at once in a new room with everyone in the same seat (a person a computer
stood in for has the seat's say, and sits again in person), and the finished room names
it. A rematch is refused before the end, to a watcher, and without an offer."""

from __future__ import annotations

from typing import Any

from starlette.testclient import WebSocketTestSession

from tests.app.helpers import NewClient, Timed, eventually, play_out, room_of, started_room
from tests.app.test_absence import away_since, user_id
from tests.app.test_api import play_out_seat0


def room_update(ws: WebSocketTestSession, check: Any) -> dict[str, Any]:
    """The next room description that passes ``check`` (states and the chat log skipped)."""
    while True:
        message = ws.receive_json()
        assert message["type"] in ("room", "state", "chat_log"), message
        if message["type"] == "room" and check(message["room"]):
            return dict(message["room"])


def error_of(ws: WebSocketTestSession) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            return dict(message)
        assert message["type"] in ("room", "state", "chat_log"), message


def offer_is(**expected: Any) -> Any:
    def check(room: dict[str, Any]) -> bool:
        offer = room["rematch_offer"]
        return offer is not None and all(offer[k] == v for k, v in expected.items())

    return check


def test_two_people_propose_decline_and_accept_and_the_rematch_starts_at_once(
    new_client: NewClient,
) -> None:
    ann, bob, eve = new_client("Ann"), new_client("Bob"), new_client("Eve")
    room = started_room(ann, [bob], "cupid", options={"target": 10})
    with ann.websocket_connect(f"/ws/rooms/{room['id']}") as early:
        early.send_json({"type": "rematch", "accept": True})
        refused = error_of(early)
        assert refused["code"] == "not_finished" and refused["about"] == "rematch"
    play_out([ann, bob], room["id"])
    assert room_of(ann, room["id"])["rematch_offer"] is None
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as ann_ws,
        bob.websocket_connect(f"/ws/rooms/{room['id']}") as bob_ws,
        eve.websocket_connect(f"/ws/rooms/{room['id']}") as eve_ws,
    ):
        bob_ws.send_json({"type": "rematch", "accept": False})
        assert error_of(bob_ws)["code"] == "no_rematch_offer"
        eve_ws.send_json({"type": "rematch", "accept": True})
        assert error_of(eve_ws)["code"] == "not_seated"

        ann_ws.send_json({"type": "rematch", "accept": True})
        offered = room_update(bob_ws, offer_is(by=0))
        assert offered["rematch_offer"] == {
            "by": 0,
            "accepted": [0],
            "declined": None,
            "started": False,
        }
        assert room_update(eve_ws, offer_is(by=0))["rematch_id"] is None  # watchers see it

        bob_ws.send_json({"type": "rematch", "accept": False})
        assert room_update(ann_ws, offer_is(declined=1))["rematch_id"] is None

        # Anyone may propose again; the other's acceptance starts the match at once.
        bob_ws.send_json({"type": "rematch", "accept": True})
        room_update(ann_ws, offer_is(by=1, accepted=[1], declined=None))
        ann_ws.send_json({"type": "rematch", "accept": True})
        started = room_update(bob_ws, offer_is(started=True))
    assert started["rematch_offer"]["accepted"] == [0, 1]
    rematch = room_of(ann, started["rematch_id"])
    assert rematch["status"] == "playing" and rematch["match_id"] is not None
    assert [(s["seat"], s["name"]) for s in rematch["seats"]] == [(0, "Ann"), (1, "Bob")]
    assert rematch["options"]["target"] == 10
    with ann.websocket_connect(f"/ws/rooms/{room['id']}") as again:
        again.send_json({"type": "rematch", "accept": True})
        assert error_of(again)["code"] == "rematch_open"


def test_the_computers_the_host_chose_accept_at_once(new_client: NewClient) -> None:
    ann = new_client("Ann")
    room = ann.post("/api/rooms", json={"game": "cupid", "options": {"target": 10}}).json()
    assert ann.post(f"/api/rooms/{room['id']}/bots", json={"seat": 1}).status_code == 200
    assert ann.post(f"/api/rooms/{room['id']}/start").status_code == 200
    play_out([ann], room["id"])
    with ann.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        ws.send_json({"type": "rematch", "accept": True})
        started = room_update(ws, offer_is(started=True))
    assert started["rematch_offer"]["accepted"] == [0, 1]
    rematch = eventually(
        lambda: (r := room_of(ann, started["rematch_id"]))["status"] == "playing" and r,
        "the rematch to start",
    )
    assert rematch["seats"][1]["bot"] == "heuristic"
    assert rematch["seats"][0]["user_id"] == room["seats"][0]["user_id"]


def test_a_person_a_computer_stood_in_for_has_a_say_and_sits_again_in_person(
    timed: Timed,
) -> None:
    ann, bob = timed.client("Ann"), timed.client("Bob")
    body = {"game": "coins", "seats": 3, "options": {"target": 10}}
    rid = ann.post("/api/rooms", json=body).json()["id"]
    assert bob.post(f"/api/rooms/{rid}/join", json={"seat": 1}).status_code == 200
    assert ann.post(f"/api/rooms/{rid}/bots", json={"seat": 2}).status_code == 200
    assert ann.post(f"/api/rooms/{rid}/start").status_code == 200
    away_since(ann, rid, 1)
    timed.advance(60)
    assert ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).status_code == 200
    play_out_seat0(ann, rid)
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}") as ann_ws,
        bob.websocket_connect(f"/ws/rooms/{rid}") as bob_ws,
    ):
        ann_ws.send_json({"type": "rematch", "accept": True})
        # Seat 2's computer (the host's choice) accepts at once; Bob's seat waits for Bob,
        # not for the computer that played it.
        room_update(bob_ws, offer_is(by=0, accepted=[0, 2]))
        bob_ws.send_json({"type": "rematch", "accept": True})
        started = room_update(ann_ws, offer_is(started=True))
    rematch = eventually(
        lambda: (r := room_of(ann, started["rematch_id"]))["status"] == "playing" and r,
        "the rematch to start",
    )
    seats = rematch["seats"]
    assert seats[1]["user_id"] == user_id(bob) and seats[1]["name"] == "Bob"
    assert seats[1]["bot"] is None and seats[1]["stand_in_for"] is None
    assert seats[2]["bot"] == "heuristic"
