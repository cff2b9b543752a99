"""Table talk over the play socket: who reads each channel, the host's settings and mute,
the limits on what is written and how often, reactions, the log sent on connect, and the
talk in a finished match's review (docs/protocol.md, "Chat and reactions")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from starlette.testclient import WebSocketTestSession

from app import store
from app.chat.text import clean
from app.db import make_engine, make_session_factory
from app.limits.buckets import PerKey
from app.main import create_app
from app.store.database_thread import DatabaseThread
from tests.app.helpers import (
    NewClient,
    account,
    make_app,
    make_settings,
    next_of,
    running,
    started_room,
)
from tests.app.live_clients import UNLIMITED, Factory, Seat

T = TypeVar("T")


def say(ws: WebSocketTestSession, channel: str, text: str) -> None:
    ws.send_json({"type": "chat", "channel": channel, "text": text})


def until_pong(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Everything a connection is sent before the answer to a ping sent now (answers keep
    the order of messages, so whatever was queued for it before is in here)."""
    ws.send_json({"type": "ping"})
    seen = []
    while (message := ws.receive_json())["type"] != "pong":
        seen.append(message)
    return seen


def lines(messages: list[dict[str, Any]]) -> list[str]:
    return [m["text"] for m in messages if m["type"] == "chat"]


def refusal(ws: WebSocketTestSession) -> dict[str, Any]:
    error = next_of(ws, "error")
    assert error["message"]
    return error


def user_id(client: TestClient) -> str:
    return str(client.get("/api/session").json()["user_id"])


def test_table_talk_is_read_by_everyone_in_the_room(new_client: NewClient) -> None:
    ann, bob, eve = new_client("Ann"), new_client("Bob"), new_client("Eve")
    room = started_room(ann, [bob])
    rid = room["id"]
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}") as wa,
        bob.websocket_connect(f"/ws/rooms/{rid}") as wb,
        eve.websocket_connect(f"/ws/rooms/{rid}") as we,
        new_client(None).websocket_connect(f"/ws/rooms/{rid}") as anonymous,
    ):
        for ws in (wa, wb, we, anonymous):
            assert next_of(ws, "chat_log") == {"type": "chat_log", "messages": []}
        say(wa, "table", "Good luck, Bob!")
        heard = [next_of(ws, "chat") for ws in (wa, wb, we, anonymous)]
        assert all(message == heard[0] for message in heard)
        first = heard[0]
        assert first["channel"] == "table" and first["seat"] == 0 and first["name"] == "Ann"
        assert first["text"] == "Good luck, Bob!" and first["user_id"] == user_id(ann)
        assert first["at"].endswith("Z") and isinstance(first["id"], int)
        say(wb, "table", "Thanks")
        second = [next_of(ws, "chat") for ws in (wa, wb, we, anonymous)]
        assert {m["seat"] for m in second} == {1} and second[0]["id"] > first["id"]
        # A watcher does not write to the players' channel; a connection with no session
        # writes nowhere.
        say(we, "table", "Play the queen!")
        assert refusal(we) | {"message": ""} == {
            "type": "error",
            "code": "not_seated",
            "message": "",
            "about": "chat",
        }
        say(anonymous, "watchers", "hello")
        assert refusal(anonymous)["code"] == "no_session"
        for ws in (wa, wb):
            assert lines(until_pong(ws)) == []
    # Talk is not play: the match has not moved.
    assert ann.get(f"/api/rooms/{rid}").json()["version"] == 0


def read_watchers(ws: WebSocketTestSession, on: bool) -> None:
    ws.send_json({"type": "read_watchers", "on": on})


