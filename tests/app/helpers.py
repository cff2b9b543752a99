"""Helpers for driving the server in tests: app construction (with a clock the test
moves, when time matters), a seated room, and reading messages."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import Engine
from starlette.testclient import WebSocketTestSession

from app.config import Settings
from app.db import make_engine, make_session_factory
from app.main import create_app
from app.models import Match
from app.rooms.signals import Signals
from app.rooms.time_source import iso_at
from tests.app.manual_clock import ManualClock

# Every test client comes from one address ("testclient"): the per-address caps on new
# guests and sign-ups would count every simulated person as one visitor. Their own tests
# set them.
ONE_ADDRESS_MANY_PEOPLE = {
    "guests_per_hour_per_address": 10**6,
    "signups_per_hour_per_address": 10**6,
}


def make_settings(url: str, tmp_path: Path, **overrides: Any) -> Settings:
    """Settings for an app under test: computer players act at once, comings and goings
    are told at once (tests of the gathering set ``presence_delay`` themselves), and no
    finished match is analysed (the analysis tests turn it on with
    ``analysis_poll_seconds``)."""
    defaults = {"bot_delay": 0.0, "presence_delay": 0.0, "analysis_poll_seconds": 0.0}
    return Settings(
        database_url=url,
        secret_key="test-secret",
        data_dir=tmp_path,
        **{**defaults, **ONE_ADDRESS_MANY_PEOPLE, **overrides},
    )


@contextmanager
def running(app: Any) -> Iterator[Callable[[str | None], TestClient]]:
    """Run the app (lifespan included) and hand out clients that share its event loop.

    Each client is a browser's worth: its own cookie jar, with a guest session when named.
    """
    with TestClient(app) as main:

        def new_client(name: str | None = None) -> TestClient:
            client = TestClient(app)
            client.portal = main.portal  # one event loop for every client, as in a server
            if name is not None:
                response = client.post("/api/session", json={"name": name})
                assert response.status_code == 200, response.text
            return client

        yield new_client


def make_app(url: str, tmp_path: Path, **overrides: Any) -> Any:
    return create_app(make_settings(url, tmp_path, **overrides))


def started_room(
    host: TestClient, guests: list[TestClient], game: str = "cupid", **body: Any
) -> dict[str, Any]:
    """Create a room, seat everyone, start it; return the room description."""
    room = host.post("/api/rooms", json={"game": game, "seats": 1 + len(guests), **body}).json()
    for guest in guests:
        assert guest.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    response = host.post(f"/api/rooms/{room['id']}/start")
    assert response.status_code == 200, response.text
    return response.json()


NewClient = Callable[[str | None], TestClient]

PASSWORD = "correct horse battery"


def account(new_client: NewClient, username: str, password: str = PASSWORD) -> TestClient:
    """A browser signed up as ``username`` (a guest first, then the account)."""
    client = new_client(None)
    assert client.post("/api/session", json={"name": "Someone"}).status_code == 200
    response = client.post("/api/accounts", json={"username": username, "password": password})
    assert response.status_code == 201, response.text
    return client


def play_out(clients: list[TestClient], room_id: str) -> dict[str, Any]:
    """The clients (in seat order, from seat 0; computers may hold the later seats) play
    their first legal action until the match is over; returns the last state message."""
    sockets = [c.websocket_connect(f"/ws/rooms/{room_id}") for c in clients]
    connections = [socket.__enter__() for socket in sockets]
    latest: list[dict[str, Any] | None] = [None] * len(connections)

    def seen(seat: int, version: int) -> dict[str, Any]:
        state = latest[seat]
        if state is None or state["version"] < version:
            state = latest[seat] = state_at(connections[seat], version)
        return state

    try:
        version = 0
        while True:
            first = seen(0, version)
            version = first["version"]
            if first["view"]["over"]:
                return first
            mover = first["view"]["to_act"][0]
            if mover >= len(connections):  # a computer's turn
                version += 1
                continue
            state = seen(mover, version)
            if state["version"] == version:
                action = state["view"]["legal_actions"][0]
                connections[mover].send_json({"type": "act", "version": version, "action": action})
                version += 1
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of ``kind``, skipping room/presence notices and the chat log."""
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] in ("room", "state", "chat_log"), message


def state_at(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    """The next state message at ``version`` or later."""
    while True:
        message = next_of(ws, "state")
        if message["version"] >= version:
            return message


class Timed:
    """A running app whose rooms keep time by a :class:`ManualClock`: ``advance`` moves
    time on (on the app's event loop), and nothing waits for real time."""

    def __init__(self, app: Any, main: TestClient, clock: ManualClock) -> None:
        self.app = app
        self.main = main
        self.clock = clock

    def client(self, name: str | None = None) -> TestClient:
        client = TestClient(self.app)
        client.portal = self.main.portal
        if name is not None:
            response = client.post("/api/session", json={"name": name})
            assert response.status_code == 200, response.text
        return client

    def advance(self, seconds: float) -> None:
        assert self.main.portal is not None
        self.main.portal.call(self.clock.advance, seconds)

    def iso(self, after: float = 0.0) -> str:
        """The clock's time now (plus ``after`` seconds) as the wire writes it."""
        return iso_at(self.clock.now() + after) or ""


@contextmanager
def timed_app(
    url: str,
    tmp_path: Path,
    clock: ManualClock | None = None,
    signals: Signals | None = None,
    **overrides: Any,
) -> Iterator[Timed]:
    """An app on ``url`` whose clock the test moves (computer players act at once unless
    ``bot_delay`` says otherwise: a delay passes only when the clock is moved on), telling
    ``signals`` of what happens at turn-based tables."""
    clock = clock or ManualClock()
    settings = make_settings(
        url, tmp_path, **{"rate_per_second": 1000.0, "rate_burst": 1000, **overrides}
    )
    app = create_app(settings, time_source=clock, signals=signals)
    with TestClient(app) as main:
        yield Timed(app, main, clock)


def eventually(check: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    """Poll ``check`` until it returns something true (work the clock set off runs on the
    app's loop after ``advance`` returns); fail after ``timeout`` real seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.01)


def room_of(client: TestClient, room_id: str) -> dict[str, Any]:
    response = client.get(f"/api/rooms/{room_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def finished_match_row(match_id: str, room_id: str) -> Match:
    """A finished Cupid match as the database keeps one, with no players or events, for the
    tests of what is kept about matches."""
    return Match(
        id=match_id,
        room_id=room_id,
        game="cupid",
        seat_count=2,
        options={},
        seed="1",
        seed_hash="h",
        players=[],
        status="finished",
    )


def engine_with_a_match_in_play(database_url: str) -> Engine:
    """An engine on the database, which it gives a Cupid match being played ("m1", of room
    "r1"; no players or events), for the tests of the event log."""
    engine = make_engine(database_url)
    with make_session_factory(engine)() as session:
        row = finished_match_row("m1", "r1")
        row.status = "playing"
        session.add(row)
        session.commit()
    return engine
