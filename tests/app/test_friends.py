"""Friends: asked by username, accepted by asking back (or declined, removed), listed with
who is online — a Parlour page open on the live channel — and at which public table.
Guests are told to sign up."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.helpers import NewClient, account


def friends(client: TestClient) -> dict[str, object]:
    response = client.get("/api/friends")
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def test_an_ask_accepted_makes_friends_both_ways(new_client: NewClient) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    asked = ada.post("/api/friends/bob")  # any case, as a username is looked up
    assert asked.status_code == 200 and asked.json() == {"username": "Bob", "status": "asked"}
    assert friends(ada) == {"friends": [], "incoming": [], "outgoing": ["Bob"]}
    assert friends(bob) == {"friends": [], "incoming": ["Ada"], "outgoing": []}

    accepted = bob.post("/api/friends/Ada")
    assert accepted.json() == {"username": "Ada", "status": "friends"}
    listed = friends(ada)
    assert listed["incoming"] == [] and listed["outgoing"] == []
    assert listed["friends"] == [
        {"username": "Bob", "online": False, "room_id": None, "game": None, "joinable": False}
    ]
    assert [f["username"] for f in friends(bob)["friends"]] == ["Ada"]  # type: ignore[attr-defined]


def test_declining_and_removing(new_client: NewClient) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    ada.post("/api/friends/Bob")
    assert bob.delete("/api/friends/Ada").status_code == 204  # declined
    assert friends(ada)["outgoing"] == [] and friends(bob)["incoming"] == []
    ada.post("/api/friends/Bob")
    bob.post("/api/friends/Ada")
    assert ada.delete("/api/friends/Bob").status_code == 204  # removed
    assert friends(bob)["friends"] == []
    again = ada.delete("/api/friends/Bob")
    assert again.status_code == 404 and again.json()["code"] == "not_friends"


def test_unknown_names_yourself_and_guests_are_refused(new_client: NewClient) -> None:
    ada = account(new_client, "Ada")
    unknown = ada.post("/api/friends/Nobody")
    assert unknown.status_code == 404 and unknown.json()["code"] == "player_not_found"
    yourself = ada.post("/api/friends/Ada")
    assert yourself.status_code == 422 and yourself.json()["code"] == "not_yourself"
    guest = new_client("Gus")
    for response in (guest.get("/api/friends"), guest.post("/api/friends/Ada")):
        assert response.status_code == 403
        assert response.json()["code"] == "not_an_account"
        assert "create one" in response.json()["message"]
    assert friends(ada) == {"friends": [], "incoming": [], "outgoing": []}


def test_a_friend_with_a_page_open_is_online_at_their_public_table(new_client: NewClient) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    ada.post("/api/friends/Bob")
    bob.post("/api/friends/Ada")
    room = bob.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
    hidden = bob.post("/api/rooms", json={"game": "cupid", "seats": 2, "visibility": "private"})
    assert hidden.status_code == 201
    (offline,) = friends(ada)["friends"]  # type: ignore[misc]
    assert offline["online"] is False and offline["room_id"] is None
    with bob.websocket_connect("/ws/me"):
        (online,) = friends(ada)["friends"]  # type: ignore[misc]
        # The public table is named (a seat is free: Ada may join); the private one never.
        assert online == {
            "username": "Bob",
            "online": True,
            "room_id": room["id"],
            "game": "cupid",
            "joinable": True,
        }
    (gone,) = friends(ada)["friends"]  # type: ignore[misc]
    assert gone["online"] is False


def test_asks_and_acceptances_reach_the_open_pages_at_once(new_client: NewClient) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    with bob.websocket_connect("/ws/me") as bob_page, ada.websocket_connect("/ws/me") as ada_page:
        ada.post("/api/friends/Bob")
        assert bob_page.receive_json() == {"type": "friend_request", "from": "Ada"}
        bob.post("/api/friends/Ada")
        assert ada_page.receive_json() == {"type": "friend_accepted", "by": "Bob"}
        bob_page.send_json({"type": "ping"})
        assert bob_page.receive_json() == {"type": "pong"}


def test_the_live_channel_closes_when_its_session_ends_and_needs_one(
    new_client: NewClient,
) -> None:
    ada = account(new_client, "Ada")
    with ada.websocket_connect("/ws/me") as page:
        page.send_json({"type": "ping"})
        assert page.receive_json() == {"type": "pong"}
        assert ada.post("/api/logout").is_success
        closed = page.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 4401
    nobody = new_client(None)
    with nobody.websocket_connect("/ws/me") as page:
        assert page.receive_json()["code"] == "no_session"
        assert page.receive()["code"] == 4401
