"""Walking away from a rated match is a loss, not a way out: when a computer stands in for
a person who left — the host's replacement after the absence grace, or the clock's after
two timeouts — the match stays rated; the people who stayed are rated among themselves
and the person who left is rated last. A person who took their seat back before the end is
rated by their seat's result; a match that was never rated stays unrated.

Time is moved by hand (tests/app/manual_clock.py); each test runs on SQLite and, where
TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db import make_engine
from app.models import Rating
from app.ratings import rebuild
from app.ratings.model import DEFAULT_MU, DEFAULT_SIGMA, places_when_some_left, rate, shown
from tests.app.helpers import Timed, account, next_of, play_out
from tests.app.test_absence import away_since
from tests.app.test_api import play_out_seat0
from tests.app.test_ratings import snapshot


def rated_table(
    host: TestClient, guests: list[TestClient], game: str = "cupid", **body: Any
) -> dict[str, Any]:
    """A started rated table: ``host`` in seat 0, ``guests`` after, in order."""
    options = {"target": 10, **body.pop("options", {})}
    fields = {"game": game, "seats": 1 + len(guests), "options": options, "rated": True, **body}
    room = host.post("/api/rooms", json=fields).json()
    for guest in guests:
        assert guest.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    started = host.post(f"/api/rooms/{room['id']}/start")
    assert started.status_code == 200, started.text
    return dict(started.json())


def walk_away(timed: Timed, host: TestClient, leaver: TestClient, rid: str, seat: int) -> Any:
    """``leaver`` looks in and goes; after the absence grace the host gives their seat to a
    computer. Returns the room description after the replacement."""
    with leaver.websocket_connect(f"/ws/rooms/{rid}") as ws:
        next_of(ws, "state")
    away_since(host, rid, seat)
    timed.advance(60)
    replaced = host.post(f"/api/rooms/{rid}/bots", json={"seat": seat})
    assert replaced.status_code == 200, replaced.text
    return replaced.json()


def record_of(client: TestClient, room: dict[str, Any]) -> dict[str, Any]:
    record = client.get(f"/api/matches/{room['match_id']}").json()
    assert record["status"] == "finished"
    return dict(record)


def newcomers_after(places: list[int]) -> list[int]:
    """The ratings shown after one match between newcomers that ends in ``places``."""
    after = rate([(DEFAULT_MU, DEFAULT_SIGMA)] * len(places), places)
    return [shown(mu, sigma) for mu, sigma in after]


def test_a_player_who_walks_away_from_a_rated_match_is_rated_down(timed: Timed) -> None:
    ann, bob = account(timed.client, "Ann"), account(timed.client, "Bob")
    room = rated_table(ann, [bob])
    replaced = walk_away(timed, ann, bob, room["id"], 1)
    # The table stays rated with a computer standing in for Bob.
    assert replaced["rated"] is True
    assert replaced["seats"][1]["stand_in_for"]["name"] == "Bob"
    play_out_seat0(ann, room["id"])
    record = record_of(ann, room)
    assert record["rated"] is True
    assert [seat["left"] for seat in record["seats"]] == [False, True]
    changes = {change["seat"]: change for change in record["ratings"]}
    # Whatever the computer made of Bob's seat, Bob lost and Ann, who stayed, won.
    assert changes[0]["change"] > 0 > changes[1]["change"]
    assert [changes[0]["left"], changes[1]["left"]] == [False, True]
    assert [changes[0]["after"], changes[1]["after"]] == newcomers_after([0, 1])
    board = ann.get("/api/leaderboard", params={"game": "cupid"}).json()["players"]
    assert [player["username"] for player in board] == ["Ann", "Bob"]
    transcript = ann.get(f"/api/matches/{room['match_id']}/transcript.txt").text
    assert "Bob: 1000 → " in transcript and "left the table: rated last" in transcript


def test_those_who_stay_keep_their_order_and_the_leaver_comes_last(
    timed: Timed, database_url: str
) -> None:
    ann, bob, cat = (account(timed.client, name) for name in ("Ann", "Bob", "Cat"))
    room = rated_table(ann, [bob, cat], game="coins")
    walk_away(timed, ann, cat, room["id"], 2)
    play_out([ann, bob], room["id"])
    record = record_of(ann, room)
    assert [seat["left"] for seat in record["seats"]] == [False, False, True]
    # Ann and Bob are placed by their own seats' results; Cat after both, whatever his
    # seat scored.
    first, second = ((seat not in record["winners"], -record["scores"][seat]) for seat in (0, 1))
    places = [0, 0, 1] if first == second else ([0, 1, 2] if first < second else [1, 0, 2])
    changes = sorted(record["ratings"], key=lambda change: change["seat"])
    assert [change["after"] for change in changes] == newcomers_after(places)
    # The rebuild gives the same numbers from the match records.
    before = snapshot(database_url)
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.execute(update(Rating).values(mu=0.0, sigma=1.0, rating=0))
    assert rebuild(engine) == 1
    engine.dispose()
    assert snapshot(database_url) == before


def test_a_player_whose_clock_ran_out_twice_is_rated_down(timed: Timed) -> None:
    ann, bob = account(timed.client, "Ann"), account(timed.client, "Bob")
    # Bob's seat leads the first trick; he never comes to the table. A target of 40 points
    # leaves the clock time to play two of his moves before anyone wins.
    clock = {"turn": 5, "bank": 0}
    room = rated_table(ann, [bob], clock=clock, options={"dealer": 1, "target": 40})
    rid = room["id"]
    with ann.websocket_connect(f"/ws/rooms/{rid}") as wa:
        # Ann plays her moves; on Bob's turns the clock runs out, until after the second
        # the room says a computer has his seat (a room and a state may come in either
        # order, so every message is read here).
        table: dict[str, Any] = {"seats": [{}, {"bot": None}]}
        answered = -1
        while table["seats"][1]["bot"] is None:
            message = wa.receive_json()
            if message["type"] == "room":
                table = message["room"]
            elif message["type"] == "state" and message["version"] > answered:
                assert not message["view"]["over"], "the match ended before Bob's seat was taken"
                answered = message["version"]
                if 0 in message["view"]["to_act"]:
                    action = message["view"]["legal_actions"][0]
                    wa.send_json({"type": "act", "version": answered, "action": action})
                elif message["clocks"][1]["timeouts"] < 2:
                    timed.advance(5)  # the clock plays Bob's move
        assert table["rated"] is True and table["seats"][1]["stand_in_for"]["name"] == "Bob"
    play_out_seat0(ann, rid)
    record = record_of(ann, room)
    assert record["rated"] is True and record["seats"][1]["left"] is True
    changes = {change["seat"]: change for change in record["ratings"]}
    assert changes[0]["change"] > 0 > changes[1]["change"]


def test_a_player_who_took_their_seat_back_is_rated_by_their_result(timed: Timed) -> None:
    ann, bob = account(timed.client, "Ann"), account(timed.client, "Bob")
    room = rated_table(ann, [bob])
    walk_away(timed, ann, bob, room["id"], 1)
    assert bob.post(f"/api/rooms/{room['id']}/reclaim").status_code == 200
    last = play_out([ann, bob], room["id"])
    record = record_of(ann, room)
    assert record["rated"] is True
    assert [seat["left"] for seat in record["seats"]] == [False, False]
    (winner,) = last["view"]["winners"]
    changes = {change["seat"]: change for change in record["ratings"]}
    assert changes[winner]["change"] > 0 > changes[1 - winner]["change"]
    assert not changes[0]["left"] and not changes[1]["left"]


def test_a_match_that_was_never_rated_stays_unrated(timed: Timed) -> None:
    ann, bob = account(timed.client, "Ann"), account(timed.client, "Bob")
    room = ann.post("/api/rooms", json={"game": "cupid", "options": {"target": 10}}).json()
    assert bob.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    room = ann.post(f"/api/rooms/{room['id']}/start").json()
    walk_away(timed, ann, bob, room["id"], 1)
    play_out_seat0(ann, room["id"])
    record = record_of(ann, room)
    assert record["rated"] is False and record["ratings"] == []
    assert record["seats"][1]["left"] is True
    assert ann.get("/api/leaderboard", params={"game": "cupid"}).json()["players"] == []


def test_places_put_whoever_left_after_everyone_who_stayed() -> None:
    # Seat 0 won but its person left: last, below both who stayed, who keep their order.
    assert places_when_some_left([0, 1, 2], {0}) == [2, 0, 1]
    # Those who left share last place; ties among those who stayed are kept.
    assert places_when_some_left([1, 0, 1, 2], {1, 3}) == [0, 1, 0, 1]
    assert places_when_some_left([0, 1], set()) == [0, 1]
    # With nobody left at the table there is nobody to rank anyone against.
    assert places_when_some_left([0, 1], {0, 1}) is None
