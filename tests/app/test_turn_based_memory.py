"""A turn-based table is held in memory only while someone is connected to it or a
computer is to move; otherwise it is let go and loaded from the database (its log
replayed) when someone comes or acts. The sweep finds deadlines in the database, sends each
awaited move's "deadline near" reminder once, and lets go of dormant tables; the rooms
signal each newly awaited person's turn and each end."""

from __future__ import annotations

from pathlib import Path

from app.rooms import Rooms
from app.rooms.signals import DeadlineNear, TurnAwaits
from tests.app.helpers import Timed, eventually, next_of, room_of, timed_app
from tests.app.manual_clock import ManualClock
from tests.app.turn_based import (
    RecordingSignals,
    days,
    play_moves,
    restarted,
    turn_based_room,
    user_id,
)


def rooms_of(timed: Timed) -> Rooms:
    rooms: Rooms = timed.app.state.rooms
    return rooms


def held(timed: Timed, room_id: str) -> bool:
    return rooms_of(timed).registry.held(room_id) is not None


def sweep(timed: Timed) -> int:
    assert timed.main.portal is not None
    return int(timed.main.portal.call(rooms_of(timed).sweep.once))


def let_the_server_sweep(timed: Timed, seconds: float) -> None:
    """Advance the clock by ``seconds`` once the server's own sweep waits for its next
    round: a round still under way would set its next one only after the advance."""
    portal = timed.main.portal
    assert portal is not None
    eventually(
        lambda: portal.call(lambda: rooms_of(timed).sweep.waiting), "the server's sweep waiting"
    )
    timed.advance(seconds)


def test_a_table_nobody_is_at_is_let_go_and_loaded_when_acted_on(
    database_url: str, tmp_path: Path
) -> None:
    with timed_app(database_url, tmp_path) as timed:
        room_id, (ann, bob) = turn_based_room(timed, ["Ann", "Bob"], options={"dealer": 0})
        assert held(timed, room_id)  # opened and started here
        sweep(timed)
        assert not held(timed, room_id)
        # Connecting loads it (its log replayed); the last to leave lets it go at once.
        play_moves([ann, bob], room_id, 2)
        assert not held(timed, room_id)
        with bob.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            state = next_of(ws, "state")
            assert state["version"] == 2 and held(timed, room_id)
            play_moves([ann, bob], room_id, 1)
            assert held(timed, room_id)  # Bob is still here
        assert not held(timed, room_id)
        # A look over HTTP loads it; the sweep lets it go again.
        assert room_of(ann, room_id)["version"] == 3
        assert held(timed, room_id)
        sweep(timed)
        assert not held(timed, room_id)