def test_players_read_the_watchers_talk_only_when_they_choose_and_the_host_lets_them(
    new_client: NewClient,
) -> None:
    ann, bob, eve = new_client("Ann"), new_client("Bob"), new_client("Eve")
    room = started_room(ann, [bob])
    rid = room["id"]
    assert room["watchers_chat"] is True
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}") as wa,
        bob.websocket_connect(f"/ws/rooms/{rid}") as wb,
        eve.websocket_connect(f"/ws/rooms/{rid}") as we,
    ):
        for ws in (wa, wb, we):
            next_of(ws, "chat_log")
        # By default the players do not read the watchers' channel, nor write in it.
        say(we, "watchers", "Nice lead")
        message = next_of(we, "chat")
        assert message["channel"] == "watchers" and message["seat"] is None
        assert message["name"] == "Eve" and message["text"] == "Nice lead"
        for ws in (wa, wb):
            assert lines(until_pong(ws)) == []
        say(wb, "watchers", "Thanks, Eve")
        assert refusal(wb)["code"] == "watchers_chat_unread"

        # Bob chooses to read it: he is sent its log, then its lines; Ann still is not.
        read_watchers(wb, True)
        assert lines(next_of(wb, "chat_log")["messages"]) == ["Nice lead"]
        say(wb, "watchers", "Thanks, Eve")
        for ws in (wb, we):
            assert next_of(ws, "chat")["seat"] == 1
        assert lines(until_pong(wa)) == []

        refused = bob.post(f"/api/rooms/{rid}/settings", json={"watchers_chat": False})
        assert refused.status_code == 403 and refused.json()["code"] == "not_host"
        closed = ann.post(f"/api/rooms/{rid}/settings", json={"watchers_chat": False})
        assert closed.status_code == 200 and closed.json()["watchers_chat"] is False
        # Bob is sent the log again, now without the watchers' channel.
        assert lines(next_of(wb, "chat_log")["messages"]) == []
        say(we, "watchers", "The players cannot read this")
        assert next_of(we, "chat")["text"] == "The players cannot read this"
        for ws in (wa, wb):
            assert lines(until_pong(ws)) == []
        say(wb, "watchers", "Can you hear me?")
        assert refusal(wb)["code"] == "watchers_chat_off"
        say(wa, "table", "Still here")
        for ws in (wa, wb, we):
            assert next_of(ws, "chat")["text"] == "Still here"

        assert ann.post(f"/api/rooms/{rid}/settings", json={"watchers_chat": True}).is_success
        assert lines(next_of(wb, "chat_log")["messages"]) == [
            "Nice lead",
            "Thanks, Eve",
            "The players cannot read this",
            "Still here",
        ]
        assert lines(until_pong(wa)) == []
        # Bob changes his mind: the watchers' lines leave his log.
        read_watchers(wb, False)
        assert lines(next_of(wb, "chat_log")["messages"]) == ["Still here"]


def test_at_a_rated_table_the_players_never_read_the_watchers_talk(
    new_client: NewClient,
) -> None:
    ann, bob = account(new_client, "ann_rated"), account(new_client, "bob_rated")
    eve = new_client("Eve")
    room = started_room(ann, [bob], rated=True)
    rid = room["id"]
    assert room["rated"] is True and room["watchers_chat"] is True
    with (
        bob.websocket_connect(f"/ws/rooms/{rid}") as wb,
        eve.websocket_connect(f"/ws/rooms/{rid}") as we,
    ):
        for ws in (wb, we):
            next_of(ws, "chat_log")
        read_watchers(wb, True)
        say(we, "watchers", "Play the queen!")
        assert next_of(we, "chat")["text"] == "Play the queen!"
        assert lines(until_pong(wb)) == []
        say(wb, "watchers", "Which queen?")
        assert refusal(wb)["code"] == "watchers_chat_rated"
    with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
        assert lines(next_of(wb, "chat_log")["messages"]) == []


def test_the_last_hundred_messages_a_reader_may_read_come_on_connect(
    database_url: str, tmp_path: Path
) -> None:
    app = make_app(database_url, tmp_path, rate_per_second=1000.0, rate_burst=1000, chat_burst=500)
    with running(app) as new_client:
        ann, bob, eve = new_client("Ann"), new_client("Bob"), new_client("Eve")
        rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
        assert bob.post(f"/api/rooms/{rid}/join").status_code == 200
        with (
            ann.websocket_connect(f"/ws/rooms/{rid}") as wa,
            eve.websocket_connect(f"/ws/rooms/{rid}") as we,
        ):
            next_of(we, "chat_log")
            for n in range(105):
                say(wa, "table", f"line {n}")
            for _ in range(105):
                next_of(we, "chat")
            for n in range(2):
                say(we, "watchers", f"aside {n}")
                next_of(we, "chat")
        assert ann.post(f"/api/rooms/{rid}/settings", json={"watchers_chat": False}).is_success
        with bob.websocket_connect(f"/ws/rooms/{rid}") as wb:
            log = next_of(wb, "chat_log")["messages"]
            assert lines(log) == [f"line {n}" for n in range(5, 105)]
        with eve.websocket_connect(f"/ws/rooms/{rid}") as we:
            log = next_of(we, "chat_log")["messages"]
            assert lines(log) == [f"line {n}" for n in range(7, 105)] + ["aside 0", "aside 1"]
            assert [m["id"] for m in log] == sorted(m["id"] for m in log)


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("  Hello there  ", "Hello there"),
        ("a\u202eb\u2066c\u2069\x00d", "abcd"),  # overrides, isolates, NUL
        ("two\nlines\tand\r\na tab", "two lines and  a tab"),
        ("\u200fmark\u200e\u061c", "mark"),
        (
            "zero\u200dwidth joiner stays 👩\u200d👩\u200d👧",
            "zero\u200dwidth joiner stays 👩\u200d👩\u200d👧",
        ),
        ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),
        ("\u202e\n \x07", ""),
    ],
)
def test_control_and_bidi_characters_are_removed(typed: str, shown: str) -> None:
    assert clean(typed) == shown


