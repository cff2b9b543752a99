"""An invitation that can no longer be taken up leaves the invitee's open pages at once:
its table filled and started, or a person seated there blocked them (then the host is
answered as for a name nobody has, and one left over is removed when refused)."""

from __future__ import annotations

from tests.app.helpers import NewClient, account
from tests.app.test_invitations import invitations, invite, table


def test_a_table_that_fills_with_computers_and_starts_closes_the_invitees_notice(
    new_client: NewClient,
) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    room_id = table(ada)
    with bob.websocket_connect("/ws/me") as page:
        invitation = invite(ada, room_id, "Bob").json()
        assert page.receive_json()["type"] == "invitation"
        assert ada.post(f"/api/rooms/{room_id}/bots", json={"seat": 1}).status_code == 200
        assert page.receive_json() == {"type": "invitation_closed", "id": invitation["id"]}
        assert ada.post(f"/api/rooms/{room_id}/start").status_code == 200
        page.send_json({"type": "ping"})
        assert page.receive_json() == {"type": "pong"}  # told once


def test_a_person_seated_who_blocked_the_invitee_makes_the_invitation_unknown(
    new_client: NewClient,
) -> None:
    ada, bob, cat = (account(new_client, name) for name in ("Ada", "Bob", "Cat"))
    room_id = table(bob, seats=3)
    assert cat.post("/api/blocks/Ada").status_code == 204
    assert cat.post(f"/api/rooms/{room_id}/join", json={}).status_code == 200
    refused = invite(bob, room_id, "Ada")
    assert refused.status_code == 404, refused.text
    assert refused.json()["code"] == "player_not_found"
    assert refused.json()["message"] == "There is no player called Ada."
    assert invitations(ada) == []


def test_an_invitation_refused_at_its_seat_is_removed(new_client: NewClient) -> None:
    ada, bob, cat = (account(new_client, name) for name in ("Ada", "Bob", "Cat"))
    room_id = table(bob, seats=3)
    invitation = invite(bob, room_id, "Ada").json()
    assert cat.post("/api/blocks/Ada").status_code == 204
    assert cat.post(f"/api/rooms/{room_id}/join", json={}).status_code == 200
    with ada.websocket_connect("/ws/me") as page:
        accepted = ada.post(f"/api/me/invitations/{invitation['id']}/accept")
        assert accepted.status_code == 403 and accepted.json()["code"] == "seat_refused"
        assert page.receive_json() == {"type": "invitation_closed", "id": invitation["id"]}
    assert invitations(ada) == []
