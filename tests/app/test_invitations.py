"""Invitations to a seat: the host invites an account by username; the invitee is told at
once on every open page (or through the notification channels when none is open), lists
and accepts (a seat taken) or declines (the host is told); an invitation ends with its
table's waiting. Only the host invites; an unknown name is 404 ``player_not_found``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.models import Invitation
from app.rooms.signals import Invited, Signal
from app.store.rooms import update_room
from tests.app.helpers import NewClient, account, make_settings, running


class SignalRecorder:
    """The notification signals an app emits, kept in order (``create_app(signals=...)``)."""

    def __init__(self) -> None:
        self.told: list[Signal] = []

    def emit(self, signal: Signal) -> None:
        self.told.append(signal)


def table(host: TestClient, seats: int = 2) -> str:
    game = "cupid" if seats == 2 else "cups"
    room = host.post("/api/rooms", json={"game": game, "seats": seats}).json()
    return str(room["id"])


def invite(host: TestClient, room_id: str, username: str) -> Any:
    return host.post(f"/api/rooms/{room_id}/invitations", json={"username": username})


def invitations(client: TestClient) -> list[dict[str, Any]]:
    response = client.get("/api/me/invitations")
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["invitations"]
    return found


def test_the_invitee_is_told_at_once_and_accepting_takes_a_seat(new_client: NewClient) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    room_id = table(ada)
    with bob.websocket_connect("/ws/me") as bob_page, ada.websocket_connect("/ws/me") as ada_page:
        sent = invite(ada, room_id, "Bob")
        assert sent.status_code == 201, sent.text
        wire = {"id": sent.json()["id"], "room_id": room_id, "game": "cupid", "from": "Ada"}
        assert bob_page.receive_json() == {"type": "invitation", "invitation": wire}
        assert invitations(bob) == [wire]

        accepted = bob.post(f"/api/me/invitations/{wire['id']}/accept")
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["seat"] == 1
        assert accepted.json()["room"]["seats"][1]["name"] == "Bob"
        told = ada_page.receive_json()
        assert told == {
            "type": "invitation_accepted",
            "id": wire["id"],
            "room_id": room_id,
            "by": "Bob",
        }
        assert bob_page.receive_json() == {"type": "invitation_closed", "id": wire["id"]}
    assert invitations(bob) == []
    again = bob.post(f"/api/me/invitations/{wire['id']}/accept")
    assert again.status_code == 404 and again.json()["code"] == "invitation_not_found"


def test_declining_tells_the_host(new_client: NewClient) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    room_id = table(ada)
    invitation = invite(ada, room_id, "Bob").json()
    with ada.websocket_connect("/ws/me") as ada_page:
        assert bob.post(f"/api/me/invitations/{invitation['id']}/decline").status_code == 204
        assert ada_page.receive_json() == {
            "type": "invitation_declined",
            "id": invitation["id"],
            "room_id": room_id,
            "by": "Bob",
        }
    assert invitations(bob) == []
    seats = ada.get(f"/api/rooms/{room_id}").json()["seats"]
    assert seats[1] is None or seats[1].get("name") is None


def test_only_the_host_invites_and_only_accounts_are_invited(new_client: NewClient) -> None:
    ada, bob, cat = (account(new_client, name) for name in ("Ada", "Bob", "Cat"))
    room_id = table(ada, seats=3)
    bob.post(f"/api/rooms/{room_id}/join", json={})
    not_host = invite(bob, room_id, "Cat")
    assert not_host.status_code == 403 and not_host.json()["code"] == "not_host"
    guest = new_client("Gus")
    for name in ("Nobody", "Gus"):
        unknown = invite(ada, room_id, name)
        assert unknown.status_code == 404
        assert unknown.json() == {
            "code": "player_not_found",
            "message": f"There is no player called {name}.",
            "detail": f"There is no player called {name}.",
        }
    seated = invite(ada, room_id, "Bob")
    assert seated.status_code == 409 and seated.json()["code"] == "already_seated"
    assert invitations(cat) == [] and invitations(bob) == []
    assert guest.get("/api/me/invitations").json()["code"] == "not_an_account"
    other = cat.post("/api/me/invitations/nope/accept")
    assert other.status_code == 404 and other.json()["code"] == "invitation_not_found"


def test_someone_elses_invitation_cannot_be_answered(new_client: NewClient) -> None:
    ada, bob, cat = (account(new_client, name) for name in ("Ada", "Bob", "Cat"))
    invitation = invite(ada, table(ada), "Bob").json()
    for verb in ("accept", "decline"):
        response = cat.post(f"/api/me/invitations/{invitation['id']}/{verb}")
        assert response.status_code == 404 and response.json()["code"] == "invitation_not_found"
    assert [i["id"] for i in invitations(bob)] == [invitation["id"]]


def test_an_invitation_expires_with_its_tables_waiting(new_client: NewClient) -> None:
    ada, bob, cat = (account(new_client, name) for name in ("Ada", "Bob", "Cat"))
    room_id = table(ada)
    invitation = invite(ada, room_id, "Bob").json()
    assert cat.post(f"/api/rooms/{room_id}/join", json={}).status_code == 200  # now full
    assert invitations(bob) == []
    expired = bob.post(f"/api/me/invitations/{invitation['id']}/accept")
    assert expired.status_code == 410 and expired.json()["code"] == "invitation_expired"
    assert ada.post(f"/api/rooms/{room_id}/start").status_code == 200
    late = invite(ada, room_id, "Bob")
    assert late.status_code == 409 and late.json()["code"] == "not_waiting"


def test_an_invitee_with_no_page_open_is_told_through_the_notification_channels(
    database_url: str, tmp_path: Path
) -> None:
    recorder = SignalRecorder()
    told = recorder.told

    app = create_app(make_settings(database_url, tmp_path), signals=recorder)
    with running(app) as new_client:
        ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
        room_id = table(ada)
        first = invite(ada, room_id, "Bob").json()
        bob_id = bob.get("/api/session").json()["user_id"]
        assert told == [Invited(bob_id, room_id, "cupid", "Ada", first["id"])]
        with bob.websocket_connect("/ws/me") as bob_page:
            second = invite(ada, table(ada), "Bob").json()
            assert bob_page.receive_json()["invitation"]["id"] == second["id"]
        assert len(told) == 1  # Bob had a page open: the page told him


def test_a_tables_start_or_closing_marks_its_invitations_expired(new_client: NewClient) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    started, closed = table(ada), table(ada)
    first, second = (invite(ada, room_id, "Bob").json()["id"] for room_id in (started, closed))
    assert ada.post(f"/api/rooms/{started}/bots", json={"seat": 1}).status_code == 200
    assert ada.post(f"/api/rooms/{started}/start").status_code == 200
    with ada.app.state.sessions() as session:  # as the lobby closes a table left alone
        update_room(session=session, room_id=closed, changes={"status": "closed", "code": None})

    def expired(invitation_id: str) -> bool:
        with ada.app.state.sessions() as session:
            return session.get(Invitation, invitation_id).expired_at is not None

    assert expired(first) and expired(second)
    for invitation_id in (first, second):  # a late answer still says why
        late = bob.post(f"/api/me/invitations/{invitation_id}/accept")
        assert late.status_code == 410 and late.json()["code"] == "invitation_expired"
        with ada.app.state.sessions() as session:
            assert session.get(Invitation, invitation_id) is None  # then it is gone
