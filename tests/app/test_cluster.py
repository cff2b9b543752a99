"""Several server processes share the rooms (PostgreSQL the truth, Redis between them):
any process serves any room and every seat's messages are exactly its view; the owner's
death and a Redis restart lose nothing acknowledged."""

from __future__ import annotations

import random
import secrets
import time
from typing import Any

import orjson

from tests.app.helpers import eventually
from tests.app.live_clients import UNLIMITED, Factory, Reachable, Seat, check_against_truth
from tests.app.redis_server import RedisServer
from tests.conftest import LiveServer


def servers(
    factory: Factory, postgres_url: str, redis: RedisServer, count: int = 2
) -> list[LiveServer]:
    env = {"REDIS_URL": redis.url, "REDIS_PREFIX": f"test{secrets.token_hex(3)}", **UNLIMITED}
    return [factory(database_url=postgres_url, **env) for _ in range(count)]


def reconnected(seat: Seat, server: Reachable) -> Seat:
    """The same person, now connected to ``server`` (their tab reconnected elsewhere)."""
    again = Seat(server, None)
    again.http.cookies.set("parlour_session", seat.http.cookies.get("parlour_session") or "")
    return again


def acknowledged(seat: Seat, version: int, action: dict[str, Any]) -> None:
    """Send an action until the table is past ``version``. A server that cannot answer for
    a moment (its peer died, Redis restarts) says ``unavailable``: send it again, as a
    player would; a resend after the first one went through is answered as taken (no
    error), and one after another move was made is refused as stale."""
    seat.act(version, action)
    while True:
        message = seat.receive()
        if message["type"] == "state" and message["version"] > version:
            return
        if message["type"] == "error":
            assert message["code"] in ("unavailable", "stale_version"), message
            if message["code"] == "unavailable":
                time.sleep(0.2)
                seat.act(version, action)


def play(
    seats: list[Seat], watchers: list[Seat], version: int, rng: random.Random, moves: int | None
) -> int:
    """Random legal moves by whoever is awaited, until the end or ``moves`` moves."""
    while not seats[0].state_at(version)["view"]["over"] and moves != 0:
        current = [seat.state_at(version) for seat in seats]
        mover = rng.choice(current[0]["view"]["to_act"])
        acknowledged(seats[mover], version, rng.choice(current[mover]["view"]["legal_actions"]))
        version += 1
        for seat in [*seats, *watchers]:
            seat.state_at(version)
        moves = None if moves is None else moves - 1
    return version


def open_across(a: LiveServer, b: LiveServer) -> tuple[str, Seat, Seat]:
    """Ann opens a Cupid room on ``a``; Bob takes the other seat through ``b``."""
    ann, bob = Seat(a, "Ann"), Seat(b, "Bob")
    body = {"game": "cupid", "seats": 2, "options": {"target": 40}}
    room = ann.http.post("/api/rooms", json=body).json()
    joined = bob.http.post(f"/api/rooms/{room['id']}/join", json={})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1 and joined.json()["room"]["seats"][1]["name"] == "Bob"
    started = ann.http.post(f"/api/rooms/{room['id']}/start")
    assert started.status_code == 200, started.text
    return room["id"], ann, bob


