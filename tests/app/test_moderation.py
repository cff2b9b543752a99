"""Reports and moderation over HTTP and the play socket: any account reports a person with
the evidence attached by the server; moderators work the queue and warn, mute site-wide,
ban, delete chat lines and close tables, each action in the audit log; the people muted or
banned are told why and until when."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.admin import change_role
from app.models import Room
from tests.app.helpers import PASSWORD, NewClient, account, next_of, started_room
from tests.app.test_chat import say, until_pong, user_id

BANNED = 4410


def moderator(new_client: NewClient, username: str = "Mod") -> TestClient:
    """An account given the moderator's role (as ``python -m app.admin`` gives it)."""
    client = account(new_client, username)
    change_role(client.app.state.sessions, "grant", username)
    return client


def said(ws: WebSocketTestSession, channel: str, text: str) -> dict[str, Any]:
    """Say a line and return it as the speaker's socket is sent it (with its id)."""
    say(ws, channel, text)
    return next(m for m in until_pong(ws) if m["type"] == "chat" and m["text"] == text)


def error_of(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


# --- reports ---------------------------------------------------------------------------------


def test_a_report_from_a_chat_line_carries_the_line_and_the_speakers_talk_there(
    new_client: NewClient,
) -> None:
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    mod = moderator(new_client)
    room = started_room(ann, [bob])
    with bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb:
        first = said(wb, "table", "you are all idiots")
        said(wb, "table", "and cheats")
    body = {"username": "Bob", "reason": "abuse", "text": "rude", "chat_id": first["id"]}
    response = ann.post("/api/reports", json=body)
    assert response.status_code == 201, response.text
    assert response.json()["status"] == "open"
    [report] = mod.get("/api/moderation/reports").json()["reports"]
    assert (report["reporter"], report["username"], report["reason"]) == ("Ann", "Bob", "abuse")
    assert report["room_id"] == room["id"] and report["match_id"] == room["match_id"]
    evidence = report["evidence"]
    assert evidence["line"]["text"] == "you are all idiots"
    assert [line["text"] for line in evidence["lines"]] == ["you are all idiots", "and cheats"]


def test_reports_from_a_player_page_and_from_a_table(new_client: NewClient) -> None:
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    mod = moderator(new_client)
    room = started_room(ann, [bob])
    page = {"username": "Bob", "reason": "cheating", "text": "plays too well"}
    assert ann.post("/api/reports", json=page).status_code == 201
    table = {"username": "Bob", "reason": "spam", "text": "", "room_id": room["id"]}
    assert ann.post("/api/reports", json=table).status_code == 201
    by_page, by_table = mod.get("/api/moderation/reports").json()["reports"]
    assert by_page["room_id"] is None and "lines" not in by_page["evidence"]
    assert by_table["room_id"] == room["id"] and by_table["evidence"]["lines"] == []
    assert by_table["evidence"]["game"] == "cupid"


def test_a_guests_line_is_reported_under_the_name_it_shows(new_client: NewClient) -> None:
    ann, guest = account(new_client, "Ann"), new_client("Pest")
    mod = moderator(new_client)
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    with guest.websocket_connect(f"/ws/rooms/{room['id']}") as wg:
        line = said(wg, "watchers", "spam spam spam")
    body = {"username": "Pest", "reason": "spam", "text": "", "chat_id": line["id"]}
    assert ann.post("/api/reports", json=body).status_code == 201
    [report] = mod.get("/api/moderation/reports").json()["reports"]
    assert report["user_id"] == user_id(guest) and report["name"] == "Pest"


def test_reports_are_refused_with_a_reason(new_client: NewClient) -> None:
    ann, bob, guest = account(new_client, "Ann"), account(new_client, "Bob"), new_client("Gus")
    room = started_room(ann, [bob])
    with ann.websocket_connect(f"/ws/rooms/{room['id']}") as wa:
        anns = said(wa, "table", "hello")
    ok = {"username": "Bob", "reason": "abuse", "text": ""}
    assert error_of(guest.post("/api/reports", json=ok)) == (403, "not_an_account")
    assert error_of(new_client(None).post("/api/reports", json=ok)) == (401, "no_session")
    cases = [
        ({**ok, "reason": "ugly"}, (422, "bad_reason")),
        ({**ok, "username": "Nobody"}, (404, "player_not_found")),
        ({**ok, "username": "Ann"}, (422, "report_self")),
        ({**ok, "chat_id": anns["id"]}, (422, "bad_evidence")),
        ({**ok, "chat_id": 999999}, (404, "chat_not_found")),
        ({**ok, "room_id": "nosuchroom"}, (404, "room_not_found")),
        ({**ok, "text": "x" * 1001}, (422, "bad_text")),
    ]
    for body, expected in cases:
        assert error_of(ann.post("/api/reports", json=body)) == expected, body
    mod = moderator(new_client)
    assert mod.get("/api/moderation/reports").json()["reports"] == []


def test_a_reporter_may_send_only_so_many_reports_an_hour(new_client: NewClient) -> None:
    ann = account(new_client, "Ann")
    account(new_client, "Bob")
    body = {"username": "Bob", "reason": "spam", "text": ""}
    for _ in range(10):
        assert ann.post("/api/reports", json=body).status_code == 201
    assert error_of(ann.post("/api/reports", json=body)) == (429, "too_many_reports")


# --- who may moderate --------------------------------------------------------------------------


MODERATOR_ROUTES = [
    ("get", "/api/moderation/reports", None),
    ("get", "/api/moderation/log", None),
    ("get", "/api/moderation/people/Bob", None),
    ("post", "/api/moderation/bans", {"username": "Bob", "reason": "x"}),
    ("post", "/api/moderation/mutes", {"username": "Bob", "reason": "x", "minutes": 5}),
    ("post", "/api/moderation/warnings", {"username": "Bob", "reason": "x"}),
    ("delete", "/api/moderation/bans/Bob", None),
    ("delete", "/api/moderation/chat/1", None),
    ("post", "/api/moderation/rooms/r1/close", {"reason": "x"}),
    ("post", "/api/moderation/reports/1", {"status": "dismissed"}),
]


@pytest.mark.parametrize("who", ["nobody", "guest", "account"])
def test_only_moderators_may_moderate(new_client: NewClient, who: str) -> None:
    account(new_client, "Bob")
    caller = {
        "nobody": lambda: new_client(None),
        "guest": lambda: new_client("Gus"),
        "account": lambda: account(new_client, "Ann"),
    }[who]()
    for method, path, body in MODERATOR_ROUTES:
        response = caller.request(method.upper(), path, json=body)
        assert error_of(response) == (403, "not_moderator"), (method, path)


def test_the_command_line_grants_and_revokes_the_role(new_client: NewClient) -> None:
    ann = account(new_client, "Ann")
    sessions = ann.app.state.sessions
    assert ann.get("/api/moderation/reports").status_code == 403
    assert change_role(sessions, "grant", "ann") == "Ann is now a moderator"
    assert change_role(sessions, "grant", "Ann") == "Ann was a moderator already"
    assert ann.get("/api/moderation/reports").status_code == 200
    assert change_role(sessions, "revoke", "Ann") == "Ann is no longer a moderator"
    assert error_of(ann.get("/api/moderation/reports")) == (403, "not_moderator")
    with pytest.raises(LookupError, match="no account called Nobody"):
        change_role(sessions, "grant", "Nobody")
    mod = moderator(new_client)
    entries = mod.get("/api/moderation/log").json()["entries"]
    assert [(e["action"], e["target"], e["moderator"]) for e in entries] == [
        ("grant_moderator", "Mod", None),
        ("revoke_moderator", "Ann", None),
        ("grant_moderator", "Ann", None),
    ]


# --- the actions ---------------------------------------------------------------------------------


def test_a_muted_person_is_refused_everywhere_saying_why_and_until_when(
    new_client: NewClient,
) -> None:
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    mod = moderator(new_client)
    room = started_room(ann, [bob])
    other = bob.post("/api/rooms", json={"game": "cupid"}).json()
    body = {"username": "Bob", "reason": "insults", "minutes": 60}
    muted = mod.post("/api/moderation/mutes", json=body)
    assert muted.status_code == 201, muted.text
    until = muted.json()["details"]["until"]
    for room_id, channel in ((room["id"], "table"), (other["id"], "table")):
        with bob.websocket_connect(f"/ws/rooms/{room_id}") as wb:
            say(wb, channel, "still here")
            error = next_of(wb, "error")
            assert error["code"] == "site_muted"
            assert (
                "insults" in error["message"] and until[:16].replace("T", " ") in error["message"]
            )
    standing = bob.get("/api/me/moderation").json()
    assert standing["sanctions"][0]["kind"] == "mute"
    assert standing["sanctions"][0]["reason"] == "insults"
    assert standing["sanctions"][0]["until"] == until
    assert mod.delete("/api/moderation/mutes/Bob", params={"reason": "served"}).status_code == 200
    with bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb:
        assert said(wb, "table", "sorry")["text"] == "sorry"
    assert error_of(mod.delete("/api/moderation/mutes/Bob", params={"reason": "again"})) == (
        404,
        "not_muted",
    )


def test_a_site_wide_mute_refuses_reactions_too(new_client: NewClient) -> None:
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    mod = moderator(new_client)
    room = started_room(ann, [bob])
    body = {"username": "Bob", "reason": "taunting", "minutes": 60}
    assert mod.post("/api/moderation/mutes", json=body).status_code == 201
    path = f"/ws/rooms/{room['id']}"
    with bob.websocket_connect(path) as wb, ann.websocket_connect(path) as wa:
        next_of(wb, "state")
        wb.send_json({"type": "react", "reaction": "👍"})
        error = next_of(wb, "error")
        assert error["code"] == "site_muted" and "taunting" in error["message"]
        assert [m for m in until_pong(wa) if m["type"] == "reaction"] == []
        wa.send_json({"type": "react", "reaction": "👍"})
        assert next_of(wb, "reaction")["name"] == "Ann"  # Ann is not muted


def test_a_warning_is_shown_to_the_person_warned(new_client: NewClient) -> None:
    bob = account(new_client, "Bob")
    mod = moderator(new_client)
    assert bob.get("/api/me/moderation").json() == {"sanctions": [], "warnings": []}
    body = {"username": "Bob", "reason": "keep it civil"}
    assert mod.post("/api/moderation/warnings", json=body).status_code == 201
    [warning] = bob.get("/api/me/moderation").json()["warnings"]
    assert warning["reason"] == "keep it civil"
    assert error_of(mod.post("/api/moderation/warnings", json={**body, "reason": " "})) == (
        422,
        "bad_reason",
    )
    assert error_of(mod.post("/api/moderation/warnings", json={**body, "username": "Mod"})) == (
        422,
        "moderate_self",
    )


def test_a_ban_closes_the_sockets_ends_the_sessions_and_refuses_login_and_new_guests(
    new_client: NewClient,
) -> None:
    ann = account(new_client, "Ann")
    bob = account(new_client, "Bob")
    mod = moderator(new_client)
    room = started_room(ann, [bob])
    path = f"/ws/rooms/{room['id']}"
    with bob.websocket_connect(path) as wb, ann.websocket_connect(path) as wa:
        next_of(wb, "state")
        body = {"username": "Bob", "reason": "cheating", "until": "2099-01-01T00:00:00Z"}
        banned = mod.post("/api/moderation/bans", json=body)
        assert banned.status_code == 201, banned.text
        assert banned.json()["details"]["sessions_ended"] == 1
        told = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                told.append(wb.receive_json())
        assert closed.value.code == BANNED
        # The page is told why and until when just before the close.
        assert told[-1] == {
            "type": "banned",
            "reason": "cheating",
            "until": "2099-01-01T00:00:00Z",
            "message": "This account is banned until 2099-01-01 00:00 UTC. Reason: cheating",
        }
        assert until_pong(wa) is not None  # Ann plays on
    assert error_of(bob.get("/api/session")) == (401, "no_session")
    login = bob.post("/api/login", json={"username": "Bob", "password": PASSWORD})
    assert error_of(login) == (403, "banned")
    assert "2099-01-01 00:00 UTC" in login.json()["message"]
    assert "cheating" in login.json()["message"]
    wrong = bob.post("/api/login", json={"username": "Bob", "password": "not it at all"})
    assert error_of(wrong) == (401, "bad_login")  # a guesser learns nothing of the ban
    # The banned browser gets no guest, nor does another at its address (every test client
    # has the same one: tests/app/test_bans_cover_fresh_guests.py tells addresses apart).
    assert error_of(bob.post("/api/session", json={"name": "Bobby"})) == (403, "banned")
    assert error_of(new_client(None).post("/api/session", json={"name": "Bobby"})) == (
        403,
        "banned",
    )
    unbanned = mod.delete("/api/moderation/bans/Bob", params={"reason": "appeal granted"})
    assert unbanned.status_code == 200, unbanned.text
    again = bob.post("/api/login", json={"username": "Bob", "password": PASSWORD})
    assert again.status_code == 200, again.text


def test_a_ban_must_end_in_the_future(new_client: NewClient) -> None:
    account(new_client, "Bob")
    mod = moderator(new_client)
    body = {"username": "Bob", "reason": "x", "until": "2001-01-01T00:00:00Z"}
    assert error_of(mod.post("/api/moderation/bans", json=body)) == (422, "bad_duration")
    assert error_of(
        mod.post("/api/moderation/bans", json={"username": "Nobody", "reason": "x"})
    ) == (
        404,
        "player_not_found",
    )


def test_a_deleted_line_is_gone_from_the_live_chat_the_log_the_review_and_the_transcript(
    new_client: NewClient,
) -> None:
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    mod = moderator(new_client)
    watcher = new_client("Wat")
    room = started_room(ann, [bob])
    path = f"/ws/rooms/{room['id']}"
    with bob.websocket_connect(path) as wb, watcher.websocket_connect(path) as ww:
        bad = said(wb, "table", "something vile")
        said(wb, "table", "good game")
        deleted = mod.delete(f"/api/moderation/chat/{bad['id']}", params={"reason": "slur"})
        assert deleted.status_code == 200, deleted.text
        gone = [m for m in until_pong(ww) if m["type"] == "chat_deleted"]
        assert gone == [{"type": "chat_deleted", "id": bad["id"], "channel": "table"}]
    with watcher.websocket_connect(path) as ww:
        log = next_of(ww, "chat_log")["messages"]
        assert [m["text"] for m in log] == ["good game"]
    assert error_of(
        mod.delete(f"/api/moderation/chat/{bad['id']}", params={"reason": "again"})
    ) == (404, "chat_not_found")
    closed = mod.post(f"/api/moderation/rooms/{room['id']}/close", json={"reason": "cleanup"})
    assert closed.status_code == 200, closed.text
    review = ann.get(f"/api/matches/{room['match_id']}/review").json()
    assert [line["text"] for line in review["chat"]] == ["good game"]
    transcript = ann.get(f"/api/matches/{room['match_id']}/transcript.txt").text
    assert "good game" in transcript and "vile" not in transcript
    [entry, *_] = mod.get("/api/moderation/log").json()["entries"][1:]
    assert entry["action"] == "delete_chat" and entry["target"] == "Bob"
    assert entry["details"]["text"] == "something vile" and entry["reason"] == "slur"


def test_closing_tables_waiting_and_in_play(new_client: NewClient) -> None:
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    mod = moderator(new_client)
    waiting = ann.post("/api/rooms", json={"game": "cupid"}).json()
    playing = started_room(ann, [bob])
    reason = {"reason": "abusive table name"}
    for room, status in ((waiting, "closed"), (playing, "abandoned")):
        assert ann.get(f"/api/rooms/{room['id']}").json()["closed_by"] is None
        response = mod.post(f"/api/moderation/rooms/{room['id']}/close", json=reason)
        assert response.status_code == 200, response.text
        described = ann.get(f"/api/rooms/{room['id']}").json()
        # The room page words it: "A moderator closed this table."
        assert (described["status"], described["closed_by"]) == (status, "moderator")
        with ann.app.state.sessions() as session:  # kept for when the room loads again
            row = session.get(Room, room["id"])
            assert row is not None and row.closed_by == "moderator"
        again = mod.post(f"/api/moderation/rooms/{room['id']}/close", json=reason)
        assert error_of(again) == (409, "table_ended")
    assert error_of(mod.post("/api/moderation/rooms/nosuch/close", json=reason)) == (
        404,
        "room_not_found",
    )


def test_reports_are_resolved_by_actions_or_dismissed_and_the_log_says_who_did_what(
    new_client: NewClient,
) -> None:
    ann = account(new_client, "Ann")
    account(new_client, "Bob")
    mod = moderator(new_client)
    body = {"username": "Bob", "reason": "abuse", "text": "he swore"}
    first = ann.post("/api/reports", json=body).json()["id"]
    second = ann.post("/api/reports", json=body).json()["id"]
    warn = {"username": "Bob", "reason": "swearing", "report_ids": [first]}
    assert mod.post("/api/moderation/warnings", json=warn).status_code == 201
    [left] = mod.get("/api/moderation/reports").json()["reports"]
    assert left["id"] == second
    dismissed = mod.post(f"/api/moderation/reports/{second}", json={"status": "dismissed"})
    assert dismissed.status_code == 200, dismissed.text
    assert mod.get("/api/moderation/reports").json()["reports"] == []
    again = mod.post(f"/api/moderation/reports/{second}", json={"status": "resolved"})
    assert error_of(again) == (409, "report_handled")
    handled = mod.get("/api/moderation/reports", params={"status": "resolved"}).json()
    assert [(r["id"], r["handled_by"]) for r in handled["reports"]] == [(first, "Mod")]
    entries = mod.get("/api/moderation/log").json()["entries"]
    top = [(e["moderator"], e["action"], e["target"], e["reason"]) for e in entries[:2]]
    assert top == [("Mod", "dismiss", "Bob", "dismissed"), ("Mod", "warn", "Bob", "swearing")]
    assert entries[1]["details"] == {"reports": [first]} and entries[0]["at"].endswith("Z")
    page = mod.get("/api/moderation/log", params={"before": entries[0]["id"], "limit": 1})
    assert [e["action"] for e in page.json()["entries"]] == ["warn"]


def test_a_persons_record_for_the_moderators(new_client: NewClient) -> None:
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    mod = moderator(new_client)
    room = started_room(ann, [bob])
    with bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb:
        said(wb, "table", "hello all")
    ann.post("/api/reports", json={"username": "Bob", "reason": "other", "text": "odd"})
    mod.post("/api/moderation/mutes", json={"username": "Bob", "reason": "calm", "minutes": 5})
    record = mod.get("/api/moderation/people/bob").json()
    assert record["user"]["username"] == "Bob" and record["user"]["moderator"] is False
    assert [line["text"] for line in record["chat"]] == ["hello all"]
    assert [m["id"] for m in record["matches"]] == [room["match_id"]]
    assert [r["text"] for r in record["reports"]] == ["odd"]
    assert [s["kind"] for s in record["sanctions"]] == ["mute"]
    assert [e["action"] for e in record["log"]] == ["mute"]
    by_id = mod.get(f"/api/moderation/people/{record['user']['user_id']}").json()
    assert by_id["user"] == record["user"]


def test_the_moderation_page_and_the_report_form_on_player_pages(new_client: NewClient) -> None:
    ann = account(new_client, "Ann")
    account(new_client, "Bob")
    page = ann.get("/moderation")
    assert page.status_code == 200 and "pages/moderation" in page.text
    assert 'id="player-report"' in ann.get("/players/Bob").text
    assert 'id="player-report"' not in ann.get("/players/Ann").text  # not yourself
    assert 'id="player-report"' not in new_client("Gus").get("/players/Bob").text


def test_a_guest_seated_at_a_table_is_reported_from_it_by_the_name_it_shows(
    new_client: NewClient,
) -> None:
    ann, guest = account(new_client, "Ann"), new_client("Pest")
    mod = moderator(new_client)
    room = started_room(ann, [guest])
    with guest.websocket_connect(f"/ws/rooms/{room['id']}") as wg:
        said(wg, "table", "spam spam spam")
    # The room page's "Report a player" menu (talk/report-table.js) sends this.
    assert 'id="report-person"' in ann.get(f"/rooms/{room['id']}").text
    body = {"username": "Pest", "reason": "spam", "text": "", "room_id": room["id"]}
    response = ann.post("/api/reports", json=body)
    assert response.status_code == 201, response.text
    [report] = mod.get("/api/moderation/reports").json()["reports"]
    assert (report["name"], report["user_id"]) == ("Pest", user_id(guest))
    assert [line["text"] for line in report["evidence"]["lines"]] == ["spam spam spam"]
    # Not a name seated there: nobody to report.
    wrong = {**body, "username": "Nobody"}
    assert error_of(ann.post("/api/reports", json=wrong)) == (404, "player_not_found")