def test_what_is_written_is_cleaned_and_bounded(new_client: NewClient) -> None:
    ann = new_client("Ann")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    with ann.websocket_connect(f"/ws/rooms/{rid}") as wa:
        say(wa, "table", " \u202egg\u202c wp\x1b ")
        assert next_of(wa, "chat")["text"] == "gg wp"
        for text, code in [
            ("", "chat_empty"),
            (" \u202e\u2066\n\t ", "chat_empty"),
            ("x" * 501, "chat_too_long"),
        ]:
            say(wa, "table", text)
            assert refusal(wa) | {"message": ""} == {
                "type": "error",
                "code": code,
                "message": "",
                "about": "chat",
            }
        say(wa, "table", "  " + "y" * 500 + "\u202e ")
        assert next_of(wa, "chat")["text"] == "y" * 500
        for bad in [
            {"type": "chat", "channel": "everyone", "text": "hi"},
            {"type": "chat", "channel": "table"},
            {"type": "chat", "channel": "table", "text": 5},
            {"type": "chat", "channel": "table", "text": "hi", "seat": 0},
        ]:
            wa.send_json(bad)
            assert refusal(wa)["code"] == "bad_message"
        assert lines(until_pong(wa)) == []


def test_a_person_writes_a_burst_of_five_then_one_a_second(
    database_url: str, tmp_path: Path
) -> None:
    app = make_app(database_url, tmp_path, rate_per_second=1000.0, rate_burst=1000)
    now = [100.0]
    with running(app) as new_client:
        app.state.chat.clock = lambda: now[0]
        ann, bob = new_client("Ann"), new_client("Bob")
        room = started_room(ann, [bob])
        with (
            ann.websocket_connect(f"/ws/rooms/{room['id']}") as wa,
            ann.websocket_connect(f"/ws/rooms/{room['id']}") as second_tab,
        ):
            for n in range(5):
                say(wa, "table", f"burst {n}")
                assert next_of(wa, "chat")["text"] == f"burst {n}"
            # The limit is the person's, not the connection's.
            assert [next_of(second_tab, "chat")["text"] for _ in range(5)][-1] == "burst 4"
            say(second_tab, "table", "one more")
            error = refusal(second_tab)
            assert error["code"] == "rate_limited" and error["about"] == "chat"
            now[0] += 0.9
            say(wa, "table", "too soon")
            assert refusal(wa)["code"] == "rate_limited"
            now[0] += 0.1
            say(wa, "table", "a second later")
            assert next_of(wa, "chat")["text"] == "a second later"
            say(wa, "table", "and again")
            assert refusal(wa)["code"] == "rate_limited"
            # Reactions have their own allowance.
            wa.send_json({"type": "react", "reaction": "👍"})
            assert next_of(wa, "reaction")["reaction"] == "👍"
            now[0] += 10
            for n in range(5):
                say(wa, "table", f"later {n}")
                assert next_of(wa, "chat")["text"] == f"later {n}"
            say(wa, "table", "flood")
            assert refusal(wa)["code"] == "rate_limited"
            assert [m["text"] for m in until_pong(wa) if m["type"] == "chat"] == []