def test_a_match_across_two_processes_shows_each_seat_its_own_view(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    a, b = servers(live_server_factory, postgres_url, redis_server)
    room_id, ann, bob = open_across(a, b)
    ann.connect(room_id)  # on a, the room's owner
    bob.connect(room_id)  # on b
    eve, anonymous = Seat(b, "Eve"), Seat(a, None)
    eve.connect(room_id)
    anonymous.connect(room_id)
    for seat in (ann, bob, eve, anonymous):
        seat.state_at(0)
    # Each process describes the room with everyone connected anywhere (presence travels
    # between processes within moments).
    for server in (a, b):
        eventually(
            lambda url=server.url: (
                [s["connected"] for s in ann.http.get(f"{url}/api/rooms/{room_id}").json()["seats"]]
                == [True, True]
            ),
            "both seats to show as connected",
        )
    play([ann, bob], [eve, anonymous], 0, random.Random(3), None)
    result = check_against_truth(b, room_id, {0: ann, 1: bob, None: eve})
    check_against_truth(a, room_id, {None: anonymous})
    assert result["checked"] > 2 * len(result["record"]["events"])
    for seat in (ann, bob, eve, anonymous):
        seat.close()


def test_the_owner_killed_mid_match_the_other_process_plays_on(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    a, b = servers(live_server_factory, postgres_url, redis_server)
    room_id, ann, bob = open_across(a, b)
    ann.connect(room_id)
    bob.connect(room_id)
    rng = random.Random(5)
    version = play([ann, bob], [], 0, rng, 8)
    a.kill()  # the owner: no shutdown, its lease simply stops being renewed
    ann = reconnected(ann, b)
    ann.connect(room_id)
    assert ann.state_at(version)["version"] == version
    final = play([ann, bob], [], version, rng, None)
    record = bob.http.get(
        f"/api/matches/{bob.http.get(f'/api/rooms/{room_id}').json()['match_id']}"
    ).json()
    assert record["status"] == "finished" and len(record["events"]) == final
    check_against_truth(b, room_id, {0: ann, 1: bob})
    ann.close()
    bob.close()


def test_a_redis_restart_mid_match_loses_nothing(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    a, b = servers(live_server_factory, postgres_url, redis_server)
    room_id, ann, bob = open_across(a, b)
    ann.connect(room_id)
    bob.connect(room_id)
    eve = Seat(b, "Eve")
    eve.connect(room_id)
    rng = random.Random(9)
    version = play([ann, bob], [eve], 0, rng, 6)
    redis_server.restart()
    final = play([ann, bob], [eve], version, rng, None)
    record = ann.http.get(
        f"/api/matches/{ann.http.get(f'/api/rooms/{room_id}').json()['match_id']}"
    ).json()
    assert len(record["events"]) == final
    check_against_truth(a, room_id, {0: ann, 1: bob, None: eve})
    for seat in (ann, bob, eve):
        seat.close()


def test_one_process_alone_needs_no_redis(live_server_factory: Factory) -> None:
    server = live_server_factory(**UNLIMITED)
    ann = Seat(server, "Ann")
    room = ann.http.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
    assert orjson.loads(ann.http.get(f"/api/rooms/{room['id']}").content)["status"] == "waiting"
    ann.close()


def test_clocks_and_absence_read_the_same_through_every_process(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    """The owner keeps the time (turn clocks, since when a seat's person is away); every
    process shows its copy of the room with the owner's times."""
    a, b = servers(live_server_factory, postgres_url, redis_server)
    ann, bob = Seat(a, "Ann"), Seat(b, "Bob")
    body = {"game": "cupid", "seats": 2, "clock": {"turn": 60, "bank": 120}}
    room_id = ann.http.post("/api/rooms", json=body).json()["id"]
    assert bob.http.post(f"/api/rooms/{room_id}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/rooms/{room_id}/start").status_code == 200
    eve, anonymous = Seat(b, "Eve"), Seat(a, None)
    everyone = (ann, bob, eve, anonymous)  # on a, b, b, a
    for seat in everyone:
        seat.connect(room_id)
    first = [seat.state_at(0)["clocks"] for seat in everyone]
    assert first[0] is not None and all(clocks == first[0] for clocks in first)
    assert sum(clock["deadline"] is not None for clock in first[0]) == 1
    play([ann, bob], [eve, anonymous], 0, random.Random(4), 1)
    second = [seat.state_at(1)["clocks"] for seat in everyone]
    assert all(clocks == second[0] for clocks in second) and second != first
    # Bob's tab closes on b; a (the owner) stamps since when, and both processes say it.
    assert bob.ws is not None
    bob.ws.close()

    def away_on(server: LiveServer) -> Any:
        return ann.http.get(f"{server.url}/api/rooms/{room_id}").json()["seats"][1]

    deadline = time.monotonic() + 20
    while not (away_on(a)["away_since"] and away_on(b)["away_since"]):
        assert time.monotonic() < deadline, "Bob was never counted away on both processes"
        time.sleep(0.05)
    assert away_on(a) == away_on(b)
    assert away_on(a)["connected"] is False
    for seat in (ann, eve, anonymous):
        seat.close()
    bob.http.close()


def told_before_pong(seat: Seat) -> list[dict[str, Any]]:
    """What a connection is sent before the answer to a ping sent now."""
    assert seat.ws is not None
    seat.ws.send('{"type":"ping"}')
    seen = []
    while (message := seat.receive())["type"] != "pong":
        seen.append(message)
    return seen


def test_table_talk_said_through_one_process_is_read_through_the_other(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    a, b = servers(live_server_factory, postgres_url, redis_server)
    room_id, ann, bob = open_across(a, b)  # Ann's room is refereed by a; Bob is on b
    eve, cat = Seat(b, "Eve"), Seat(a, "Cat")  # a watcher through each process
    for person in (ann, bob, eve, cat):
        person.connect(room_id)
        person.next_of("chat_log")
    for player in (ann, bob):  # the players choose to read the watchers too
        player.read_watchers(True)
        player.next_of("chat_log")
    ann.say("table", "Hello from a")
    heard = [person.next_of("chat") for person in (ann, bob, eve, cat)]
    assert all(message == heard[0] for message in heard)
    assert heard[0]["text"] == "Hello from a" and heard[0]["seat"] == 0
    eve.say("watchers", "Hello from b")
    heard = [person.next_of("chat") for person in (ann, bob, eve, cat)]
    assert all(message == heard[0] for message in heard)
    eve_id = heard[0]["user_id"]

    # The host mutes Eve through a; b's copy of the room learns it from the owner's notice.
    assert ann.http.post(f"{a.url}/api/rooms/{room_id}/mute", json={"user_id": eve_id}).is_success
    while eve_id not in eve.next_of("room")["room"]["muted"]:
        pass
    eve.say("watchers", "Am I muted?")
    assert eve.next_of("error")["code"] == "muted"

    # Through b, the host closes the watchers' channel to the players: each process keeps
    # a watcher's line from its own players.
    closed = ann.http.post(f"{b.url}/api/rooms/{room_id}/settings", json={"watchers_chat": False})
    assert closed.json()["watchers_chat"] is False
    for player in (ann, bob):
        log = player.next_of("chat_log")["messages"]
        assert [line["text"] for line in log] == ["Hello from a"]
    cat.say("watchers", "Only the watchers read this")
    for watcher in (eve, cat):
        assert watcher.next_of("chat")["text"] == "Only the watchers read this"
    for player in (ann, bob):
        assert [m for m in told_before_pong(player) if m["type"] == "chat"] == []
    for person in (ann, bob, eve, cat):
        person.close()


def test_a_move_refused_by_the_owner_is_explained_in_the_language_of_the_socket_elsewhere(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    a, b = servers(live_server_factory, postgres_url, redis_server)
    room_id, ann, bob = open_across(a, b)  # a owns the room
    again = reconnected(ann, b)
    again.connect(room_id, "?lang=es")
    bob.connect(room_id, "?lang=fr")
    views = {seat: seat.state_at(0)["view"] for seat in (again, bob)}
    mover = again if views[again]["to_act"] == [0] else bob
    other = bob if mover is again else again
    card = views[other]["hand"][0]  # a card of the game the mover does not hold
    mover.act(0, {"type": "play", "card": card})
    while (message := mover.receive())["type"] != "error":
        pass
    expected = f"No tienes {card}." if mover is again else f"Vous n'avez pas {card}."
    assert message["code"] == "illegal_action" and message["message"] == expected
    for seat in (again, bob, ann):
        seat.close()
