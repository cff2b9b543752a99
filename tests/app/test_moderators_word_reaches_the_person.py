"""A moderator's word reaches the person at once on every open page (the live channel,
``notice``), and a ban closes the live channel as it closes the play socket — why and
until when, then 4410 — and takes the banned person out of the tables still waiting."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.app.helpers import NewClient, account, room_of
from tests.app.test_moderation import BANNED, moderator


def test_a_warning_a_mute_and_its_lifting_are_told_on_the_persons_open_pages(
    new_client: NewClient,
) -> None:
    cat = account(new_client, "Cat")
    mod = moderator(new_client)
    with cat.websocket_connect("/ws/me") as page, cat.websocket_connect("/ws/me") as other:
        warned = mod.post("/api/moderation/warnings", json={"username": "Cat", "reason": "be kind"})
        assert warned.status_code == 201, warned.text
        told = {"type": "notice", "kind": "warn", "text": "A moderator warns you: be kind"}
        assert page.receive_json() == {**told, "until": None}
        assert other.receive_json() == {**told, "until": None}
        body = {"username": "Cat", "reason": "spam", "minutes": 60}
        muted = mod.post("/api/moderation/mutes", json=body).json()
        notice = page.receive_json()
        assert notice["kind"] == "mute" and notice["until"] == muted["details"]["until"]
        assert notice["text"].startswith("A moderator muted you everywhere until ")
        assert notice["text"].endswith("Reason: spam")
        mod.delete("/api/moderation/mutes/Cat", params={"reason": "appeal"})
        lifted = page.receive_json()
        assert lifted["kind"] == "unmute" and "appeal" in lifted["text"]


def test_a_ban_closes_the_live_channel_saying_why_and_frees_waiting_seats(
    new_client: NewClient,
) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    mod = moderator(new_client)
    waiting = ada.post("/api/rooms", json={"game": "cups", "seats": 3}).json()["id"]
    assert bob.post(f"/api/rooms/{waiting}/join", json={}).status_code == 200
    hosted = bob.post("/api/rooms", json={"game": "cups", "seats": 3}).json()["id"]
    assert ada.post(f"/api/rooms/{hosted}/join", json={}).status_code == 200
    with bob.websocket_connect("/ws/me") as page:
        body = {"username": "Bob", "reason": "cheating", "until": "2099-01-01T00:00:00Z"}
        assert mod.post("/api/moderation/bans", json=body).status_code == 201
        told = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                told.append(page.receive_json())
        assert closed.value.code == BANNED
        assert told[-1] == {
            "type": "banned",
            "reason": "cheating",
            "until": "2099-01-01T00:00:00Z",
            "message": "This account is banned until 2099-01-01 00:00 UTC. Reason: cheating",
        }
    page = bob.get("/friends")  # no session now: the page says why, not "sign up"
    assert "This account is banned until 2099-01-01 00:00 UTC. Reason: cheating" in page.text
    names = [s["name"] if s else None for s in room_of(ada, waiting)["seats"]]
    assert "Bob" not in names and "Ada" in names
    hosted_room = room_of(ada, hosted)
    assert "Bob" not in [s["name"] if s else None for s in hosted_room["seats"]]
    ada_id = ada.get("/api/session").json()["user_id"]
    assert hosted_room["host_id"] == ada_id  # the role passed on as when a host leaves