def test_per_person_buckets_refill_at_their_rate() -> None:
    limits = PerKey(1.0, 5)
    assert [limits.allow("ann", 0.0) for _ in range(6)] == [True] * 5 + [False]
    assert limits.allow("bob", 0.0)
    assert not limits.allow("ann", 0.99)
    assert limits.allow("ann", 1.0) and not limits.allow("ann", 1.0)
    # With many people talking, only buckets that have filled up again are forgotten: a
    # person still limited stays limited.
    limits.prune_above = 2
    assert limits.allow("cat", 1.5)
    assert not limits.allow("ann", 1.5)


def test_the_host_mutes_a_person_for_the_room(new_client: NewClient) -> None:
    ann, bob, eve = new_client("Ann"), new_client("Bob"), new_client("Eve")
    room = started_room(ann, [bob])
    rid = room["id"]
    with (
        bob.websocket_connect(f"/ws/rooms/{rid}") as wb,
        eve.websocket_connect(f"/ws/rooms/{rid}") as we,
    ):
        next_of(wb, "chat_log")
        read_watchers(wb, True)
        next_of(wb, "chat_log")
        muted = ann.post(f"/api/rooms/{rid}/mute", json={"user_id": user_id(bob)})
        assert muted.status_code == 200 and muted.json()["muted"] == [user_id(bob)]
        say(wb, "table", "Hello?")
        assert refusal(wb) | {"message": ""} == {
            "type": "error",
            "code": "muted",
            "message": "",
            "about": "chat",
        }
        wb.send_json({"type": "react", "reaction": "😢"})
        error = refusal(wb)
        assert error["code"] == "muted" and error["about"] == "react"
        say(we, "watchers", "Eve is not muted")
        for ws in (wb, we):
            assert next_of(ws, "chat")["text"] == "Eve is not muted"
        assert lines(until_pong(we)) == []

        cases = [
            (bob, {"user_id": user_id(ann)}, 403, "not_host"),
            (ann, {"user_id": user_id(ann)}, 422, "bad_request"),
            (ann, {"user_id": "0" * 24}, 404, "user_not_found"),
            (ann, {"user_id": user_id(eve), "extra": 1}, 422, "bad_request"),
        ]
        for client, body, status, code in cases:
            answer = client.post(f"/api/rooms/{rid}/mute", json=body)
            assert (answer.status_code, answer.json()["code"]) == (status, code), body
        assert ann.get(f"/api/rooms/{rid}").json()["muted"] == [user_id(bob)]

        unmuted = ann.post(f"/api/rooms/{rid}/mute", json={"user_id": user_id(bob), "muted": False})
        assert unmuted.json()["muted"] == []
        say(wb, "table", "Back again")
        assert next_of(wb, "chat")["text"] == "Back again"


def test_reactions_reach_everyone_and_are_not_kept(new_client: NewClient) -> None:
    ann, bob, eve = new_client("Ann"), new_client("Bob"), new_client("Eve")
    room = started_room(ann, [bob])
    rid = room["id"]
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}") as wa,
        bob.websocket_connect(f"/ws/rooms/{rid}") as wb,
        eve.websocket_connect(f"/ws/rooms/{rid}") as we,
    ):
        for reaction in ("🎉", "Well played"):
            wb.send_json({"type": "react", "reaction": reaction})
            for ws in (wa, wb, we):
                message = next_of(ws, "reaction")
                assert message | {"at": ""} == {
                    "type": "reaction",
                    "seat": 1,
                    "name": "Bob",
                    "user_id": user_id(bob),
                    "reaction": reaction,
                    "at": "",
                }
        we.send_json({"type": "react", "reaction": "👍"})
        assert refusal(we)["code"] == "not_seated"
        wa.send_json({"type": "react", "reaction": "🍕"})
        error = refusal(wa)
        assert error["code"] == "unknown_reaction" and error["about"] == "react"
        wa.send_json({"type": "react"})
        assert refusal(wa)["code"] == "bad_message"
    with ann.websocket_connect(f"/ws/rooms/{rid}") as wa:
        assert next_of(wa, "chat_log")["messages"] == []


class ChatOutage(DatabaseThread):
    """A database that stops answering chat lines while ``down``."""

    def __init__(self, url: str) -> None:
        super().__init__(make_session_factory(make_engine(url)))
        self.down = False

    async def call(self, function: Callable[..., T], /, **arguments: Any) -> T:
        if self.down and function is store.add_chat:
            raise OperationalError("INSERT INTO chat_messages", {}, OSError("connection refused"))
        return await super().call(function, **arguments)


