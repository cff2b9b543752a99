"""People who leave and come back: since when a seat's person is away, the absence grace
before a computer may take their seat, taking it back (the computer stops at once), the
host role moving on, rematches without the stand-ins, and records that say who played
which moves. Time is moved by hand (tests/app/manual_clock.py)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from app.config import Settings
from app.refusal import Refusal
from tests.app.helpers import (
    Timed,
    eventually,
    next_of,
    room_of,
    started_room,
    state_at,
    timed_app,
)
from tests.app.test_api import error_of, play_out_seat0


def user_id(client: TestClient) -> str:
    return str(client.get("/api/session").json()["user_id"])


def room_message_until(ws: WebSocketTestSession, wanted: Any) -> dict[str, Any]:
    """The next room description for which ``wanted(room)`` holds."""
    while True:
        message = ws.receive_json()
        if message["type"] == "room" and wanted(message["room"]):
            return dict(message["room"])


def away_since(client: TestClient, room_id: str, seat: int) -> str:
    """Wait until the server has seen the seat's person go (their socket just closed)."""
    return str(
        eventually(
            lambda: room_of(client, room_id)["seats"][seat]["away_since"],
            f"seat {seat}'s person to be counted away",
        )
    )


def test_a_seat_says_since_when_its_person_is_away(timed: Timed) -> None:
    ann, bob = timed.client("Ann"), timed.client("Bob")
    created_at = timed.iso()
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    rid = room["id"]
    # Ann opened the room over HTTP and has no socket open yet: away since then.
    assert room["seats"][0]["away_since"] == created_at
    assert room["seats"][0]["connected"] is False
    assert room["absence_grace"] == 60.0
    with ann.websocket_connect(f"/ws/rooms/{rid}") as wa:
        here = room_message_until(wa, lambda r: r["seats"][0]["connected"])
        assert here["seats"][0]["away_since"] is None
        timed.advance(5)
        joined_at = timed.iso()
        assert bob.post(f"/api/rooms/{rid}/join").status_code == 200
        seat = room_message_until(wa, lambda r: r["seats"][1]["name"] == "Bob")["seats"][1]
        assert seat["away_since"] == joined_at and seat["connected"] is False
        with bob.websocket_connect(f"/ws/rooms/{rid}"):
            room_message_until(wa, lambda r: r["seats"][1]["away_since"] is None)
            timed.advance(7)
            left_at = timed.iso()
        gone = room_message_until(wa, lambda r: r["seats"][1]["away_since"] is not None)
        assert gone["seats"][1] == {**seat, "away_since": left_at}


def test_a_watcher_who_sits_down_is_here_at_once_for_everyone(timed: Timed) -> None:
    """Bob watches, then takes a seat over HTTP: every connection's first description with
    Bob seated says he is here, whichever connection is told of the change first (the hub
    tells a room's connections in no set order, so the scenario is played at several
    tables)."""
    ann, bob = timed.client("Ann"), timed.client("Bob")
    people = [ann, bob, *(timed.client(f"Watcher {n}") for n in range(8))]
    everyone = len(people)
    for _ in range(4):
        rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
        with contextlib.ExitStack() as sockets:
            ws = [sockets.enter_context(c.websocket_connect(f"/ws/rooms/{rid}")) for c in people]
            for w in ws:
                room_message_until(w, lambda r: r["watchers"] == everyone)
            assert bob.post(f"/api/rooms/{rid}/join").status_code == 200
            for w in ws:
                seated = room_message_until(w, lambda r: r["seats"][1]["name"] == "Bob")
                assert seated["seats"][1]["connected"] is True
                assert seated["seats"][1]["away_since"] is None
            assert room_of(ann, rid)["seats"][1]["connected"] is True


def test_absence_grace_and_stale_time_come_from_the_environment(monkeypatch: Any) -> None:
    assert (Settings().absence_grace, Settings().stale_after) == (60.0, 1800.0)
    monkeypatch.setenv("ABSENCE_GRACE", "5")
    monkeypatch.setenv("STALE_AFTER", "120")
    assert (Settings().absence_grace, Settings().stale_after) == (5.0, 120.0)


def test_a_computer_may_take_a_seat_only_after_the_absence_grace(timed: Timed) -> None:
    ann, bob = timed.client("Ann"), timed.client("Bob")
    rid = started_room(ann, [bob])["id"]
    with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
        next_of(wb, "state")
        assert room_of(ann, rid)["seats"][1]["connected"] is True
        # Bob is at the table: nobody may replace him.
        error_of(ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}), 409, "seat_taken")
    away_since(ann, rid, 1)
    timed.advance(59)
    message = error_of(ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}), 409, "absence_grace")
    assert "Bob" in message and "59 s" in message and "60 s" in message
    assert room_of(ann, rid)["seats"][1]["bot"] is None
    timed.advance(1)
    error_of(bob.post(f"/api/rooms/{rid}/bots", json={"seat": 0}), 403, "not_host")
    replaced = ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).json()["seats"][1]
    assert replaced["bot"] == "heuristic" and replaced["user_id"] is None
    assert replaced["name"] != "Bob" and replaced["connected"] is True
    assert replaced["stand_in_for"] == {"user_id": user_id(bob), "name": "Bob"}
    error_of(ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}), 409, "seat_taken")


