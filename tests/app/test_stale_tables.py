"""Tables nobody sits at any more: a waiting room with no seat's person connected for the
stale time closes; a match with nobody at it is abandoned, kept in history with its log;
and the open-tables list shows only rooms with a person at them, by game. Time is moved by
hand."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.helpers import Timed, eventually, next_of, room_of, started_room, state_at
from tests.app.test_api import error_of

STALE = 1800  # the default stale time, 30 minutes


def status_becomes(client: TestClient, room_id: str, status: str) -> None:
    eventually(lambda: room_of(client, room_id)["status"] == status, f"the room to be {status}")


def test_a_waiting_room_nobody_sits_at_closes_after_the_stale_time(timed: Timed) -> None:
    ann, bob = timed.client("Ann"), timed.client("Bob")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    # Ann opened it over HTTP and never came: it is vacant from the start.
    timed.advance(STALE - 1)
    assert room_of(ann, rid)["status"] == "waiting"
    registry = timed.app.state.rooms.registry
    timed.advance(1)
    # Closed, the room leaves memory; asked for again, it loads closed from the database.
    eventually(lambda: registry.held(rid) is None, "the closed room to be let go")
    assert room_of(ann, rid)["status"] == "closed"
    assert room_of(ann, rid)["closed_by"] is None  # the page says nobody was at it
    error_of(bob.post(f"/api/rooms/{rid}/join"), 409, "room_closed")
    error_of(ann.post(f"/api/rooms/{rid}/start"), 409, "room_closed")
    error_of(ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}), 409, "room_closed")
    with bob.websocket_connect(f"/ws/rooms/{rid}") as ws:
        assert next_of(ws, "room")["room"]["status"] == "closed"
        ws.send_json({"type": "act", "version": 0, "action": {"type": "pass"}})
        assert next_of(ws, "error")["code"] == "room_closed"


def test_a_waiting_room_stays_open_while_a_seated_person_is_here(timed: Timed) -> None:
    ann = timed.client("Ann")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    with ann.websocket_connect(f"/ws/rooms/{rid}") as ws:
        next_of(ws, "room")
        timed.advance(2 * STALE)
        assert room_of(ann, rid)["status"] == "waiting"
    # Ann leaves: the stale time counts from then.
    eventually(lambda: room_of(ann, rid)["seats"][0]["away_since"], "Ann to be away")
    timed.advance(STALE - 1)
    assert room_of(ann, rid)["status"] == "waiting"
    timed.advance(1)
    status_becomes(ann, rid, "closed")


def test_a_match_nobody_stays_at_is_abandoned_and_kept_with_its_log(timed: Timed) -> None:
    ann, bob = timed.client("Ann"), timed.client("Bob")
    rid = started_room(ann, [bob])["id"]
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}") as wa,
        bob.websocket_connect(f"/ws/rooms/{rid}") as wb,
    ):
        for version in range(2):
            states = [state_at(wa, version), state_at(wb, version)]
            mover = states[0]["view"]["to_act"][0]
            action = states[mover]["view"]["legal_actions"][0]
            (wa, wb)[mover].send_json({"type": "act", "version": version, "action": action})
        state_at(wa, 2)
        timed.advance(STALE)
        assert room_of(ann, rid)["status"] == "playing"
    eventually(lambda: all(s["away_since"] for s in room_of(ann, rid)["seats"]), "both away")
    timed.advance(STALE)
    status_becomes(ann, rid, "abandoned")
    room = room_of(ann, rid)
    record = ann.get(f"/api/matches/{room['match_id']}").json()
    assert record["status"] == "abandoned" and record["winners"] == []
    assert len(record["events"]) == 2 and record["seed"]
    assert len(record["scores"]) == 2
    listed = ann.get("/api/matches", params={"user": "me"}).json()["matches"]
    assert [(m["id"], m["status"]) for m in listed] == [(room["match_id"], "abandoned")]
    review = ann.get(f"/api/matches/{room['match_id']}/review").json()
    assert len(review["frames"]) == 3
    with ann.websocket_connect(f"/ws/rooms/{rid}") as ws:
        state = next_of(ws, "state")
        assert all(clock["deadline"] is None for clock in state["clocks"] or [])
        ws.send_json({"type": "act", "version": 2, "action": {"type": "pass"}})
        assert next_of(ws, "error")["code"] == "match_over"


def test_open_tables_are_those_with_a_person_here_by_game(timed: Timed) -> None:
    ann, bob, cat, eve = (timed.client(n) for n in ("Ann", "Bob", "Cat", "Eve"))
    cupid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    coins = bob.post("/api/rooms", json={"game": "coins", "seats": 3}).json()["id"]
    empty = cat.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    playing = cat.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    assert cat.post(f"/api/rooms/{playing}/bots", json={"seat": 1}).status_code == 200
    assert cat.post(f"/api/rooms/{playing}/start").status_code == 200
    with (
        ann.websocket_connect(f"/ws/rooms/{cupid}"),
        bob.websocket_connect(f"/ws/rooms/{coins}"),
        # Someone watching a table nobody sits at does not make it open.
        eve.websocket_connect(f"/ws/rooms/{empty}"),
    ):
        listed = [r["id"] for r in eve.get("/api/rooms").json()]
        assert listed == [coins, cupid]
        assert [r["id"] for r in eve.get("/api/rooms", params={"game": "cupid"}).json()] == [cupid]
        assert eve.get("/api/rooms", params={"game": "cups"}).json() == []
        error_of(eve.get("/api/rooms", params={"game": "chess"}), 422, "unknown_game")
        with cat.websocket_connect(f"/ws/rooms/{playing}"):
            listed = [r["id"] for r in eve.get("/api/rooms").json()]
            assert listed == [playing, coins, cupid]
