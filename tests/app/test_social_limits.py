"""Friend asks and invitations are limited: an account asks so many people an hour, a host
sends so many invitations an hour (429 ``too_many_friend_requests``,
``too_many_invitations``, saying when to try again), and an invitation renewed to the same
person at the same table reaches their notification channels once per notice window — so
nobody can flood another person's pages, e-mail or webhook by asking and withdrawing, or
inviting again and again."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.rooms.signals import Invited
from tests.app.helpers import account, make_app, make_settings, running
from tests.app.test_invitations import SignalRecorder, invite, table


def refused(response: Any, code: str) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["code"] == code
    assert "try again in" in response.json()["message"]


def friend_messages_until_pong(page: Any) -> list[str]:
    page.send_json({"type": "ping"})
    seen = []
    while (message := page.receive_json())["type"] != "pong":
        seen.append(message["type"])
    return seen


def test_asking_and_withdrawing_again_and_again_is_stopped(
    database_url: str, tmp_path: Path
) -> None:
    with running(make_app(database_url, tmp_path, friend_requests_per_hour=3)) as new_client:
        ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
        with bob.websocket_connect("/ws/me") as bob_page:
            for _ in range(3):
                assert ada.post("/api/friends/Bob").json()["status"] == "asked"
                assert ada.delete("/api/friends/Bob").status_code == 204
            refused(ada.post("/api/friends/Bob"), "too_many_friend_requests")
            assert ada.delete("/api/friends/Bob").json()["code"] == "not_friends"
            told = friend_messages_until_pong(bob_page)
        assert told == ["friend_request", "friend_removed"] * 3
        # The limit is Ada's: Bob may still ask her, and she is told.
        assert bob.post("/api/friends/Ada").json()["status"] == "asked"


def test_a_host_sends_only_so_many_invitations_an_hour(database_url: str, tmp_path: Path) -> None:
    with running(make_app(database_url, tmp_path, invitations_per_hour=3)) as new_client:
        ada, cat = account(new_client, "Ada"), account(new_client, "Cat")
        account(new_client, "Bob")
        room_id = table(ada)
        for _ in range(3):  # renewing counts as sending
            assert invite(ada, room_id, "Bob").status_code == 201
        refused(invite(ada, room_id, "Bob"), "too_many_invitations")
        refused(invite(ada, table(ada), "Cat"), "too_many_invitations")
        # Another host is not held by Ada's count.
        assert invite(cat, table(cat), "Bob").status_code == 201


def test_a_renewed_invitation_reaches_the_notification_channels_once_a_window(
    database_url: str, tmp_path: Path
) -> None:
    recorder = SignalRecorder()
    told = recorder.told

    settings = make_settings(database_url, tmp_path, invitation_notice_seconds=1.0)
    with running(create_app(settings, signals=recorder)) as new_client:
        ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
        bob_id = bob.get("/api/session").json()["user_id"]
        room_id = table(ada)
        for _ in range(5):
            assert invite(ada, room_id, "Bob").status_code == 201
        other = table(ada)  # another table is another invitation: told
        assert invite(ada, other, "Bob").status_code == 201
        invited = [s for s in told if isinstance(s, Invited)]
        assert [(s.user_id, s.room_id) for s in invited] == [(bob_id, room_id), (bob_id, other)]
        time.sleep(1.1)  # the window ended: renewed now, it is sent again
        assert invite(ada, room_id, "Bob").status_code == 201
        assert len([s for s in told if isinstance(s, Invited)]) == 3
        assert len(bob_invitations(bob)) == 2


def bob_invitations(client: TestClient) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get("/api/me/invitations").json()["invitations"]
    return found