def replaced_bob(timed: Timed, *, options: dict[str, Any] | None = None) -> tuple[Any, ...]:
    """Ann and Bob at a started Cupid table; Bob leaves and, after the grace, a computer
    takes his seat. Returns (ann, bob, room id)."""
    ann, bob = timed.client("Ann"), timed.client("Bob")
    rid = started_room(ann, [bob], options=options or {})["id"]
    with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
        next_of(wb, "state")
    away_since(ann, rid, 1)
    timed.advance(60)
    assert ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).status_code == 200
    return ann, bob, rid


def test_taking_a_seat_back_during_the_computers_turn_stops_the_computer(
    database_url: str, tmp_path: Path
) -> None:
    # The computer waits 30 s (on the test's clock) before each move: its turn is open.
    with timed_app(database_url, tmp_path, bot_delay=30.0) as timed:
        # Bob's seat leads the first trick, so the computer is awaited from the start.
        ann, bob, rid = replaced_bob(timed, options={"dealer": 1})
        anonymous = timed.client(None)
        error_of(ann.post(f"/api/rooms/{rid}/reclaim"), 409, "nothing_to_reclaim")
        error_of(anonymous.post(f"/api/rooms/{rid}/reclaim"), 401, "no_session")
        with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
            watching = next_of(wb, "state")
            assert watching["seat"] is None and watching["view"]["to_act"] == [1]
            # Playing while a computer holds your seat says why it is refused.
            wb.send_json({"type": "act", "version": 0, "action": {"type": "pass"}})
            assert next_of(wb, "error")["code"] == "seat_taken_over"
            wb.send_json({"type": "preview", "version": 0, "action": {"type": "pass"}})
            assert next_of(wb, "preview")["code"] == "seat_taken_over"
            taken = bob.post(f"/api/rooms/{rid}/reclaim")
            assert taken.status_code == 200, taken.text
            assert taken.json()["seat"] == 1
            seat = taken.json()["room"]["seats"][1]
            assert seat["user_id"] == user_id(bob) and seat["name"] == "Bob"
            assert seat["bot"] is None and seat["stand_in_for"] is None
            error_of(bob.post(f"/api/rooms/{rid}/reclaim"), 409, "nothing_to_reclaim")
            mine = state_at(wb, 0)
            while mine["seat"] != 1:
                mine = next_of(wb, "state")
            assert mine["version"] == 0 and mine["view"]["legal_actions"]
            # The computer's pause ends: it no longer holds the seat, so it does not move.
            timed.advance(31)
            # And a computer's move already on its way is refused too.
            rooms = timed.app.state.rooms
            live = timed.main.portal.call(rooms.get, rid)
            action = mine["view"]["legal_actions"][0]
            try:
                timed.main.portal.call(
                    lambda: rooms.referee.act(
                        live, version=0, action=action, by={"bot": "heuristic"}, seat=1
                    )
                )
            except Refusal as error:
                assert error.code == "not_your_turn"
            else:
                raise AssertionError("a computer moved for a seat taken back")
            # Bob plays his own seat at the version the computer would have played.
            wb.send_json({"type": "act", "version": 0, "action": action})
            moved = state_at(wb, 1)
            assert moved["event"]["seat"] == 1 and moved["version"] == 1


def test_reclaiming_is_refused_before_the_start(timed: Timed) -> None:
    ann = timed.client("Ann")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    error_of(ann.post(f"/api/rooms/{rid}/reclaim"), 409, "match_not_started")


def test_the_host_role_moves_on_after_the_grace_to_the_next_connected_person(
    timed: Timed,
) -> None:
    ann, bob, cat = timed.client("Ann"), timed.client("Bob"), timed.client("Cat")
    rid = ann.post("/api/rooms", json={"game": "coins", "seats": 3}).json()["id"]
    assert bob.post(f"/api/rooms/{rid}/join").status_code == 200
    assert cat.post(f"/api/rooms/{rid}/join").status_code == 200
    ann_id, cat_id = user_id(ann), user_id(cat)
    with ann.websocket_connect(f"/ws/rooms/{rid}"):
        pass
    away_since(cat, rid, 0)
    # Nobody else is connected: there is nobody to hand the role to, however long.
    timed.advance(600)
    assert room_of(cat, rid)["host_id"] == ann_id
    with cat.websocket_connect(f"/ws/rooms/{rid}") as wc:
        # Cat (seat 2) is the next seated person who is here; Bob (seat 1) is not.
        handed = room_message_until(wc, lambda r: r["host_id"] != ann_id)
        assert handed["host_id"] == cat_id
        assert cat.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).status_code == 409
        error_of(ann.post(f"/api/rooms/{rid}/start"), 403, "not_host")


