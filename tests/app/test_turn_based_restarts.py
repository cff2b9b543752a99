"""A turn-based match of every game is played to the end over the API with the server
restarted in between, and its deadlines come back from the database as they were: a
restart neither gives anyone more time nor charges the time the server was down."""

from __future__ import annotations

from pathlib import Path

import pytest

import games
from tests.app.helpers import room_of, timed_app
from tests.app.manual_clock import ManualClock
from tests.app.turn_based import days, play_moves, restarted, turn_based_room

SEATS = {"cupid": 2, "coins": 3, "cups": 2, "usurp": 2, "wifeswap": 3}
NAMES = ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_turn_based_match_is_played_to_the_end_across_restarts(
    database_url: str, tmp_path: Path, game: str
) -> None:
    clock = ManualClock()
    options = dict(games.game(game).short_match)
    with timed_app(database_url, tmp_path, clock) as first:
        room_id, people = turn_based_room(
            first, NAMES[: SEATS[game]], game=game, days=1, options=options
        )
        play_moves(people, room_id, 10)
        played = room_of(people[0], room_id)["version"]
    assert played > 0
    clock.advance(days(0.5))  # half a day with no server: nobody runs out of time
    with restarted(database_url, tmp_path, people, clock) as (_, people):
        # The match is where the log left it, and goes on.
        assert room_of(people[0], room_id)["version"] == played
        play_moves(people, room_id, 8)
        played = room_of(people[0], room_id)["version"]
    with restarted(database_url, tmp_path, people, clock) as (_, people):
        assert room_of(people[0], room_id)["version"] == played
        last = play_moves(people, room_id, 5000)
        room = room_of(people[0], room_id)
        record = people[0].get(f"/api/matches/{room['match_id']}").json()
    assert last["view"]["over"] and room["status"] == "finished"
    assert room["pace"] == "turn_based" and room["days_per_move"] == 1
    assert all(seat["deadline"] is None for seat in room["seats"])
    assert record["status"] == "finished" and len(record["events"]) == room["version"]


def test_deadlines_are_kept_across_a_restart_as_they_were(
    database_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    with timed_app(database_url, tmp_path, clock) as first:
        room_id, people = turn_based_room(first, ["Ann", "Bob"], days=2, options={"dealer": 0})
        room = room_of(people[0], room_id)
        # The dealer leads: Ann's move, due two days from the start.
        assert [seat["deadline"] for seat in room["seats"]] == [first.iso(days(2)), None]
        first.advance(days(1))
        play_moves(people, room_id, 1)
        moved = room_of(people[0], room_id)
        deadlines = [seat["deadline"] for seat in moved["seats"]]
        assert deadlines == [None, first.iso(days(2))]
    clock.advance(days(1.5))  # the server is down for a day and a half
    with restarted(database_url, tmp_path, people, clock) as (second, people):
        again = room_of(people[0], room_id)
        # Bob's deadline is the one set when Ann moved: half a day from now.
        assert [seat["deadline"] for seat in again["seats"]] == deadlines
        assert deadlines[1] == second.iso(days(0.5))
        with people[1].websocket_connect(f"/ws/rooms/{room_id}") as ws:
            # The state message's clocks say the same.
            message = ws.receive_json()
            while message["type"] != "state":
                message = ws.receive_json()
            assert message["clocks"][1]["deadline"] == deadlines[1]
            # Days go by with nobody moving: the server plays no move for anyone.
            second.advance(days(5))
            assert room_of(people[0], room_id)["version"] == 1
