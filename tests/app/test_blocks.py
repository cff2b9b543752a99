"""Blocking: a person you block cannot friend you, invite you, join a table you host or
sit at one you are seated at, and their table talk and reactions are never delivered to
you — nor to any of your pages — while everyone else's are. They are not told: their
refusals are those anyone could meet. Unblocking undoes it."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.app.helpers import NewClient, account, next_of, play_out


def blocks(client: TestClient) -> list[str]:
    found: list[str] = client.get("/api/blocks").json()["blocks"]
    return found


def chat_until_pong(socket: WebSocketTestSession) -> list[dict[str, Any]]:
    """The chat messages a connection is sent before the answer to a ping sent now."""
    socket.send_json({"type": "ping"})
    seen = []
    while (message := socket.receive_json())["type"] != "pong":
        if message["type"] in ("chat", "reaction", "chat_log"):
            seen.append(message)
    return seen


def test_blocking_is_listed_and_undone(new_client: NewClient) -> None:
    ada = account(new_client, "Ada")
    account(new_client, "Bob")
    assert ada.post("/api/blocks/bob").status_code == 204
    assert ada.post("/api/blocks/Bob").status_code == 204  # again: nothing changes
    assert blocks(ada) == ["Bob"]
    assert ada.delete("/api/blocks/Bob").status_code == 204
    assert blocks(ada) == []
    not_blocked = ada.delete("/api/blocks/Bob")
    assert not_blocked.status_code == 404 and not_blocked.json()["code"] == "not_blocked"
    unknown = ada.post("/api/blocks/Nobody")
    assert unknown.status_code == 404 and unknown.json()["code"] == "player_not_found"


def test_a_blocked_person_cannot_friend_or_invite_and_cannot_tell_why(
    new_client: NewClient,
) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    ada.post("/api/friends/Bob")
    bob.post("/api/friends/Ada")
    ada.post("/api/blocks/Bob")
    assert bob.get("/api/friends").json()["friends"] == []  # the friendship ended

    asked = bob.post("/api/friends/Ada")
    nobody = bob.post("/api/friends/Nobody")
    assert asked.status_code == nobody.status_code == 404
    assert asked.json()["code"] == "player_not_found"
    assert asked.json()["message"] == "There is no player called Ada."

    room = bob.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
    invited = bob.post(f"/api/rooms/{room['id']}/invitations", json={"username": "Ada"})
    assert invited.status_code == 404
    assert invited.json() == {
        "code": "player_not_found",
        "message": "There is no player called Ada.",
        "detail": "There is no player called Ada.",
    }
    assert ada.get("/api/me/invitations").json()["invitations"] == []
    # The blocker is told to unblock first.
    back = ada.post("/api/friends/Bob")
    assert back.status_code == 409 and back.json()["code"] == "player_blocked"


def test_a_blocked_person_cannot_sit_at_the_blockers_tables(new_client: NewClient) -> None:
    ada, bob, cat = (account(new_client, name) for name in ("Ada", "Bob", "Cat"))
    ada.post("/api/blocks/Bob")
    hosted = ada.post("/api/rooms", json={"game": "cups", "seats": 3}).json()
    refused = bob.post(f"/api/rooms/{hosted['id']}/join", json={})
    assert refused.status_code == 403 and refused.json()["code"] == "seat_refused"

    # Cat's table where Ada sits: Bob would sit with her.
    cats = cat.post("/api/rooms", json={"game": "cups", "seats": 3}).json()
    assert ada.post(f"/api/rooms/{cats['id']}/join", json={}).status_code == 200
    refused = bob.post(f"/api/rooms/{cats['id']}/join", json={})
    assert refused.status_code == 403 and refused.json()["code"] == "seat_refused"
    seats = cat.get(f"/api/rooms/{cats['id']}").json()["seats"]
    assert [s and s["name"] for s in seats] == ["Cat", "Ada", None]

    # The blocker may still sit with the person she blocked, and once unblocked he may too.
    bobs = bob.post("/api/rooms", json={"game": "cups", "seats": 3}).json()
    assert ada.post(f"/api/rooms/{bobs['id']}/join", json={}).status_code == 200
    ada.delete("/api/blocks/Bob")
    assert bob.post(f"/api/rooms/{hosted['id']}/join", json={}).status_code == 200


def test_a_blocked_persons_talk_is_never_delivered_to_the_blocker(new_client: NewClient) -> None:
    ada, bob, cat = (account(new_client, name) for name in ("Ada", "Bob", "Cat"))
    room = cat.post("/api/rooms", json={"game": "cups", "seats": 3}).json()
    for person in (ada, bob):
        assert person.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    path = f"/ws/rooms/{room['id']}"
    with (
        ada.websocket_connect(path) as ada_ws,
        bob.websocket_connect(path) as bob_ws,
        cat.websocket_connect(path) as cat_ws,
    ):
        for socket in (ada_ws, bob_ws, cat_ws):
            next_of(socket, "chat_log")
        bob_ws.send_json({"type": "chat", "channel": "table", "text": "before"})
        for socket in (ada_ws, cat_ws):
            assert next_of(socket, "chat")["text"] == "before"

        assert ada.post("/api/blocks/Bob").status_code == 204
        # Her open connection sends the recent chat again, without Bob's lines.
        assert next_of(ada_ws, "chat_log")["messages"] == []
        # One after the other, each seen by Cat before the next is said.
        bob_ws.send_json({"type": "chat", "channel": "table", "text": "hidden"})
        assert next_of(cat_ws, "chat")["text"] == "hidden"
        bob_ws.send_json({"type": "react", "reaction": "👍"})
        assert next_of(cat_ws, "reaction")["user_id"] == bob.get("/api/session").json()["user_id"]
        cat_ws.send_json({"type": "chat", "channel": "table", "text": "from Cat"})
        assert next_of(cat_ws, "chat")["text"] == "from Cat"
        told = chat_until_pong(ada_ws)
        assert [(m["type"], m.get("text")) for m in told] == [("chat", "from Cat")]

    with ada.websocket_connect(path) as again:  # a new connection: the log leaves him out
        log = next_of(again, "chat_log")["messages"]
        assert [m["text"] for m in log] == ["from Cat"]
        ada.delete("/api/blocks/Bob")
        log = next_of(again, "chat_log")["messages"]
        assert [m["text"] for m in log] == ["before", "hidden", "from Cat"]


def finished_match(ada: TestClient, bob: TestClient) -> dict[str, Any]:
    """A short Cupid match Ada hosted and Bob joined, played to the end: its room."""
    body = {"game": "cupid", "options": {"target": 10, "dealer": 0}}
    room: dict[str, Any] = ada.post("/api/rooms", json=body).json()
    assert bob.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    assert ada.post(f"/api/rooms/{room['id']}/start").status_code == 200
    assert play_out([ada, bob], room["id"])["view"]["over"]
    return room


def test_a_blocked_persons_talk_is_left_out_of_the_blockers_review_and_transcript(
    new_client: NewClient,
) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    room = finished_match(ada, bob)
    match_id = ada.get(f"/api/rooms/{room['id']}").json()["match_id"]
    path = f"/ws/rooms/{room['id']}"
    with ada.websocket_connect(path) as ada_ws, bob.websocket_connect(path) as bob_ws:
        next_of(ada_ws, "chat_log")
        next_of(bob_ws, "chat_log")
        bob_ws.send_json({"type": "chat", "channel": "table", "text": "well played, Ada"})
        assert next_of(ada_ws, "chat")["text"] == "well played, Ada"
        ada_ws.send_json({"type": "chat", "channel": "table", "text": "thanks, Bob"})
        assert next_of(ada_ws, "chat")["text"] == "thanks, Bob"
    assert ada.post("/api/blocks/Bob").status_code == 204

    def said(client: TestClient) -> tuple[list[str], str]:
        review = client.get(f"/api/matches/{match_id}/review")
        transcript = client.get(f"/api/matches/{match_id}/transcript.txt")
        assert review.status_code == transcript.status_code == 200
        return [line["text"] for line in review.json()["chat"]], transcript.text

    lines, transcript = said(ada)
    assert lines == ["thanks, Bob"]
    assert "thanks, Bob" in transcript and "well played, Ada" not in transcript
    lines, transcript = said(bob)  # everyone else still reads both
    assert lines == ["well played, Ada", "thanks, Bob"]
    assert "well played, Ada" in transcript and "thanks, Bob" in transcript


def test_a_block_made_while_a_connection_opens_is_kept_by_it(
    new_client: NewClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    room = bob.post("/api/rooms", json={"game": "cups", "seats": 3}).json()
    assert ada.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    social = ada.app.state.social
    ada_id = ada.get("/api/session").json()["user_id"]
    read_blocks = social.hiding.blocked

    async def read_then_block(user_id: str) -> frozenset[str]:
        """Ada's blocks are read for her new connection; she blocks Bob right after."""
        found: frozenset[str] = await read_blocks(user_id)
        if user_id == ada_id:
            await social.blocks.block(ada_id, "Bob")
        return found

    monkeypatch.setattr(social.hiding, "blocked", read_then_block)
    path = f"/ws/rooms/{room['id']}"
    with ada.websocket_connect(path) as ada_ws, bob.websocket_connect(path) as bob_ws:
        next_of(ada_ws, "chat_log")
        next_of(bob_ws, "chat_log")
        bob_ws.send_json({"type": "chat", "channel": "table", "text": "hidden"})
        assert next_of(bob_ws, "chat")["text"] == "hidden"
        assert chat_until_pong(ada_ws) == []


