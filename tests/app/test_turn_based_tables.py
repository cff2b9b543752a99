"""Opening a turn-based table (and the refusals of a bad pace), how it is described and
listed in the lobby, and "Your tables": the API's list, the page, and the header's count of
tables awaiting the visitor."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.app.helpers import Timed, room_of
from tests.app.test_api import error_of
from tests.app.turn_based import days, play_moves, turn_based_room, user_id


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"pace": "turn_based"}, "bad_pace"),
        ({"pace": "turn_based", "days_per_move": 4}, "bad_pace"),
        ({"pace": "turn_based", "days_per_move": 0}, "bad_pace"),
        ({"days_per_move": 3}, "bad_pace"),
        ({"pace": "live", "days_per_move": 3}, "bad_pace"),
        ({"pace": "turn_based", "days_per_move": 3, "clock": {"turn": 30, "bank": 0}}, "bad_pace"),
        ({"pace": "slow"}, "bad_request"),
        ({"pace": "turn_based", "days_per_move": "3"}, "bad_request"),
        ({"pace": "turn_based", "days_per_move": True}, "bad_request"),
    ],
)
def test_a_bad_pace_is_refused_and_opens_nothing(
    timed: Timed, body: dict[str, Any], code: str
) -> None:
    ann = timed.client("Ann")
    message = error_of(ann.post("/api/rooms", json={"game": "cupid", **body}), 422, code)
    if code == "bad_pace":
        assert "days" in message
    assert ann.get("/api/me/tables").json() == {"tables": []}


def test_a_room_says_its_pace_and_each_awaited_seats_deadline(timed: Timed) -> None:
    ann = timed.client("Ann")
    live = ann.post("/api/rooms", json={"game": "cupid"}).json()
    assert live["pace"] == "live" and live["days_per_move"] is None
    assert [seat["deadline"] for seat in live["seats"]] == [None, None]
    room_id, (ann, bob) = turn_based_room(
        timed, ["Ann", "Bob"], days=7, start=False, options={"dealer": 0}
    )
    waiting = room_of(bob, room_id)
    assert waiting["pace"] == "turn_based" and waiting["days_per_move"] == 7
    assert [seat["deadline"] for seat in waiting["seats"]] == [None, None]
    started = ann.post(f"/api/rooms/{room_id}/start").json()
    assert [seat["deadline"] for seat in started["seats"]] == [timed.iso(days(7)), None]
    with bob.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        message = ws.receive_json()
        assert message["type"] == "room"
        assert message["room"]["pace"] == "turn_based"
        assert message["room"]["seats"][0]["deadline"] == timed.iso(days(7))


def listed(client: TestClient) -> list[str]:
    return [room["id"] for room in client.get("/api/rooms").json()]


def test_a_turn_based_table_is_open_to_all_until_it_starts_then_to_its_players(
    timed: Timed,
) -> None:
    cleo = timed.client("Cleo")
    room_id, (ann, bob) = turn_based_room(timed, ["Ann", "Bob"], start=False)
    private_id = ann.post(
        "/api/rooms",
        json={"game": "cupid", "pace": "turn_based", "days_per_move": 1, "visibility": "private"},
    ).json()["id"]
    live_id = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    # Nobody is connected: the waiting turn-based table is listed all the same (its
    # players come over days); a live one is not, and a private one never is.
    assert listed(cleo) == [room_id]
    assert ann.post(f"/api/rooms/{room_id}/start").status_code == 200
    assert listed(cleo) == []
    assert listed(ann) == [room_id] and listed(bob) == [room_id]
    # By its link anyone reaches it.
    assert room_of(cleo, room_id)["status"] == "playing"
    assert private_id not in listed(ann) and live_id not in listed(ann)


def tables_of(client: TestClient) -> list[dict[str, Any]]:
    response = client.get("/api/me/tables")
    assert response.status_code == 200, response.text
    return list(response.json()["tables"])


def test_your_tables_come_awaiting_you_first_then_by_deadline(timed: Timed) -> None:
    ann, bob, cy = timed.client("Ann"), timed.client("Bob"), timed.client("Cy")

    def table(host: TestClient, guest: TestClient, days_per_move: int, dealer: int) -> str:
        body = {"game": "cupid", "pace": "turn_based", "days_per_move": days_per_move}
        room_id = host.post("/api/rooms", json={**body, "options": {"dealer": dealer}}).json()
        assert guest.post(f"/api/rooms/{room_id['id']}/join", json={}).status_code == 200
        assert host.post(f"/api/rooms/{room_id['id']}/start").status_code == 200
        return str(room_id["id"])

    mine_later = table(ann, bob, 7, dealer=0)  # Ann's move, 7 days
    theirs = table(bob, ann, 2, dealer=0)  # Bob's move, 2 days
    mine_sooner = table(cy, ann, 1, dealer=1)  # Ann's move (seat 1), 1 day
    finished = table(ann, cy, 3, dealer=0)
    timed.advance(days(3))
    assert cy.post(f"/api/rooms/{finished}/claim").status_code == 200
    waiting = ann.post("/api/rooms", json={"game": "coins"}).json()["id"]
    tables = tables_of(ann)
    assert [t["room_id"] for t in tables] == [mine_sooner, mine_later, theirs, waiting]
    assert [t["your_turn"] for t in tables] == [True, True, False, False]
    first = tables[0]
    assert first["game"] == "cupid" and first["to_act"] == [1]
    assert first["deadline"] == timed.iso(days(1) - days(3))
    assert [(s["name"], s["you"]) for s in first["seats"]] == [("Cy", False), ("Ann", True)]
    assert tables[2]["deadline"] == timed.iso(days(2) - days(3))
    assert tables[3]["deadline"] is None and tables[3]["status"] == "waiting"
    assert [t["room_id"] for t in tables_of(bob)] == [theirs, mine_later]
    # Ann moves at the table that was hers soonest: it is Cy's turn there now.
    play_moves([cy, ann], mine_sooner, 1)
    assert [t["room_id"] for t in tables_of(ann) if t["your_turn"]] == [mine_later]
    error_of(timed.client().get("/api/me/tables"), 401, "no_session")
    assert user_id(ann) in [s["user_id"] for s in tables[0]["seats"]]


def awaiting_in_header(client: TestClient, path: str = "/") -> int | None:
    page = client.get(path)
    assert page.status_code == 200
    found = re.search(r'id="awaiting-count"[^>]*><span aria-hidden="true">(\d+)</span>', page.text)
    assert 'href="/tables"' in page.text
    return None if found is None else int(found.group(1))


def test_every_page_header_counts_the_tables_awaiting_you(timed: Timed) -> None:
    room_id, (ann, bob) = turn_based_room(timed, ["Ann", "Bob"], options={"dealer": 0})
    turn_based_room(timed, [], people=[ann, bob], options={"dealer": 0})
    # The people's own pages: both tables await Ann, none awaits Bob.
    assert awaiting_in_header(ann) == 2
    assert awaiting_in_header(ann, "/history") == 2
    assert awaiting_in_header(ann, f"/rooms/{room_id}") == 2
    assert awaiting_in_header(bob) is None
    play_moves([ann, bob], room_id, 1)
    assert awaiting_in_header(ann, "/tables") == 1 and awaiting_in_header(bob) == 1
    assert awaiting_in_header(timed.client()) is None
    assert "Your tables" in ann.get("/tables").text