def test_a_restart_loads_only_the_turn_based_tables_where_a_computer_is_to_move(
    database_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    # Computers take an hour to move here, so that one is still to move at the restart.
    slow = {"bot_delay": 3600.0}
    with timed_app(database_url, tmp_path, clock, **slow) as first:
        people_id, people = turn_based_room(first, ["Ann", "Bob"], options={"dealer": 0})
        computer_id, (cy,) = turn_based_room(
            first, ["Cy"], start=False, seats=2, options={"dealer": 1}
        )
        assert cy.post(f"/api/rooms/{computer_id}/bots", json={"seat": 1}).status_code == 200
        assert cy.post(f"/api/rooms/{computer_id}/start").status_code == 200
        awaited = room_of(cy, computer_id)
        assert awaited["seats"][1]["bot"] and awaited["seats"][0]["deadline"] is None
    with restarted(database_url, tmp_path, [*people, cy], clock, **slow) as (second, again):
        cy = again[2]
        assert not held(second, people_id)
        assert held(second, computer_id)
        sweep(second)
        assert held(second, computer_id)  # the computer is still to move
        second.advance(3600)
        eventually(lambda: room_of(cy, computer_id)["version"] == 1, "the computer's move")
        sweep(second)
        assert not held(second, computer_id)  # Cy's move now, and Cy is not here


def test_the_deadline_near_reminder_goes_once_per_awaited_move(
    database_url: str, tmp_path: Path
) -> None:
    clock, signals = ManualClock(), RecordingSignals()
    # The test sweeps by hand here; after the restart the server's own sweeps run.
    with timed_app(database_url, tmp_path, clock, signals, turn_sweep_seconds=0) as timed:
        room_id, (ann, bob) = turn_based_room(timed, ["Ann", "Bob"], days=1, options={"dealer": 0})
        timed.advance(days(1) - 5 * 3600)
        assert sweep(timed) == 0  # five hours left: not yet
        timed.advance(2 * 3600)
        assert sweep(timed) == 1  # three hours left: reminded
        (near,) = signals.of(DeadlineNear)
        assert (near.user_id, near.room_id, near.game) == (user_id(ann), room_id, "cupid")
        assert near.deadline.isoformat().replace("+00:00", "Z") == timed.iso(3 * 3600)
        assert sweep(timed) == 0
    with restarted(database_url, tmp_path, [ann, bob], clock, signals) as (again, (ann, bob)):
        let_the_server_sweep(again, 120)  # the reminder was stored as sent
        assert sweep(again) == 0 and len(signals.of(DeadlineNear)) == 1
        play_moves([ann, bob], room_id, 1)  # Ann moves: Bob has a day
        let_the_server_sweep(again, days(1) - 3600)
        eventually(lambda: len(signals.of(DeadlineNear)) == 2, "Bob's reminder")
        assert [s.user_id for s in signals.of(DeadlineNear)] == [user_id(ann), user_id(bob)]
        again.advance(2 * 3600)
        assert sweep(again) == 0  # past the deadline: nothing more to remind of
        assert len(signals.of(DeadlineNear)) == 2


def test_each_newly_awaited_person_is_signalled_their_turn(
    database_url: str, tmp_path: Path
) -> None:
    signals = RecordingSignals()
    with timed_app(database_url, tmp_path, signals=signals) as timed:
        room_id, (ann, bob) = turn_based_room(timed, ["Ann", "Bob"], days=2, options={"dealer": 0})
        (first,) = signals.of(TurnAwaits)
        assert (first.user_id, first.room_id, first.game) == (user_id(ann), room_id, "cupid")
        assert first.deadline is not None
        assert first.deadline.isoformat().replace("+00:00", "Z") == timed.iso(days(2))
        sweep(timed)  # let go: the next move loads it from the database
        play_moves([ann, bob], room_id, 1)
        turns = signals.of(TurnAwaits)
        assert [t.user_id for t in turns] == [user_id(ann), user_id(bob)]
        # A live table signals nothing.
        live = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
        assert bob.post(f"/api/rooms/{live}/join", json={}).status_code == 200
        assert ann.post(f"/api/rooms/{live}/start").status_code == 200
        assert len(signals.of(TurnAwaits)) == 2


def test_a_table_is_not_let_go_while_a_request_uses_it(database_url: str, tmp_path: Path) -> None:
    """A verb or a request that took a room keeps it in memory until it is done: the room
    it changes and describes is the one the process holds (a copy let go meanwhile would
    follow its owner no more, and its answer would be stale)."""
    with timed_app(database_url, tmp_path) as timed:
        room_id, _ = turn_based_room(timed, ["Ann", "Bob"], options={"dealer": 0})
        rooms = rooms_of(timed)

        async def let_go_while_used() -> tuple[bool, bool]:
            async with rooms.using(room_id) as room:
                rooms.registry.release_if_idle(room)  # nobody is at the table
                kept = rooms.registry.held(room_id) is room
            rooms.registry.release_if_idle(room)
            return kept, rooms.registry.held(room_id) is None

        assert timed.main.portal is not None
        assert timed.main.portal.call(let_go_while_used) == (True, True)