def test_a_line_said_during_a_database_outage_is_refused_and_can_be_sent_again(
    database_url: str, tmp_path: Path
) -> None:
    storage = ChatOutage(database_url)
    with running(create_app(make_settings(database_url, tmp_path), database=storage)) as clients:
        ann, bob = clients("Ann"), clients("Bob")
        room = started_room(ann, [bob])
        with (
            ann.websocket_connect(f"/ws/rooms/{room['id']}") as wa,
            bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb,
        ):
            next_of(wb, "chat_log")
            storage.down = True
            say(wa, "table", "Can you hear me?")
            error = refusal(wa)
            assert (error["code"], error["about"]) == ("unavailable", "chat")
            assert lines(until_pong(wb)) == []  # nobody was told of a line not stored
            storage.down = False
            say(wa, "table", "Can you hear me?")
            assert next_of(wb, "chat")["text"] == "Can you hear me?"


def test_the_review_shows_the_talk_at_the_move_it_was_said(new_client: NewClient) -> None:
    ann = new_client("Ann")
    rid = ann.post("/api/rooms", json={"game": "cupid", "options": {"target": 10}}).json()["id"]
    assert ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).status_code == 200
    said: list[tuple[str, int]] = []
    with ann.websocket_connect(f"/ws/rooms/{rid}") as ws:
        say(ws, "table", "Before the start")
        next_of(ws, "chat")
        assert ann.post(f"/api/rooms/{rid}/start").status_code == 200
        while True:
            message = next_of(ws, "state")
            view = message["view"]
            if view["over"]:
                break
            if not view["legal_actions"]:
                continue
            # The computer waits for Ann: the table is at this version while she talks (three
            # times: with the lines before and after, a burst of five).
            if len(said) < 3:
                text = f"at move {message['version']}"
                say(ws, "table", text)
                next_of(ws, "chat")
                said.append((text, message["version"]))
            ws.send_json(
                {"type": "act", "version": message["version"], "action": view["legal_actions"][0]}
            )
        say(ws, "table", "Good game")
        next_of(ws, "chat")
        said.append(("Good game", message["version"]))
    match_id = ann.get(f"/api/rooms/{rid}").json()["match_id"]
    review = ann.get(f"/api/matches/{match_id}/review").json()
    assert [(line["text"], line["version"]) for line in review["chat"]] == said
    assert said[-1][1] == len(review["frames"]) - 1
    first = review["chat"][0]
    assert set(first) == {"id", "channel", "seat", "name", "text", "at", "version"}
    assert (first["channel"], first["seat"], first["name"]) == ("table", 0, "Ann")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_talk_and_the_hosts_settings_outlive_a_killed_server(
    live_server_factory: Factory, backend: str, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("postgres_url") if backend == "postgresql" else None
    server = live_server_factory(database_url=url, **UNLIMITED)
    ann, eve = Seat(server, "Ann"), Seat(server, "Eve")
    rid = ann.http.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    for person in (ann, eve):
        person.connect(rid)
        assert person.next_of("chat_log")["messages"] == []
    ann.say("table", "Anyone for a game?")
    said = [eve.next_of("chat")]
    eve.say("watchers", "Just watching")
    said.append(eve.next_of("chat"))
    eve_id = said[1]["user_id"]
    muted = ann.http.post(f"/api/rooms/{rid}/mute", json={"user_id": eve_id})
    assert muted.json()["muted"] == [eve_id]
    closed = ann.http.post(f"/api/rooms/{rid}/settings", json={"watchers_chat": False})
    assert closed.json()["watchers_chat"] is False
    server.kill()  # every line anyone read was committed before it was sent
    for person in (ann, eve):
        person.close()

    restarted = live_server_factory(database_url=server.database_url, **UNLIMITED)
    again = {}
    for name, person in (("ann", ann), ("eve", eve)):
        again[name] = Seat(restarted, None)
        cookie = person.http.cookies.get("parlour_session") or ""
        again[name].http.cookies.set("parlour_session", cookie)
        again[name].connect(rid)
    # Eve watches and reads both channels; Ann, seated, no longer reads the watchers'.
    assert again["eve"].next_of("chat_log")["messages"] == said
    assert again["ann"].next_of("chat_log")["messages"] == said[:1]
    again["eve"].say("watchers", "Still muted?")
    assert again["eve"].next_of("error")["code"] == "muted"
    for person in again.values():
        person.close()
