"""When a person's deadline at a turn-based table passes, any other player may claim the
match — it ends, and in a rated match the one who ran out loses and is rated so — or let a
computer play the seat until the person comes back and takes it. Before the deadline
neither is allowed, and going away never makes the time run out."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.rooms.signals import MatchEnded, TurnAwaits
from tests.app.helpers import account, eventually, room_of, timed_app
from tests.app.test_api import error_of
from tests.app.turn_based import RecordingSignals, days, play_moves, turn_based_room, user_id


@pytest.fixture
def signals() -> RecordingSignals:
    return RecordingSignals()


def test_a_match_is_claimed_once_the_deadline_has_passed(
    database_url: str, tmp_path: Path, signals: RecordingSignals
) -> None:
    with timed_app(database_url, tmp_path, signals=signals) as timed:
        room_id, (ann, bob) = turn_based_room(timed, ["Ann", "Bob"], options={"dealer": 0})
        watcher = timed.client("Cleo")
        timed.advance(days(3) - 60)  # Ann's move is due in a minute
        error_of(bob.post(f"/api/rooms/{room_id}/claim"), 409, "deadline_not_passed")
        timed.advance(60)
        error_of(ann.post(f"/api/rooms/{room_id}/claim"), 409, "deadline_not_passed")
        error_of(watcher.post(f"/api/rooms/{room_id}/claim"), 403, "not_seated")
        claimed = bob.post(f"/api/rooms/{room_id}/claim")
        assert claimed.status_code == 200, claimed.text
        room = claimed.json()
        assert room["status"] == "finished" and room["code"] is None
        assert all(seat["deadline"] is None for seat in room["seats"])
        record = bob.get(f"/api/matches/{room['match_id']}").json()
        assert record["status"] == "finished" and record["winners"] == [1]
        assert [seat["left"] for seat in record["seats"]] == [True, False]
        error_of(bob.post(f"/api/rooms/{room_id}/claim"), 409, "match_over")
        # It is reviewed, told and listed like any finished match.
        review = bob.get(f"/api/matches/{room['match_id']}/review")
        assert review.status_code == 200 and len(review.json()["frames"]) == 1
        transcript = bob.get(f"/api/matches/{room['match_id']}/transcript.txt")
        assert transcript.status_code == 200, transcript.text
        history = bob.get("/api/matches", params={"user": "me"}).json()["matches"]
        assert [match["id"] for match in history] == [room["match_id"]]
        ended = signals.of(MatchEnded)
        assert sorted(signal.user_id for signal in ended) == sorted([user_id(ann), user_id(bob)])
        assert "Ann ran out of time" in ended[0].summary


def test_a_claimed_rated_match_rates_the_one_who_ran_out_as_the_loser(
    database_url: str, tmp_path: Path
) -> None:
    with timed_app(database_url, tmp_path) as timed:
        ann, bob = account(timed.client, "Ann"), account(timed.client, "Bob")
        body = {"game": "cupid", "pace": "turn_based", "days_per_move": 1, "rated": True}
        room_id = ann.post("/api/rooms", json={**body, "options": {"dealer": 0}}).json()["id"]
        assert bob.post(f"/api/rooms/{room_id}/join", json={}).status_code == 200
        assert ann.post(f"/api/rooms/{room_id}/start").status_code == 200
        play_moves([ann, bob], room_id, 3)
        (late,) = [s["seat"] for s in room_of(ann, room_id)["seats"] if s["deadline"]]
        claimer = [ann, bob][1 - late]
        timed.advance(days(1))
        room = claimer.post(f"/api/rooms/{room_id}/claim").json()
        record = ann.get(f"/api/matches/{room['match_id']}").json()
        assert record["rated"] is True and record["winners"] == [1 - late]
        changes = {change["seat"]: change for change in record["ratings"]}
        assert changes[late]["left"] is True and changes[late]["change"] < 0
        assert changes[1 - late]["left"] is False and changes[1 - late]["change"] > 0
        board = ann.get("/api/leaderboard", params={"game": "cupid"}).json()["players"]
        assert board[0]["username"] == ["Ann", "Bob"][1 - late]


def test_only_a_turn_based_match_is_claimed(database_url: str, tmp_path: Path) -> None:
    with timed_app(database_url, tmp_path) as timed:
        ann, bob = timed.client("Ann"), timed.client("Bob")
        room_id = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
        error_of(ann.post(f"/api/rooms/{room_id}/claim"), 409, "match_not_started")
        assert bob.post(f"/api/rooms/{room_id}/join", json={}).status_code == 200
        assert ann.post(f"/api/rooms/{room_id}/start").status_code == 200
        error_of(ann.post(f"/api/rooms/{room_id}/claim"), 409, "not_turn_based")


def test_a_computer_plays_a_seat_whose_deadline_passed_until_its_person_takes_it_back(
    database_url: str, tmp_path: Path, signals: RecordingSignals
) -> None:
    with timed_app(database_url, tmp_path, signals=signals) as timed:
        room_id, (ann, bob) = turn_based_room(
            timed, ["Ann", "Bob"], days=1, options={"dealer": 0, "target": 121}
        )
        error_of(
            bob.post(f"/api/rooms/{room_id}/bots", json={"seat": 0}), 409, "deadline_not_passed"
        )
        timed.advance(days(1))
        error_of(ann.post(f"/api/rooms/{room_id}/bots", json={"seat": 0}), 409, "seat_taken")
        replaced = bob.post(f"/api/rooms/{room_id}/bots", json={"seat": 0})
        assert replaced.status_code == 200, replaced.text
        assert replaced.json()["seats"][0]["stand_in_for"]["name"] == "Ann"
        # The computer plays Ann's move; then it is Bob's turn.
        eventually(lambda: room_of(bob, room_id)["version"] >= 1, "the computer's move")
        room = room_of(bob, room_id)
        assert room["seats"][0]["bot"] == "heuristic"
        awaited = [seat["seat"] for seat in room["seats"] if seat["deadline"]]
        assert awaited == [1] and room["seats"][1]["deadline"] == timed.iso(days(1))
        play_moves([ann, bob], room_id, 0)
        timed.advance(3600)
        back = ann.post(f"/api/rooms/{room_id}/reclaim")
        assert back.status_code == 200, back.text
        seats = back.json()["room"]["seats"]
        assert seats[0]["user_id"] == user_id(ann) and seats[0]["stand_in_for"] is None
        error_of(ann.post(f"/api/rooms/{room_id}/reclaim"), 409, "nothing_to_reclaim")
        # Bob's turn was told to him when the computer's move made it his.
        assert [(s.user_id, s.room_id) for s in signals.of(TurnAwaits)][-1] == (
            user_id(bob),
            room_id,
        )
