"""Ending a friendship reaches the other person's open pages, and a request the server
cannot read is answered in plain words, a name too long for any account without being
repeated back."""

from __future__ import annotations

from tests.app.helpers import NewClient, account


def test_removing_a_friend_is_told_to_them_at_once(new_client: NewClient) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    ada.post("/api/friends/Bob")
    bob.post("/api/friends/Ada")
    with ada.websocket_connect("/ws/me") as ada_page:
        assert bob.delete("/api/friends/Ada").status_code == 204
        assert ada_page.receive_json() == {"type": "friend_removed", "by": "Bob"}
    assert ada.get("/api/friends").json()["friends"] == []


def test_a_body_that_is_not_json_is_answered_in_a_sentence(new_client: NewClient) -> None:
    ada = account(new_client, "Ada")
    for path in ("/api/reports", "/api/rooms"):
        headers = {"content-type": "application/json"}
        response = ada.post(path, content=b"{not json", headers=headers)
        assert response.status_code == 422
        assert response.json()["code"] == "bad_request"
        assert response.json()["message"] == "The request body is not valid JSON."


def test_a_name_longer_than_any_username_is_refused_as_the_invitation_refuses_it(
    new_client: NewClient,
) -> None:
    ada = account(new_client, "Ada")
    room_id = ada.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    long = "x" * 300
    answers = [
        ada.post(f"/api/friends/{long}"),
        ada.post(f"/api/blocks/{long}"),
        ada.post(f"/api/rooms/{room_id}/invitations", json={"username": long}),
    ]
    for response in answers:
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "bad_request"
        assert long not in response.json()["message"]
        assert "40" in response.json()["message"]
