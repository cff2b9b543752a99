"""Turn clocks: chosen at creation, counted per seat (turn time, then the bank), carried in
every state message with the server's time; a seat out of time is played by the computer,
and after two such moves in a row a computer takes the seat; a restart resumes the clocks
without charging the time the server was down. Time is moved by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import games
from app.refusal import Refusal
from app.rooms.turn_clocks import TurnClocks, after_move, clock_setting, restarted, started
from tests.app.helpers import Timed, eventually, next_of, room_of, state_at, timed_app
from tests.app.manual_clock import ManualClock
from tests.app.test_api import error_of

SETTING = {"turn": 30, "bank": 60}

# --- the arithmetic ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        {"turn": 4, "bank": 0},
        {"turn": 601, "bank": 0},
        {"turn": 5, "bank": -1},
        {"turn": 5, "bank": 3601},
        {"turn": True, "bank": 0},
    ],
)
def test_clock_limits(raw: dict[str, Any]) -> None:
    with pytest.raises(Refusal) as refused:
        clock_setting(raw)
    assert refused.value.code == "bad_clock" and refused.value.status == 422
    assert clock_setting({"turn": 5, "bank": 0}) == {"turn": 5, "bank": 0}
    assert clock_setting({"turn": 600, "bank": 3600}) == {"turn": 600, "bank": 3600}
    assert clock_setting(None) is None


def test_a_move_charges_the_bank_only_for_time_past_the_turn() -> None:
    clocks = started(SETTING, 2, [0], now=100.0)
    assert clocks == TurnClocks((60.0, 60.0), (130.0, None), (0, 0))
    in_time = after_move(SETTING, clocks, seat=0, awaited=[1], now=125.0, played_by="person")
    assert in_time == TurnClocks((60.0, 60.0), (None, 155.0), (0, 0))
    late = after_move(SETTING, in_time, seat=1, awaited=[0], now=170.0, played_by="person")
    assert late == TurnClocks((60.0, 45.0), (200.0, None), (0, 0))
    out = after_move(SETTING, late, seat=0, awaited=[1], now=260.0, played_by="clock")
    assert out.banks == (0.0, 45.0) and out.timeouts == (1, 0)
    assert out.final(1) == 260.0 + 30 + 45 and out.final(0) is None
    # A computer's move leaves the count as it is; the person's own move ends the run.
    computer = after_move(SETTING, out, seat=0, awaited=[1], now=270.0, played_by="computer")
    assert computer.timeouts == (1, 0)
    person = after_move(SETTING, out, seat=0, awaited=[1], now=270.0, played_by="person")
    assert person.timeouts == (0, 0)


def test_seats_awaited_together_keep_their_deadlines_until_each_moves() -> None:
    clocks = started(SETTING, 3, [1, 2], now=0.0)
    one_gave = after_move(SETTING, clocks, seat=1, awaited=[2], now=10.0, played_by="person")
    assert one_gave.deadlines == (None, None, 30.0)
    # A seat awaited again right after its own move starts a new turn.
    again = after_move(SETTING, one_gave, seat=2, awaited=[2], now=12.0, played_by="person")
    assert again.deadlines == (None, None, 42.0)


def test_taking_charge_again_restarts_awaited_turns_and_keeps_banks() -> None:
    clocks = TurnClocks((12.5, 60.0), (1000.0, None), (1, 0))
    assert restarted(SETTING, clocks, now=5000.0) == TurnClocks(
        (12.5, 60.0), (5030.0, None), (1, 0)
    )


# --- over the API ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clock", "status", "code"),
    [
        ({"turn": 4, "bank": 0}, 422, "bad_clock"),
        ({"turn": 30, "bank": 9000}, 422, "bad_clock"),
        ({"turn": "soon", "bank": 0}, 422, "bad_request"),
        ({"turn": 30}, 422, "bad_request"),
        ({"turn": 30, "bank": 0, "increment": 2}, 422, "bad_request"),
    ],
)
def test_bad_clocks_are_refused(
    timed: Timed, clock: dict[str, Any], status: int, code: str
) -> None:
    ann = timed.client("Ann")
    error_of(ann.post("/api/rooms", json={"game": "cupid", "clock": clock}), status, code)
    assert ann.get("/api/rooms").json() == []


def user_id(client: TestClient) -> str:
    return str(client.get("/api/session").json()["user_id"])


def clocked_room(
    timed: Timed,
    clock: dict[str, int],
    *,
    game: str = "cupid",
    names: tuple[str, ...] = ("Ann", "Bob"),
    options: dict[str, Any] | None = None,
) -> tuple[str, list[TestClient]]:
    """A started room with a clock; the first name hosts."""
    people = [timed.client(name) for name in names]
    body = {"game": game, "seats": len(names), "options": options or {}, "clock": clock}
    room = people[0].post("/api/rooms", json=body).json()
    assert room["clock"] == clock
    for person in people[1:]:
        assert person.post(f"/api/rooms/{room['id']}/join").status_code == 200
    started_room = people[0].post(f"/api/rooms/{room['id']}/start")
    assert started_room.status_code == 200, started_room.text
    return room["id"], people


def test_state_messages_carry_the_clocks_and_the_servers_time(timed: Timed) -> None:
    start = timed.iso()
    rid, (ann, _bob) = clocked_room(timed, SETTING, options={"dealer": 0})
    with ann.websocket_connect(f"/ws/rooms/{rid}") as wa:
        room = next_of(wa, "room")
        assert room["now"] == start and room["room"]["clock"] == SETTING
        state = next_of(wa, "state")
        assert state["now"] == start
        assert state["clocks"] == [
            {"bank": 60, "deadline": timed.iso(30), "timeouts": 0},
            {"bank": 60, "deadline": None, "timeouts": 0},
        ]
        timed.advance(40)
        wa.send_json({"type": "act", "version": 0, "action": state["view"]["legal_actions"][0]})
        moved = state_at(wa, 1)
        assert moved["now"] == timed.iso()
        # Ann took 10 s of her bank; now Bob's turn runs.
        assert moved["clocks"] == [
            {"bank": 50, "deadline": None, "timeouts": 0},
            {"bank": 60, "deadline": timed.iso(30), "timeouts": 0},
        ]
    # A room without a clock says so.
    other = ann.post("/api/rooms", json={"game": "cupid"}).json()
    assert other["clock"] is None


def wait_for_state(ws: WebSocketTestSession, wanted: Any) -> dict[str, Any]:
    while True:
        message = next_of(ws, "state")
        if wanted(message):
            return message


def test_out_of_time_the_clock_moves_saying_so_and_after_two_a_computer_sits(timed: Timed) -> None:
    rid, (ann, bob) = clocked_room(timed, {"turn": 5, "bank": 0}, options={"dealer": 1})
    bob_id = user_id(bob)
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}") as wa,
        bob.websocket_connect(f"/ws/rooms/{rid}") as wb,
    ):
        state = next_of(wa, "state")
        assert state["view"]["to_act"] == [1]
        timed.advance(4.9)
        # Bob is connected but idle: at 5 s the clock plays his move.
        timed.advance(0.1)
        state = state_at(wa, 1)
        assert state["event"]["seat"] == 1 and state["clocks"][1]["timeouts"] == 1
        # Everyone is told the clock played it, for Bob.
        assert (state["event"]["name"], state["event"]["played_by"]) == ("Bob", "clock")
        # Played at 5 s, not before: Ann's turn starts then.
        assert state["clocks"][0]["deadline"] == timed.iso(5)
        timeouts = 1
        while timeouts < 2:
            if state["view"]["to_act"] == [0]:
                action = state["view"]["legal_actions"][0]
                wa.send_json({"type": "act", "version": state["version"], "action": action})
            else:
                timed.advance(5)
                timeouts += 1
            state = state_at(wa, state["version"] + 1)
        taken = eventually(
            lambda: room_of(ann, rid)["seats"][1]["bot"], "a computer to take Bob's seat"
        )
        assert taken == "heuristic"
        seat = room_of(ann, rid)["seats"][1]
        assert seat["stand_in_for"] == {"user_id": bob_id, "name": "Bob"}
        # Bob's connection now watches; he takes the seat back and plays.
        wait_for_state(wb, lambda m: m["seat"] is None)
        assert bob.post(f"/api/rooms/{rid}/reclaim").status_code == 200
        mine = wait_for_state(wb, lambda m: m["seat"] == 1)
        assert mine["clocks"][1]["timeouts"] == 0
    record_id = room_of(ann, rid)["match_id"]
    assert record_id


def test_a_move_in_time_resets_the_count_of_timeouts(timed: Timed) -> None:
    rid, (ann, bob) = clocked_room(timed, {"turn": 5, "bank": 0}, options={"dealer": 1})
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}") as wa,
        bob.websocket_connect(f"/ws/rooms/{rid}") as wb,
    ):
        next_of(wa, "state")
        timed.advance(5)  # Bob's first lead: played by the clock
        state = state_at(wa, 1)
        bob_turns = 0
        while bob_turns < 2:
            mover = state["view"]["to_act"][0]
            if mover == 0:
                action = state["view"]["legal_actions"][0]
                wa.send_json({"type": "act", "version": state["version"], "action": action})
            elif bob_turns == 0:
                mine = state_at(wb, state["version"])
                action = mine["view"]["legal_actions"][0]
                wb.send_json({"type": "act", "version": state["version"], "action": action})
                bob_turns += 1
            else:
                timed.advance(5)
                bob_turns += 1
            state = state_at(wa, state["version"] + 1)
            if state["view"]["over"]:
                break
        # One timeout, a move of his own, one timeout: never two in a row.
        assert state["clocks"][1]["timeouts"] <= 1
        assert room_of(ann, rid)["seats"][1]["user_id"] == user_id(bob)


def test_a_gift_step_runs_every_awaited_seats_clock(
    timed: Timed, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seed 9 deals Cups so that the third move is an Ace: the others give at once.
    monkeypatch.setattr("app.rooms.lobby.secrets.randbits", lambda bits: 9)
    rules = games.get("cups")
    rid, people = clocked_room(
        timed, {"turn": 10, "bank": 0}, game="cups", names=("Ann", "Bob", "Cat")
    )
    sockets = [p.websocket_connect(f"/ws/rooms/{rid}") for p in people]
    try:
        sockets = [s.__enter__() for s in sockets]
        version = 0
        state = rules.new_game(3, 9, None, None)
        while len(rules.to_act(state)) == 1:
            seat = rules.to_act(state)[0]
            action = rules.legal_actions(state, seat)[0]
            timed.advance(1)
            sockets[seat].send_json({"type": "act", "version": version, "action": action})
            state = rules.apply(state, seat, action)
            version += 1
            gift = state_at(sockets[0], version)  # the move is in before time moves on
        givers = rules.to_act(state)
        assert len(givers) == 2
        for seat in givers:
            assert gift["clocks"][seat]["deadline"] == timed.iso(10)
        first, second = givers
        timed.advance(4)
        action = rules.legal_actions(state, first)[0]
        sockets[first].send_json({"type": "act", "version": version, "action": action})
        after = state_at(sockets[0], version + 1)
        # The other giver's clock runs on from the start of the step.
        assert after["clocks"][second]["deadline"] == timed.iso(6)
        timed.advance(5.9)
        timed.advance(0.1)
        played = state_at(sockets[0], version + 2)
        assert played["event"]["seat"] == second and played["clocks"][second]["timeouts"] == 1
        assert played["now"] == timed.iso()
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)


def test_a_restart_resumes_a_running_clock_without_charging_the_downtime(
    database_url: str, tmp_path: Path
) -> None:
    first_clock = ManualClock()
    with timed_app(database_url, tmp_path, first_clock) as first:
        rid, (ann, bob) = clocked_room(first, SETTING, options={"dealer": 1})
        cookies = [dict(ann.cookies), dict(bob.cookies)]
        with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
            lead = next_of(wb, "state")
            first.advance(50)  # 20 s past Bob's turn: his bank goes down to 40
            action = lead["view"]["legal_actions"][0]
            wb.send_json({"type": "act", "version": 0, "action": action})
            moved = state_at(wb, 1)
        assert moved["clocks"][1]["bank"] == 40
        first.advance(10)  # Ann's turn runs for 10 s, then the server stops
    # The server is down for 1000 s.
    second_clock = ManualClock(first_clock.now() + 1000)
    with timed_app(database_url, tmp_path, second_clock) as second:
        ann, bob = second.client(), second.client()
        ann.cookies.update(cookies[0])
        bob.cookies.update(cookies[1])
        with ann.websocket_connect(f"/ws/rooms/{rid}") as wa:
            resumed = wait_for_state(wa, lambda m: m["clocks"][0]["deadline"] == second.iso(30))
            assert resumed["version"] == 1
            # Neither the downtime nor the 10 s before the restart are charged: Ann has a
            # whole turn and her bank; Bob's bank is as the log left it.
            assert resumed["clocks"] == [
                {"bank": 60, "deadline": second.iso(30), "timeouts": 0},
                {"bank": 40, "deadline": None, "timeouts": 0},
            ]
            second.advance(89)
            second.advance(1)
            timed_out = state_at(wa, 2)
            assert timed_out["event"]["seat"] == 0 and timed_out["clocks"][0]["timeouts"] == 1
            # Played when turn and bank ran out (90 s after the restart), not earlier: the
            # next turn starts then.
            (awaited,) = timed_out["view"]["to_act"]
            assert timed_out["clocks"][awaited]["deadline"] == second.iso(30)
        match_id = room_of(ann, rid)["match_id"]
    assert match_id
