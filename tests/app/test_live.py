"""Against a real uvicorn process on 127.0.0.1: whole matches, a crash, a race.

Every message each connection receives is checked against the true state (rebuilt from
the revealed seed and the log once the match is over): its view must be exactly what
``view(state, seat)`` gives, so no card it may not know ever reaches it.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest

import games
from tests.app.live_clients import Seat, open_room
from tests.conftest import LiveServer
from tests.games.randomplay import card_codes_in

Factory = Callable[..., LiveServer]
# These clients act the instant they may; the rate limit has its own test (test_ws.py).
UNLIMITED = {"RATE_PER_SECOND": "1000", "RATE_BURST": "1000"}


def play(
    seats: list[Seat],
    watchers: list[Seat],
    version: int,
    rng: random.Random,
    stop_after: int | None,
) -> int:
    """Each awaited seat plays a random legal action until the end (or ``stop_after``)."""
    current = {i: s.state_at(version) for i, s in enumerate(seats)}
    for watcher in watchers:
        watcher.state_at(version)
    played = 0
    while not current[0]["view"]["over"]:
        if stop_after is not None and played >= stop_after:
            break
        seat = rng.choice(current[0]["view"]["to_act"])
        view = current[seat]["view"]
        seats[seat].act(version, rng.choice(view["legal_actions"]))
        version += 1
        played += 1
        current = {i: s.state_at(version) for i, s in enumerate(seats)}
        for watcher in watchers:
            watcher.state_at(version)
    return version


def check_against_truth(
    server: LiveServer, room_id: str, connections: dict[int | None, Seat]
) -> dict[str, Any]:
    """Rebuild every version from the revealed seed; each received view must be exact."""
    http = next(iter(connections.values())).http
    room = http.get(f"/api/rooms/{room_id}").json()
    record = http.get(f"/api/matches/{room['match_id']}").json()
    assert record["status"] == "finished"
    rules = games.get(record["game"])
    state = rules.new_game(record["seat_count"], int(record["seed"]), record["options"], None)
    states = [state]
    for event in record["events"]:
        state = rules.apply(state, event["seat"], event["action"])
        states.append(state)
    deck = frozenset(rules.deck(record["seat_count"], record["options"]))
    checked = 0
    for seat, connection in connections.items():
        assert connection.states, "a connection received no state"
        for message in connection.states:
            truth = states[message["version"]]
            assert message["seat"] == seat
            assert message["view"] == rules.view(truth, seat)
            leaked = card_codes_in(message["view"], deck) & rules.hidden_cards(truth, seat)
            assert not leaked, f"seat {seat} was sent cards it may not know: {leaked}"
            checked += 1
    assert rules.scores(states[-1]) == record["scores"]
    return {"record": record, "checked": checked}


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
    listed = seats[0].http.get("/api/matches").json()
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
    assert errors == ["stale_version"]
    assert seats[0].http.get(f"/api/rooms/{room_id}").json()["version"] == 1
    for connection in [*seats, twin]:
        connection.close()