@pytest.mark.parametrize("asker", ["Ada", "Bob"])
def test_a_rematch_does_not_seat_a_blocked_person_with_the_blocker(
    new_client: NewClient, asker: str
) -> None:
    """Bob blocks Ada after their match: whichever of them asks for the rematch, the new
    table leaves the other's seat free, and the blocker may still take it herself."""
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    room = finished_match(ada, bob)
    assert bob.post("/api/blocks/Ada").status_code == 204

    caller, other = (ada, bob) if asker == "Ada" else (bob, ada)
    asked = caller.post(f"/api/rooms/{room['id']}/rematch")
    assert asked.status_code == 201
    rematch = asked.json()
    assert rematch["host_id"] == caller.get("/api/session").json()["user_id"]
    names = [s and s["name"] for s in rematch["seats"]]
    assert names == (["Ada", None] if asker == "Ada" else [None, "Bob"])
    # The other's ask names the same table, still without them.
    again = other.post(f"/api/rooms/{room['id']}/rematch").json()
    assert again["id"] == rematch["id"]
    assert [s and s["name"] for s in again["seats"]] == names
    if asker == "Ada":  # Bob, the blocker, may sit with her if he wants to
        assert bob.post(f"/api/rooms/{rematch['id']}/join", json={}).status_code == 200
    else:  # Ada may not sit at the table of the person who blocked her
        refused = ada.post(f"/api/rooms/{rematch['id']}/join", json={})
        assert refused.status_code == 403 and refused.json()["code"] == "seat_refused"


