"""Turn-based tables and the notification channels together: when Bob moves and Ann, who
is not at the table, is to act next, one e-mail reaches the SMTP server and one POST her
webhook, each with the table's link; a turn taken before its notice is due is not told."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.app.helpers import PASSWORD, Timed, eventually, room_of, state_at
from tests.app.live_clients import UNLIMITED, Factory, Seat
from tests.app.notifying import (
    account,
    deliver,
    notifications,
    notifying_app,
    table_url,
    user_id,
)
from tests.app.receivers import HttpReceiver, MailStore, http_receiver, smtp_server, text_of
from tests.app.turn_based import turn_based_room

DELAY = 20.0


def written(timed: Timed) -> None:
    """Wait until every signal emitted so far is in the outbox."""
    portal = timed.main.portal
    assert portal is not None
    portal.call(notifications(timed).written)


def awaited(client: TestClient, room_id: str) -> str | None:
    """The user id of whoever the table awaits now, from its public description."""
    described = room_of(client, room_id)
    for seat in described["seats"]:
        if seat.get("deadline") is not None:
            return str(seat["user_id"])
    return None


def move(client: TestClient, room_id: str) -> None:
    """The person connects, plays their last legal action, sees it taken, and leaves."""
    version = room_of(client, room_id)["version"]
    with client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
        state = state_at(socket, version)
        action = state["view"]["legal_actions"][-1]
        socket.send_json({"type": "act", "version": version, "action": action})
        state_at(socket, version + 1)


def until_bob_hands_ann_the_turn(timed: Timed, ann: TestClient, bob: TestClient, room: str) -> None:
    """Moves are played (each by whoever is awaited) until Bob's move makes it Ann's turn."""
    people = {user_id(ann): ann, user_id(bob): bob}
    for _ in range(40):
        mover = awaited(ann, room)
        assert mover is not None, "the match ended before Bob handed Ann the turn"
        move(people[mover], room)
        if mover == user_id(bob) and awaited(ann, room) == user_id(ann):
            return
    raise AssertionError("Bob never handed Ann the turn")


def settings_for(hook_url: str) -> dict[str, Any]:
    return {
        "email": "ann@example.org",
        "email_turns": True,
        "webhook_url": hook_url,
        "webhook_turns": True,
    }


@contextmanager
def ann_awaited_after_bobs_move(
    database_url: str, tmp_path: Path
) -> Iterator[tuple[Timed, TestClient, str, MailStore, HttpReceiver]]:
    """A turn-based Cupid table where Bob's move has just made it Ann's turn (every move
    before played at once), Ann's e-mail and webhook set; the app, Ann, the table and what
    the SMTP server and the webhook's receiver got."""
    with (
        smtp_server() as (mail, port),
        http_receiver() as hook,
        notifying_app(database_url, tmp_path, port, turn_notice_delay_seconds=DELAY) as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        assert ann.put("/api/me/notifications", json=settings_for(hook.url("/hook"))).is_success
        room, _ = turn_based_room(timed, [], people=[ann, bob], days=2)
        until_bob_hands_ann_the_turn(timed, ann, bob, room)
        written(timed)
        yield timed, ann, room, mail, hook


def test_bob_moving_tells_ann_by_email_and_webhook(database_url: str, tmp_path: Path) -> None:
    with ann_awaited_after_bobs_move(database_url, tmp_path) as (timed, _, room, mail, hook):
        # Every turn before this one was taken at once: none of them is told.
        timed.advance(DELAY)
        deliver(timed)

        (message,) = mail.messages
        assert message["To"] == "ann@example.org"
        assert table_url(room) in text_of(message)
        (post,) = hook.requests
        assert json.loads(post.body)["url"] == table_url(room)
        deliver(timed)
        assert len(mail.messages) == 1 and len(hook.requests) == 1


def test_a_turn_taken_before_its_notice_is_due_is_not_told(
    database_url: str, tmp_path: Path
) -> None:
    with ann_awaited_after_bobs_move(database_url, tmp_path) as (timed, ann, room, mail, hook):
        timed.advance(DELAY - 1)
        deliver(timed)
        assert mail.messages == [] and hook.requests == []
        move(ann, room)  # Ann plays along before the notice is due
        written(timed)
        timed.advance(1)
        deliver(timed)
        assert mail.messages == [] and hook.requests == []


def test_a_running_server_emails_and_posts_anns_turn_with_its_own_address(
    live_server_factory: Factory,
) -> None:
    """As a person would see it: `python -m app.serve` with only SMTP configured (no
    PUBLIC_URL), its delivery worker running by itself; Bob's move reaches Ann's mailbox
    and webhook, each with the table's link at the address the server listens on."""
    with smtp_server() as (mail, port), http_receiver() as hook:
        server = live_server_factory(
            SMTP_HOST="127.0.0.1",
            SMTP_PORT=str(port),
            EMAIL_CONFIRMATION="off",
            NOTIFY_POLL_SECONDS="1",
            **UNLIMITED,
        )
        ann, bob = Seat(server, "Ann"), Seat(server, "Bob")
        for seat, username in ((ann, "ann"), (bob, "bob")):
            body = {"username": username, "password": PASSWORD}
            assert seat.http.post("/api/accounts", json=body).status_code == 201
        saved = ann.http.put("/api/me/notifications", json=settings_for(hook.url("/hook")))
        assert saved.status_code == 200, saved.text
        room = ann.http.post(
            "/api/rooms",
            json={"game": "cupid", "seats": 2, "pace": "turn_based", "days_per_move": 1},
        ).json()["id"]
        assert bob.http.post(f"/api/rooms/{room}/join", json={}).status_code == 200
        assert ann.http.post(f"/api/rooms/{room}/start").status_code == 200
        people = {ann.http.get("/api/session").json()["user_id"]: ann}
        people[bob.http.get("/api/session").json()["user_id"]] = bob

        def awaited_now() -> str | None:
            described = ann.http.get(f"/api/rooms/{room}").json()
            held = [s["user_id"] for s in described["seats"] if s["deadline"] is not None]
            return held[0] if held else None

        for _ in range(40):
            mover = awaited_now()
            assert mover is not None, "the match ended before Bob handed Ann the turn"
            seat = people[mover]
            version = seat.http.get(f"/api/rooms/{room}").json()["version"]
            seat.connect(room)
            action = seat.state_at(version)["view"]["legal_actions"][-1]
            seat.act(version, action)
            seat.state_at(version + 1)
            assert seat.ws is not None
            seat.ws.close()
            seat.states.clear()
            if seat is bob and people.get(awaited_now() or "") is ann:
                break
        else:
            raise AssertionError("Bob never handed Ann the turn")

        link = f"{server.url}/rooms/{room}"
        eventually(lambda: mail.messages and hook.requests, "Ann's e-mail and webhook", 60)
        (message,) = mail.messages
        assert message["To"] == "ann@example.org" and link in text_of(message)
        (post,) = hook.requests
        assert json.loads(post.body)["url"] == link
        ann.close()
        bob.close()
