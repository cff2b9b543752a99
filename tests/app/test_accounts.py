"""Accounts: a guest becomes an account and keeps every match; logging in elsewhere shows
them; logging out (here, or everywhere) ends sessions at once; usernames and table names
that look alike are refused (the limits on failed logins: test_login_limits.py).

Each test runs on SQLite and, where TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.app.helpers import PASSWORD, NewClient, account
from tests.app.test_api import error_of, play_out_seat0
from tests.app.test_moderation import moderator

CYRILLIC_ANN = "\u0410nn"  # "Ann" with a Cyrillic capital A
FULLWIDTH_ANN = "\uff21\uff2e\uff2e"  # "ANN" in full-width letters


def finished_guest_match(client: TestClient) -> str:
    """The guest plays a Coins match against two computers to the end; its match id."""
    body = {"game": "coins", "seats": 3, "options": {"target": 10}}
    rid = client.post("/api/rooms", json=body).json()["id"]
    for seat in (1, 2):
        client.post(f"/api/rooms/{rid}/bots", json={"seat": seat})
    room = client.post(f"/api/rooms/{rid}/start").json()
    play_out_seat0(client, rid)
    return str(room["match_id"])


def test_a_guests_matches_survive_sign_up_and_follow_a_login_elsewhere(
    new_client: NewClient,
) -> None:
    guest = new_client("Ann")
    guest_id = guest.get("/api/session").json()["user_id"]
    match_id = finished_guest_match(guest)
    old_cookie = guest.cookies.get("parlour_session")

    signed_up = guest.post("/api/accounts", json={"username": "Ann", "password": PASSWORD})
    assert signed_up.status_code == 201, signed_up.text
    assert signed_up.json() == {"user_id": guest_id, "name": "Ann", "username": "Ann"}
    # The session was replaced: the guest's old cookie names nothing now.
    assert guest.cookies.get("parlour_session") != old_cookie
    stale = new_client(None)
    stale.cookies.set("parlour_session", old_cookie or "")
    error_of(stale.get("/api/session"), 401, "no_session")
    mine = guest.get("/api/matches", params={"user": "me"}).json()["matches"]
    assert [m["id"] for m in mine] == [match_id]
    assert mine[0]["seats"][0]["username"] == "Ann"

    # A second browser (its own cookies) logs in and sees the same matches.
    phone = new_client(None)
    logged_in = phone.post("/api/login", json={"username": "ann", "password": PASSWORD})
    assert logged_in.status_code == 200, logged_in.text
    assert logged_in.json() == {"user_id": guest_id, "name": "Ann", "username": "Ann"}
    assert phone.get("/api/session").json()["username"] == "Ann"
    assert [m["id"] for m in phone.get("/api/matches?user=me").json()["matches"]] == [match_id]
    assert phone.get("/api/players/Ann").json()["games"][0]["played"] == 1


def test_logout_ends_one_session_and_logout_everywhere_ends_them_all(
    new_client: NewClient,
) -> None:
    laptop = account(new_client, "Bea")
    phone, tablet = new_client(None), new_client(None)
    for browser in (phone, tablet):
        response = browser.post("/api/login", json={"username": "Bea", "password": PASSWORD})
        assert response.status_code == 200, response.text
        # Each browser's identity is now cached in the server: the logout must reach it.
        assert browser.get("/api/session").json()["username"] == "Bea"

    assert tablet.post("/api/logout").json() == {"sessions_ended": 1}
    error_of(tablet.get("/api/session"), 401, "no_session")
    assert phone.get("/api/session").status_code == 200

    assert laptop.post("/api/logout/everywhere").json() == {"sessions_ended": 2}
    for browser in (laptop, phone):
        error_of(browser.get("/api/session"), 401, "no_session")
    # Logged out, a page only offers a guest name; doing something makes the new guest.
    phone.get("/")
    error_of(phone.get("/api/session"), 401, "no_session")
    assert phone.post("/api/session", json={"name": "Phone"}).json()["username"] is None
    assert phone.get("/api/session").json()["username"] is None
    again = phone.post("/api/login", json={"username": "Bea", "password": PASSWORD})
    assert again.status_code == 200


def test_usernames_and_table_names_that_look_alike_are_refused(new_client: NewClient) -> None:
    account(new_client, "Ann")
    for lookalike in (CYRILLIC_ANN, FULLWIDTH_ANN, "ann", "ANN"):
        other = new_client("Someone")
        response = other.post("/api/accounts", json={"username": lookalike, "password": PASSWORD})
        error_of(response, 409, "username_taken")
        # Nor may a guest call themselves by it.
        error_of(other.post("/api/session", json={"name": lookalike}), 409, "name_taken")
    # "BiII" (capital i's) looks like "Bill".
    account(new_client, "Bill")
    error_of(
        new_client("X").post("/api/accounts", json={"username": "BiII", "password": PASSWORD}),
        409,
        "username_taken",
    )

    # At a table: a guest called like someone already seated is refused.
    bob = new_client("Bob")
    room = bob.post("/api/rooms", json={"game": "coins", "seats": 3}).json()
    twin = new_client("\u0412\u043eb")  # "Bob" with a Cyrillic B and o
    error_of(twin.post(f"/api/rooms/{room['id']}/join", json={}), 409, "name_taken")
    assert new_client("Cleo").post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200


@pytest.mark.parametrize(
    "lookalike",
    [
        "\u1d00nn2",  # a small capital A
        "\u1d00\u0274\u02742",  # small capitals A, N, N
        "An\u19522",  # TAI LE LETTER NGA for the second n
        "\u1d00\u1db0n2",  # a modifier small capital N (NFKC folds it to the small capital)
    ],
)
def test_usernames_in_small_capitals_or_look_alike_letters_are_taken(
    new_client: NewClient, lookalike: str
) -> None:
    account(new_client, "Ann2")
    other = new_client("Someone")
    response = other.post("/api/accounts", json={"username": lookalike, "password": PASSWORD})
    error_of(response, 409, "username_taken")
    error_of(other.post("/api/session", json={"name": lookalike}), 409, "name_taken")
    session = other.get("/api/session").json()
    assert (session["name"], session["username"]) == ("Someone", None)


def test_account_refusals_have_their_codes(new_client: NewClient) -> None:
    nobody = new_client(None)
    error_of(
        nobody.post("/api/accounts", json={"username": "Dan", "password": PASSWORD}),
        401,
        "no_session",
    )
    guest = new_client("Dan")
    for username in ("D", "x" * 21, "has space", "_under", "dan/../x"):
        response = guest.post("/api/accounts", json={"username": username, "password": PASSWORD})
        error_of(response, 422, "bad_username")
    for password in ("short", "y" * 129):
        response = guest.post("/api/accounts", json={"username": "Dan", "password": password})
        error_of(response, 422, "bad_password")
    error_of(guest.post("/api/logout"), 403, "not_an_account")
    error_of(guest.post("/api/logout/everywhere"), 403, "not_an_account")
    assert guest.post("/api/accounts", json={"username": "Dan", "password": PASSWORD}).is_success
    error_of(
        guest.post("/api/accounts", json={"username": "Dan2", "password": PASSWORD}),
        409,
        "already_account",
    )
    error_of(guest.post("/api/session", json={"name": "Danny"}), 409, "account_name")
    stranger = new_client(None)
    error_of(
        stranger.post("/api/login", json={"username": "Dan", "password": "wrong!!!"}),
        401,
        "bad_login",
    )
    error_of(
        stranger.post("/api/login", json={"username": "Nobody", "password": PASSWORD}),
        401,
        "bad_login",
    )
    error_of(stranger.post("/api/login", json={"username": "Dan"}), 422, "bad_request")
    error_of(stranger.get("/api/players/Nobody"), 404, "player_not_found")


def test_a_capital_i_does_not_hide_an_account_in_any_case(new_client: NewClient) -> None:
    """The look-alike key takes a capital I for an l ("ALICE" -> "allce"), a small i not:
    every lookup by name also tries the case-folded spelling, without changing stored keys."""
    alice = account(new_client, "alice")
    account(new_client, "Ivan")  # stored under the key "lvan"
    bob = account(new_client, "Bob")
    alice_id = alice.get("/api/session").json()["user_id"]

    for taken in ("ALICE", "Alice", "aLIcE", "ivan", "IVAN", "iVAN"):
        guest = new_client(None)
        guest.post("/api/session", json={"name": "Someone"})
        made = guest.post("/api/accounts", json={"username": taken, "password": PASSWORD})
        assert (made.status_code, made.json()["code"]) == (409, "username_taken"), taken

    for typed in ("ALICE", "alice", "AlIcE"):
        browser = new_client(None)
        logged = browser.post("/api/login", json={"username": typed, "password": PASSWORD})
        assert logged.status_code == 200 and logged.json()["user_id"] == alice_id, typed
    browser = new_client(None)
    logged = browser.post("/api/login", json={"username": "ivan", "password": PASSWORD})
    assert logged.status_code == 200 and logged.json()["username"] == "Ivan"

    asked = bob.post("/api/friends/ALICE")
    assert asked.status_code == 200 and asked.json() == {"username": "alice", "status": "asked"}
    assert bob.post("/api/friends/ivan").json()["username"] == "Ivan"
    room = bob.post("/api/rooms", json={"game": "cups", "seats": 3}).json()
    invited = bob.post(f"/api/rooms/{room['id']}/invitations", json={"username": "ALICE"})
    assert invited.status_code == 201 and invited.json()["username"] == "alice"
    assert bob.get("/api/players/ALICE").json()["username"] == "alice"
    assert bob.post("/api/blocks/ALICE").status_code == 204

    mod = moderator(new_client)
    looked = mod.get("/api/moderation/people/ALICE")
    assert looked.status_code == 200 and looked.json()["user"]["user_id"] == alice_id
    warned = mod.post("/api/moderation/warnings", json={"username": "ALICE", "reason": "test"})
    assert warned.status_code == 201
    # A guest may not take an account's name in another case, nor sit at a table under a
    # name that differs from a seated one only by case.
    guest = new_client(None)
    named = guest.post("/api/session", json={"name": "ALICE"})
    assert (named.status_code, named.json()["code"]) == (409, "name_taken")
    assert new_client("mia").post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    joined = new_client("MIA").post(f"/api/rooms/{room['id']}/join", json={})
    assert (joined.status_code, joined.json()["code"]) == (409, "name_taken")