def test_a_host_inviting_someone_they_blocked_is_told_to_unblock_first(
    new_client: NewClient,
) -> None:
    """The host's own block answers 409 ``player_blocked`` — also when the invitee blocked
    the host too, or someone seated blocked the invitee, so that neither can be told."""
    ada, bob, cat = (account(new_client, name) for name in ("Ada", "Bob", "Cat"))
    room = ada.post("/api/rooms", json={"game": "cups", "seats": 3}).json()
    invite = f"/api/rooms/{room['id']}/invitations"
    assert cat.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    assert ada.post("/api/blocks/Bob").status_code == 204

    def answered() -> tuple[int, str]:
        reply = ada.post(invite, json={"username": "Bob"})
        return reply.status_code, reply.json()["code"]

    assert answered() == (409, "player_blocked")
    assert cat.post("/api/blocks/Bob").status_code == 204
    assert answered() == (409, "player_blocked")
    assert bob.post("/api/blocks/Ada").status_code == 204
    assert answered() == (409, "player_blocked")
    asked = ada.post("/api/friends/Bob")  # asking to be friends: the same order
    assert (asked.status_code, asked.json()["code"]) == (409, "player_blocked")
    # Unblocked by the host, Bob is hidden again behind the name nobody has.
    assert ada.delete("/api/blocks/Bob").status_code == 204
    assert answered() == (404, "player_not_found")
    assert bob.get("/api/me/invitations").json()["invitations"] == []
