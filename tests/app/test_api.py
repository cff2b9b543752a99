"""The REST API: every endpoint, every error code, every room state change.

Each test runs on SQLite and, where TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from fastapi.testclient import TestClient

import games
from tests.app.helpers import NewClient, started_room


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    assert body["message"]
    return str(body["message"])


# --- identity ---------------------------------------------------------------------------


def test_session_starts_renames_and_survives(new_client: NewClient) -> None:
    client = new_client(None)
    error_of(client.get("/api/session"), 401, "no_session")
    first = client.post("/api/session", json={"name": "Ann"}).json()
    assert first["name"] == "Ann" and first["user_id"]
    assert client.get("/api/session").json() == first
    renamed = client.post("/api/session", json={"name": "  Annie "}).json()
    assert renamed == {"user_id": first["user_id"], "name": "Annie", "username": None}


@pytest.mark.parametrize(
    "name", ["", "   ", "x" * 21, "<script>", "Ann\nBob", "two  spaces", "_under", 7]
)
def test_bad_names_are_refused(new_client: NewClient, name: Any) -> None:
    client = new_client(None)
    response = client.post("/api/session", json={"name": name})
    assert response.status_code == 422
    assert response.json()["code"] in ("bad_name", "bad_request")
    error_of(client.get("/api/session"), 401, "no_session")


def test_a_forged_cookie_is_no_session(new_client: NewClient) -> None:
    client = new_client("Ann")
    client.cookies.set("parlour_session", "forged.value")
    error_of(client.get("/api/session"), 401, "no_session")


# --- games and rooms ----------------------------------------------------------------------


def test_games_lists_the_registry(new_client: NewClient) -> None:
    listed = new_client(None).get("/api/games").json()
    assert [g["name"] for g in listed] == sorted(games.REGISTRY)
    cupid = next(g for g in listed if g["name"] == "cupid")
    assert cupid["min_seats"] == cupid["max_seats"] == 2
    assert cupid["default_options"] == games.get("cupid").default_options()


def test_create_room_and_look_it_up(new_client: NewClient) -> None:
    ann = new_client("Ann")
    response = ann.post("/api/rooms", json={"game": "cupid", "seats": 2, "options": {}})
    assert response.status_code == 201
    room = response.json()
    assert room["status"] == "waiting" and room["game"] == "cupid"
    assert room["seats"][0]["name"] == "Ann" and room["seats"][1]["name"] is None
    assert room["options"]["target"] == games.get("cupid").default_options()["target"]
    assert len(room["code"]) == 6
    # The options worded for players by the server, the one wording of them anywhere.
    assert room["options_text"] == [f"Points to win: {room['options']['target']}"]
    assert ann.get(f"/api/rooms/{room['id']}").json()["id"] == room["id"]
    assert ann.get(f"/api/rooms/{room['code']}").json()["id"] == room["id"]
    assert ann.get(f"/api/rooms/{room['code'].lower()}").json()["id"] == room["id"]
    error_of(ann.get("/api/rooms/nope"), 404, "room_not_found")


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    [
        ({"game": "chess"}, 422, "unknown_game", "chess"),
        ({"game": "cupid", "seats": 3}, 422, "bad_options", "2"),
        ({"game": "cupid", "options": {"colour": "red"}}, 422, "bad_options", "colour"),
        ({"game": "coins", "options": {"target": 12}}, 422, "bad_options", "target"),
        ({"game": "cupid", "visibility": "secret"}, 422, "bad_request", "visibility"),
        ({"game": "cupid", "seats": "two"}, 422, "bad_request", "seats"),
        ({"game": "cupid", "surprise": 1}, 422, "bad_request", "surprise"),
    ],
)
def test_bad_rooms_are_refused_with_the_reason(
    new_client: NewClient, body: dict[str, Any], status: int, code: str, words: str
) -> None:
    ann = new_client("Ann")
    assert words in error_of(ann.post("/api/rooms", json=body), status, code)
    assert ann.get("/api/rooms").json() == []


def test_creating_a_room_needs_a_session(new_client: NewClient) -> None:
    error_of(new_client(None).post("/api/rooms", json={"game": "cupid"}), 401, "no_session")


def test_lobby_lists_public_waiting_and_playing_rooms_only(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    public = ann.post("/api/rooms", json={"game": "cupid"}).json()
    private = ann.post("/api/rooms", json={"game": "cupid", "visibility": "private"}).json()
    with (
        ann.websocket_connect(f"/ws/rooms/{public['id']}"),
        ann.websocket_connect(f"/ws/rooms/{private['id']}"),
    ):
        listed = bob.get("/api/rooms").json()
    assert [r["id"] for r in listed] == [public["id"]]


def test_join_leave_and_their_errors(new_client: NewClient) -> None:
    ann, bob, cat, ann2 = new_client("Ann"), new_client("Bob"), new_client("Cat"), new_client("ann")
    room = ann.post("/api/rooms", json={"game": "coins", "seats": 3}).json()
    rid = room["id"]
    error_of(bob.post(f"/api/rooms/{rid}/join", json={"seat": 0}), 409, "seat_taken")
    error_of(bob.post(f"/api/rooms/{rid}/join", json={"seat": 5}), 422, "bad_seat")
    error_of(ann2.post(f"/api/rooms/{rid}/join", json={}), 409, "name_taken")
    joined = bob.post(f"/api/rooms/{rid}/join", json={"seat": 2})
    assert joined.json()["seat"] == 2
    # Joining again (a reload, a second tab) keeps the same seat.
    assert bob.post(f"/api/rooms/{rid}/join", json={}).json()["seat"] == 2
    error_of(bob.post(f"/api/rooms/{rid}/join", json={"seat": 1}), 409, "already_seated")
    assert cat.post(f"/api/rooms/{room['code']}/join").json()["seat"] == 1
    error_of(new_client("Dan").post(f"/api/rooms/{rid}/join", json={}), 409, "room_full")
    left = bob.post(f"/api/rooms/{rid}/leave").json()
    assert left["seats"][2]["name"] is None
    error_of(bob.post(f"/api/rooms/{rid}/leave"), 409, "not_seated")
    error_of(new_client(None).post(f"/api/rooms/{rid}/join"), 401, "no_session")


def test_host_leaving_passes_the_host_role(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    bob.post(f"/api/rooms/{room['id']}/join")
    after = ann.post(f"/api/rooms/{room['id']}/leave").json()
    assert after["host_id"] == bob.get("/api/session").json()["user_id"]


def test_computer_players_and_freeing_seats(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    rid = ann.post("/api/rooms", json={"game": "coins", "seats": 3}).json()["id"]
    error_of(bob.post(f"/api/rooms/{rid}/bots", json={"seat": 1}), 403, "not_host")
    error_of(ann.post(f"/api/rooms/{rid}/bots", json={"seat": 0}), 409, "seat_taken")
    error_of(
        ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1, "kind": "oracle"}), 422, "bad_request"
    )
    room = ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).json()
    assert room["seats"][1]["bot"] == "heuristic" and room["seats"][1]["name"]
    error_of(ann.delete(f"/api/rooms/{rid}/seats/2"), 409, "seat_empty")
    error_of(bob.delete(f"/api/rooms/{rid}/seats/1"), 403, "not_host")
    error_of(ann.delete(f"/api/rooms/{rid}/seats/0"), 409, "bad_request")
    assert ann.delete(f"/api/rooms/{rid}/seats/1").json()["seats"][1]["name"] is None


def test_start_rules(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    error_of(ann.post(f"/api/rooms/{rid}/start"), 409, "seats_free")
    bob.post(f"/api/rooms/{rid}/join")
    error_of(bob.post(f"/api/rooms/{rid}/start"), 403, "not_host")
    room = ann.post(f"/api/rooms/{rid}/start").json()
    assert room["status"] == "playing" and room["match_id"] and len(room["seed_hash"]) == 64
    error_of(ann.post(f"/api/rooms/{rid}/start"), 409, "not_waiting")
    error_of(new_client("Cat").post(f"/api/rooms/{rid}/join"), 409, "not_waiting")
    error_of(bob.post(f"/api/rooms/{rid}/leave"), 409, "not_waiting")
    error_of(ann.post(f"/api/rooms/{rid}/rematch"), 409, "not_finished")
    record = ann.get(f"/api/matches/{room['match_id']}").json()
    assert record["status"] == "playing" and record["seed"] is None and record["events"] == []
    assert record["seed_hash"] == room["seed_hash"]
    error_of(ann.get(f"/api/matches/{room['match_id']}/review"), 409, "not_finished")
    error_of(ann.get("/api/matches/nope"), 404, "match_not_found")


def test_a_match_against_computers_finishes_and_is_recorded(new_client: NewClient) -> None:
    """Every seat a computer but the host's seat... which the host hands to a computer too."""
    ann = new_client("Ann")
    rid = ann.post(
        "/api/rooms", json={"game": "coins", "seats": 3, "options": {"target": 10}}
    ).json()["id"]
    ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1})
    ann.post(f"/api/rooms/{rid}/bots", json={"seat": 2})
    room = ann.post(f"/api/rooms/{rid}/start").json()
    match_id = room["match_id"]
    play_out_seat0(ann, rid)
    record = ann.get(f"/api/matches/{match_id}").json()
    assert record["status"] == "finished"
    seed = record["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == record["seed_hash"]
    assert int(seed).bit_length() <= 128
    actions = [(e["seat"], e["action"]) for e in record["events"]]
    assert [e["seq"] for e in record["events"]] == list(range(1, len(actions) + 1))
    state = games.replay("coins", 3, int(seed), record["options"], None, actions)
    rules = games.get("coins")
    assert rules.is_over(state)
    assert rules.scores(state) == record["scores"] and rules.winners(state) == record["winners"]
    review = ann.get(f"/api/matches/{match_id}/review").json()
    assert len(review["frames"]) == len(actions) + 1
    assert review["frames"][-1]["scores"] == record["scores"]
    assert all(len(frame["hands"]) == 3 for frame in review["frames"])
    listed = ann.get("/api/matches").json()["matches"]
    assert listed[0]["id"] == match_id
    assert ann.get("/api/matches", params={"game": "cupid"}).json()["matches"] == []
    assert ann.get("/api/matches", params={"user": "me"}).json()["matches"][0]["id"] == match_id
    # Rematch: a new room, the same people in the same seats, asked twice gives the same.
    again = ann.post(f"/api/rooms/{rid}/rematch")
    assert again.status_code == 201
    new_room = again.json()
    assert new_room["status"] == "waiting" and new_room["id"] != rid
    assert [s["name"] for s in new_room["seats"]] == [s["name"] for s in room["seats"]]
    assert new_room["options"]["target"] == 10
    assert ann.post(f"/api/rooms/{rid}/rematch").json()["id"] == new_room["id"]
    assert ann.get(f"/api/rooms/{rid}").json()["rematch_id"] == new_room["id"]


def play_out_seat0(client: TestClient, room_id: str) -> None:
    """Play seat 0 over the WebSocket (first legal action) until the match ends. A state
    is sent again at the same version when only the clocks changed (a computer took a
    seat): each version is answered once."""
    answered = -1
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        while True:
            message = ws.receive_json()
            assert message["type"] != "error", message  # an ignored refusal would hang here
            if message["type"] != "state":
                continue
            view = message["view"]
            if view["over"]:
                return
            if view["legal_actions"] and message["version"] > answered:
                answered = message["version"]
                ws.send_json(
                    {
                        "type": "act",
                        "version": message["version"],
                        "action": view["legal_actions"][0],
                    }
                )


def test_private_matches_are_listed_only_for_their_players(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    rid = ann.post(
        "/api/rooms",
        json={"game": "coins", "seats": 3, "visibility": "private", "options": {"target": 10}},
    ).json()["id"]
    ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1})
    ann.post(f"/api/rooms/{rid}/bots", json={"seat": 2})
    ann.post(f"/api/rooms/{rid}/start")
    play_out_seat0(ann, rid)
    mine = ann.get("/api/matches").json()["matches"]
    assert len(mine) == 1
    assert bob.get("/api/matches").json()["matches"] == []
    ann_id = ann.get("/api/session").json()["user_id"]
    assert bob.get("/api/matches", params={"user": ann_id}).json()["matches"] == []
    # A caller with no session is nobody: the computers' seats (no user) are not theirs.
    anyone = new_client(None)
    assert anyone.get("/api/matches").json()["matches"] == []
    match_id = mine[0]["id"]
    for path in ("", "/review", "/record.json", "/transcript.txt"):
        assert ann.get(f"/api/matches/{match_id}{path}").status_code == 200, path
        for other in (bob, anyone):
            refused = other.get(f"/api/matches/{match_id}{path}")
            assert (refused.status_code, refused.json()["code"]) == (404, "match_not_found")


def test_started_room_helper_seats_everyone(new_client: NewClient) -> None:
    room = started_room(new_client("Ann"), [new_client("Bob")])
    assert room["status"] == "playing"
    assert [s["name"] for s in room["seats"]] == ["Ann", "Bob"]
