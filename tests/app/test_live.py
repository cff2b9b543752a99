"""Against a real uvicorn process on 127.0.0.1: whole matches, a crash, a race.

Every message each connection receives is checked against the true state (rebuilt from
the revealed seed and the log once the match is over): its view must be exactly what
``view(state, seat)`` gives, so no card it may not know ever reaches it.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from tests.app.live_clients import UNLIMITED, Factory, Seat, check_against_truth, open_room, play


@pytest.mark.parametrize(
    ("game", "names", "options"),
    [("cupid", ["Ann", "Bob"], {"target": 40}), ("coins", ["Ann", "Bob", "Cat"], {"target": 10})],
)
def test_whole_matches_over_real_sockets_leak_nothing(
    live_server_factory: Factory, game: str, names: list[str], options: dict[str, Any]
) -> None:
    server = live_server_factory(**UNLIMITED)
    room_id, seats = open_room(server, game, names, options)
    spectator = Seat(server, "Eve")
    anonymous = Seat(server, None)
    for connection in [*seats, spectator, anonymous]:
        connection.connect(room_id)
    play(seats, [spectator, anonymous], 0, random.Random(7), None)
    connections: dict[int | None, Seat] = dict(enumerate(seats))
    connections[None] = spectator
    result = check_against_truth(server, room_id, connections)
    for message in anonymous.states:
        assert message["seat"] is None and message["view"]["hand"] == []
    assert result["checked"] > 3 * len(result["record"]["events"])
    listed = seats[0].http.get("/api/matches").json()["matches"]
    assert listed[0]["id"] == result["record"]["id"]
    for connection in [*seats, spectator, anonymous]:
        connection.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_killed_server_resumes_every_acknowledged_action(
    live_server_factory: Factory, backend: str, request: pytest.FixtureRequest
) -> None:
    url = None
    if backend == "postgresql":
        url = request.getfixturevalue("postgres_url")
    server = live_server_factory(database_url=url, **UNLIMITED)
    room_id, seats = open_room(server, "cupid", ["Ann", "Bob"], {"target": 60})
    for seat in seats:
        seat.connect(room_id)
    rng = random.Random(11)
    version = play(seats, [], 0, rng, stop_after=9)
    assert version == 9
    # One more action sent, and the server killed before we hear back: it may or may not
    # have been acknowledged, but if it was committed it must be there after the restart.
    state = seats[0].states[-1]
    mover = state["view"]["to_act"][0]
    pending = rng.choice(seats[mover].states[-1]["view"]["legal_actions"])
    seats[mover].act(version, pending)
    server.kill()
    for seat in seats:
        seat.close()

    restarted = live_server_factory(database_url=server.database_url, **UNLIMITED)
    fresh = [Seat(restarted, None) for _ in seats]
    for old, new in zip(seats, fresh, strict=True):
        new.http.cookies.set("parlour_session", old.http.cookies.get("parlour_session") or "")
        new.connect(room_id)
    resumed = fresh[0].state_at(0)
    assert resumed["version"] in (version, version + 1)
    assert resumed["seat"] == 0 and fresh[1].state_at(0)["seat"] == 1
    if resumed["version"] == version + 1:
        room = fresh[0].http.get(f"/api/rooms/{room_id}").json()
        assert room["version"] == version + 1
    final = play(fresh, [], resumed["version"], rng, None)
    assert fresh[0].states[-1]["view"]["over"]
    record = (
        fresh[0]
        .http.get(f"/api/matches/{fresh[0].http.get(f'/api/rooms/{room_id}').json()['match_id']}")
        .json()
    )
    assert len(record["events"]) == final
    if resumed["version"] == version + 1:
        assert record["events"][version]["action"] == pending
    for seat in fresh:
        seat.close()


def test_the_same_action_sent_at_once_from_two_tabs_applies_once(
    live_server_factory: Factory,
) -> None:
    server = live_server_factory(**UNLIMITED)
    room_id, seats = open_room(server, "cupid", ["Ann", "Bob"], {})
    for seat in seats:
        seat.connect(room_id)
    first = seats[0].state_at(0)
    mover = first["view"]["to_act"][0]
    twin = Seat(server, None)
    twin.http.cookies.set("parlour_session", seats[mover].http.cookies.get("parlour_session") or "")
    twin.connect(room_id)
    twin.state_at(0)
    seats[mover].state_at(0)
    action = seats[mover].states[-1]["view"]["legal_actions"][0]
    barrier = threading.Barrier(2)

    def send(connection: Seat) -> None:
        barrier.wait()
        connection.act(0, action)

    threads = [threading.Thread(target=send, args=(c,)) for c in (seats[mover], twin)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    errors = []
    for connection in (seats[mover], twin):
        assert connection.ws is not None
        connection.ws.send('{"type":"ping"}')
        while (message := connection.receive())["type"] != "pong":
            if message["type"] == "error":
                errors.append(message["code"])
    # The second to arrive is the move the log holds by then: answered as taken.
    assert errors == []
    assert seats[0].http.get(f"/api/rooms/{room_id}").json()["version"] == 1
    for connection in [*seats, twin]:
        connection.close()