def test_a_host_back_within_the_grace_stays_host(timed: Timed) -> None:
    ann, bob = timed.client("Ann"), timed.client("Bob")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    assert bob.post(f"/api/rooms/{rid}/join").status_code == 200
    ann_id = user_id(ann)
    with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
        with ann.websocket_connect(f"/ws/rooms/{rid}"):
            room_message_until(wb, lambda r: r["seats"][0]["connected"])
        away_since(bob, rid, 0)
        timed.advance(59)
        with ann.websocket_connect(f"/ws/rooms/{rid}"):
            room_message_until(wb, lambda r: r["seats"][0]["away_since"] is None)
            timed.advance(120)
            assert room_of(bob, rid)["host_id"] == ann_id
        away_since(bob, rid, 0)
        timed.advance(60)
        handed = room_message_until(wb, lambda r: r["host_id"] != ann_id)
        assert handed["host_id"] == user_id(bob)
        # The new host may start the match.
        assert bob.post(f"/api/rooms/{rid}/start").status_code == 200


def test_a_rematch_seats_the_people_not_the_computers_that_stood_in(timed: Timed) -> None:
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
    finished = room_of(ann, rid)
    assert finished["status"] == "finished"
    error_of(bob.post(f"/api/rooms/{rid}/reclaim"), 409, "match_over")
    again = ann.post(f"/api/rooms/{rid}/rematch").json()
    seats = again["seats"]
    assert seats[0]["name"] == "Ann" and seats[0]["user_id"] == user_id(ann)
    # Bob's seat is free (the computer that stood in for him is not kept); the computer
    # the host chose keeps its seat.
    assert seats[1]["name"] is None and seats[1]["bot"] is None
    assert seats[2]["bot"] == "heuristic" and seats[2]["name"] == finished["seats"][2]["name"]
    assert bob.post(f"/api/rooms/{again['id']}/join", json={"seat": 1}).status_code == 200


def test_the_record_history_and_review_say_who_played_which_moves(timed: Timed) -> None:
    ann, bob = timed.client("Ann"), timed.client("Bob")
    bob_id = user_id(bob)
    rid = started_room(ann, [bob], options={"dealer": 1})["id"]
    # Bob leads the first trick himself, then leaves; after the grace a computer plays on.
    with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
        first = next_of(wb, "state")
        wb.send_json({"type": "act", "version": 0, "action": first["view"]["legal_actions"][0]})
        state_at(wb, 1)
    away_since(ann, rid, 1)
    timed.advance(60)
    assert ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).status_code == 200
    play_out_seat0(ann, rid)
    match_id = room_of(ann, rid)["match_id"]
    record = ann.get(f"/api/matches/{match_id}").json()
    events = record["events"]
    assert events[0]["by"] == {"user_id": bob_id} and events[0]["timeout"] is False
    computer_moves = [e["seq"] for e in events if e["seat"] == 1 and e["seq"] > 1]
    assert computer_moves
    assert all(e["by"] == {"bot": "heuristic"} for e in events if e["seat"] == 1 and e["seq"] > 1)
    assert all(e["by"] == {"user_id": user_id(ann)} for e in events if e["seat"] == 0)
    ann_seat, bob_seat = record["seats"]
    assert ann_seat["credited"] is True and ann_seat["stand_ins"] == []
    assert bob_seat["user_id"] == bob_id and bob_seat["name"] == "Bob"
    assert bob_seat["stand_ins"] == [
        {"from": computer_moves[0], "to": computer_moves[-1], "bot": "heuristic"}
    ]
    assert bob_seat["credited"] is False and bob_seat["timeouts"] == 0
    history = bob.get("/api/matches", params={"user": "me"}).json()["matches"]
    assert history[0]["id"] == match_id and history[0]["seats"] == record["seats"]
    frames = ann.get(f"/api/matches/{match_id}/review").json()["frames"]
    assert frames[1]["event"]["by"] == {"user_id": bob_id}
    assert frames[computer_moves[0]]["event"]["by"] == {"bot": "heuristic"}


def test_each_move_names_who_held_the_seat_when_it_was_made(timed: Timed) -> None:
    ann, bob = timed.client("Ann"), timed.client("Bob")
    rid = started_room(ann, [bob], options={"dealer": 1})["id"]
    # Cupid: the dealer leads, so Bob (seat 1) moves first.
    with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
        state = next_of(wb, "state")
        assert state["view"]["to_act"] == [1]
        action = state["view"]["legal_actions"][0]
        wb.send_json({"type": "act", "version": 0, "action": action})
        bobs = state_at(wb, 1)["event"]
    assert (bobs["seat"], bobs["name"], bobs["played_by"]) == (1, "Bob", "person")
    away_since(ann, rid, 1)
    timed.advance(60)
    computer = ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).json()["seats"][1]["name"]
    with ann.websocket_connect(f"/ws/rooms/{rid}") as wa:
        state = next_of(wa, "state")
        while not (state["event"]["seat"] == 1 and state["version"] > 1):
            if state["view"]["to_act"] == [0]:
                action = state["view"]["legal_actions"][0]
                wa.send_json({"type": "act", "version": state["version"], "action": action})
            state = state_at(wa, state["version"] + 1)
    event = state["event"]
    assert (event["name"], event["played_by"]) == (computer, "computer")
    assert computer != "Bob"
