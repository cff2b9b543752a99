"""The WebSocket endpoint: views per connection, every error code, and that a refused
message changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.app.helpers import NewClient, make_app, next_of, running, started_room, state_at


def events_of(client: TestClient, room: dict[str, Any]) -> int:
    return int(client.get(f"/api/rooms/{room['id']}").json()["version"])


def test_unknown_room_is_an_error_then_a_close(new_client: NewClient) -> None:
    with new_client("Ann").websocket_connect("/ws/rooms/nope") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "room_not_found"


def test_players_get_their_own_view_and_spectators_no_hand(new_client: NewClient) -> None:
    ann, bob, eve = new_client("Ann"), new_client("Bob"), new_client("Eve")
    room = started_room(ann, [bob])
    rid = room["id"]
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}") as wa,
        bob.websocket_connect(f"/ws/rooms/{rid}") as wb,
        eve.websocket_connect(f"/ws/rooms/{rid}") as we,
        new_client(None).websocket_connect(f"/ws/rooms/{rid}") as anonymous,
    ):
        sa, sb, se, sn = (next_of(w, "state") for w in (wa, wb, we, anonymous))
        assert sa["seat"] == 0 and sb["seat"] == 1 and se["seat"] is None and sn["seat"] is None
        assert len(sa["view"]["hand"]) == 5 and len(sb["view"]["hand"]) == 5
        assert not set(sa["view"]["hand"]) & set(sb["view"]["hand"])
        assert se["view"]["hand"] == [] and se["view"]["legal_actions"] == []
        assert not set(sa["view"]["hand"]) & set(json.dumps(se["view"]).split('"'))
        # A spectator may not act.
        we.send_json({"type": "act", "version": 0, "action": {"type": "pass"}})
        assert next_of(we, "error")["code"] == "not_seated"


def test_every_refusal_has_its_code_and_changes_nothing(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = started_room(ann, [bob])
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as wa,
        bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb,
    ):
        sa, sb = next_of(wa, "state"), next_of(wb, "state")
        mover, waiter = (wa, wb) if sa["view"]["to_act"] == [0] else (wb, wa)
        mover_state = sa if mover is wa else sb
        waiter_state = sb if mover is wa else sa
        legal = mover_state["view"]["legal_actions"][0]
        wrong_card = next(c for c in waiter_state["view"]["hand"])
        cases: list[tuple[WebSocketTestSession, Any, str]] = [
            (waiter, {"type": "act", "version": 0, "action": legal}, "not_your_turn"),
            (mover, {"type": "act", "version": 5, "action": legal}, "stale_version"),
            (
                mover,
                {"type": "act", "version": 0, "action": {"type": "play", "card": wrong_card}},
                "illegal_action",
            ),
            (mover, {"type": "act", "version": 0, "action": {"type": "fly"}}, "illegal_action"),
            (mover, "not json", "bad_message"),
            (mover, {"type": "dance"}, "bad_message"),
            (mover, {"type": "act", "version": "0", "action": legal}, "bad_message"),
            (mover, {"type": "act", "version": 0}, "bad_message"),
            (mover, {"type": "act", "version": 0, "action": legal, "extra": 1}, "bad_message"),
            (mover, [1, 2], "bad_message"),
            (
                mover,
                {"type": "act", "version": 0, "action": {"type": "x", "pad": "y" * 20000}},
                "message_too_large",
            ),
        ]
        for ws, payload, code in cases:
            if isinstance(payload, str):
                ws.send_text(payload)
            else:
                ws.send_text(json.dumps(payload))
            error = next_of(ws, "error")
            assert error["code"] == code, (payload, error)
            assert error["message"]
        mover.send_bytes(b"\x00\x01")
        assert next_of(mover, "error")["code"] == "bad_message"
        assert events_of(ann, room) == 0
        # And the legal action still applies at version 0.
        mover.send_json({"type": "act", "version": 0, "action": legal})
        assert state_at(mover, 1)["version"] == 1
        assert events_of(ann, room) == 1
        mover.send_json({"type": "ping"})
        assert next_of(mover, "pong") == {"type": "pong"}


def test_acting_before_the_start_and_after_the_end(new_client: NewClient) -> None:
    ann = new_client("Ann")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    with ann.websocket_connect(f"/ws/rooms/{rid}") as ws:
        room_message = next_of(ws, "room")
        assert room_message["room"]["status"] == "waiting"
        ws.send_json({"type": "act", "version": 0, "action": {"type": "pass"}})
        assert next_of(ws, "error")["code"] == "match_not_started"
    ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1})
    ann.post(f"/api/rooms/{rid}/start")
    with ann.websocket_connect(f"/ws/rooms/{rid}") as ws:
        while True:
            message = next_of(ws, "state")
            view = message["view"]
            if view["over"]:
                break
            if view["legal_actions"]:
                ws.send_json(
                    {
                        "type": "act",
                        "version": message["version"],
                        "action": view["legal_actions"][0],
                    }
                )
        ws.send_json({"type": "act", "version": message["version"], "action": {"type": "pass"}})
        assert next_of(ws, "error")["code"] == "match_over"


def test_a_flood_is_rate_limited_then_closed(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path, rate_per_second=1.0, rate_burst=3, max_rate_violations=5)
    with running(app) as new_client:
        ann = new_client("Ann")
        rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
        with ann.websocket_connect(f"/ws/rooms/{rid}") as ws:
            for _ in range(3):
                ws.send_json({"type": "ping"})
            assert [next_of(ws, "pong") for _ in range(3)]
            ws.send_json({"type": "ping"})
            assert next_of(ws, "error")["code"] == "rate_limited"
            for _ in range(10):
                ws.send_json({"type": "ping"})
            codes = []
            with pytest.raises(Exception):  # noqa: B017 - the server closes the socket
                while True:
                    codes.append(ws.receive_json().get("code"))
            assert set(codes) <= {"rate_limited", None}


def test_a_double_submit_applies_once(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = started_room(ann, [bob])
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as wa,
        bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb,
    ):
        states = {0: next_of(wa, "state"), 1: next_of(wb, "state")}
        seat = states[0]["view"]["to_act"][0]
        ws = wa if seat == 0 else wb
        act = {"type": "act", "version": 0, "action": states[seat]["view"]["legal_actions"][0]}
        ws.send_json(act)
        ws.send_json(act)
        ws.send_json({"type": "ping"})  # a barrier: replies come in order
        # The second is the move the log holds: answered as the first was, not refused.
        while (message := ws.receive_json())["type"] != "pong":
            assert message["type"] != "error", message
        assert events_of(ann, room) == 1


def test_two_tabs_of_one_seat_racing_apply_exactly_once(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = started_room(ann, [bob])
    probe = ann.get(f"/api/rooms/{room['id']}").json()
    assert probe["status"] == "playing"
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as tab1,
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as tab2,
        bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb,
    ):
        s1, sb = next_of(tab1, "state"), next_of(wb, "state")
        next_of(tab2, "state")
        if s1["view"]["to_act"] != [0]:
            # Let Bob lead so that it is Ann's turn.
            wb.send_json({"type": "act", "version": 0, "action": sb["view"]["legal_actions"][0]})
            s1 = state_at(tab1, 1)
            state_at(tab2, 1)
        version = s1["version"]
        first, second = s1["view"]["legal_actions"][:2]
        tab1.send_json({"type": "act", "version": version, "action": first})
        tab2.send_json({"type": "act", "version": version, "action": second})
        codes = []
        for tab in (tab1, tab2):
            tab.send_json({"type": "ping"})  # a barrier: replies come in order
            while (message := tab.receive_json())["type"] != "pong":
                if message["type"] == "error":
                    codes.append(message["code"])
        assert codes == ["stale_version"]
        assert events_of(ann, room) == version + 1


def test_a_watcher_who_takes_a_seat_starts_seeing_that_seat(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
        assert next_of(wb, "room")["room"]["seats"][1]["name"] is None
        bob.post(f"/api/rooms/{rid}/join")
        ann.post(f"/api/rooms/{rid}/start")
        state = next_of(wb, "state")
        assert state["seat"] == 1 and len(state["view"]["hand"]) == 5
