"""Clients of a real server process for the live tests: a browser's worth per seat."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any, Protocol

import httpx
import orjson
from websockets.sync.client import ClientConnection, connect

import games
from app.i18n.accounts import view_in
from tests.app.redis_server import RedisServer
from tests.conftest import LiveServer
from tests.games.randomplay import card_codes_in, current_deal


class Reachable(Protocol):
    """Where a client reaches the site: a server process, or a proxy in front of several."""

    @property
    def url(self) -> str: ...

    @property
    def ws_url(self) -> str: ...


class Seat:
    """One browser's worth: a guest session and one WebSocket to a room."""

    def __init__(self, server: Reachable, name: str | None) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=10)
        if name is not None:
            assert self.http.post("/api/session", json={"name": name}).status_code == 200
        self.ws: ClientConnection | None = None
        self.states: list[dict[str, Any]] = []

    def connect(self, room_id: str, query: str = "") -> None:
        """Open the room's socket; ``query`` is added to its address (``?lang=es``)."""
        cookie = self.http.cookies.get("parlour_session")
        headers = {"Cookie": f"parlour_session={cookie}"} if cookie else {}
        self.ws = connect(
            f"{self.server.ws_url}/ws/rooms/{room_id}{query}",
            additional_headers=headers,
            legacy=True,
        )

    def receive(self) -> dict[str, Any]:
        assert self.ws is not None
        message = orjson.loads(self.ws.recv(timeout=20))
        if message["type"] == "state":
            self.states.append(message)
        return message

    def state_at(self, version: int) -> dict[str, Any]:
        """The first state at ``version`` or later (already received, or the next ones)."""
        if self.states and self.states[-1]["version"] >= version:
            return self.states[-1]
        while True:
            message = self.receive()
            assert message["type"] != "error", message
            if message["type"] == "state" and message["version"] >= version:
                return message

    def next_of(self, kind: str) -> dict[str, Any]:
        """The next message of ``kind``, past room, state and chat-log messages."""
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message
            assert message["type"] in ("room", "state", "chat_log"), message

    def say(self, channel: str, text: str) -> None:
        assert self.ws is not None
        self.ws.send(orjson.dumps({"type": "chat", "channel": channel, "text": text}).decode())

    def read_watchers(self, on: bool) -> None:
        """A player's choice whether this connection reads the watchers' channel."""
        assert self.ws is not None
        self.ws.send(orjson.dumps({"type": "read_watchers", "on": on}).decode())

    def act(self, version: int, action: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(orjson.dumps({"type": "act", "version": version, "action": action}).decode())

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
        self.http.close()


def open_room(
    server: LiveServer, game: str, names: list[str], options: dict[str, Any]
) -> tuple[str, list[Seat]]:
    seats = [Seat(server, name) for name in names]
    room = (
        seats[0]
        .http.post("/api/rooms", json={"game": game, "seats": len(names), "options": options})
        .json()
    )
    for seat in seats[1:]:
        assert seat.http.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    assert seats[0].http.post(f"/api/rooms/{room['id']}/start").status_code == 200
    return room["id"], seats


Factory = Callable[..., LiveServer]
# These clients act the instant they may; the rate limit has its own test (test_ws.py).
UNLIMITED = {"RATE_PER_SECOND": "1000", "RATE_BURST": "1000"}


def play(
    seats: list[Seat],
    watchers: list[Seat],
    version: int,
    rng: random.Random,
    stop_after: int | None,
) -> int:
    """Each awaited seat plays a random legal action until the end (or ``stop_after``)."""
    current = {i: s.state_at(version) for i, s in enumerate(seats)}
    for watcher in watchers:
        watcher.state_at(version)
    played = 0
    while not current[0]["view"]["over"]:
        if stop_after is not None and played >= stop_after:
            break
        seat = rng.choice(current[0]["view"]["to_act"])
        view = current[seat]["view"]
        seats[seat].act(version, rng.choice(view["legal_actions"]))
        version += 1
        played += 1
        current = {i: s.state_at(version) for i, s in enumerate(seats)}
        for watcher in watchers:
            watcher.state_at(version)
    return version


def check_against_truth(
    server: LiveServer, room_id: str, connections: dict[int | None, Seat]
) -> dict[str, Any]:
    """Rebuild every version from the revealed seed; each received view must be exact."""
    http = next(iter(connections.values())).http
    room = http.get(f"/api/rooms/{room_id}").json()
    record = http.get(f"/api/matches/{room['match_id']}").json()
    assert record["status"] == "finished"
    rules = games.get(record["game"])
    actions = [(event["seat"], event["action"]) for event in record["events"]]
    states = list(
        games.states(
            rules, record["seat_count"], int(record["seed"]), record["options"], None, actions
        )
    )
    deck = frozenset(rules.deck(record["seat_count"], record["options"]))
    checked = 0
    for seat, connection in connections.items():
        assert connection.states, "a connection received no state"
        for message in connection.states:
            truth = states[message["version"]]
            assert message["seat"] == seat
            assert message["view"] == view_in(rules.view(truth, seat), "en")
            shown = card_codes_in(current_deal(rules, message["view"]), deck)
            leaked = shown & rules.hidden_cards(truth, seat)
            assert not leaked, f"seat {seat} was sent cards it may not know: {leaked}"
            checked += 1
    assert rules.scores(states[-1]) == record["scores"]
    return {"record": record, "checked": checked}


def two_processes_caching_identities(
    live_server_factory: Callable[..., LiveServer], postgres_url: str, redis_server: RedisServer
) -> tuple[LiveServer, LiveServer]:
    """Two server processes sharing the rooms through PostgreSQL and Redis, whose identities
    stay cached for an hour: only the word through Redis can end a session's sockets on the
    other process."""
    env = {
        "REDIS_URL": redis_server.url,
        "REDIS_PREFIX": f"test{secrets.token_hex(3)}",
        "SESSION_CACHE_SECONDS": "3600",
    }
    one, two = (live_server_factory(database_url=postgres_url, **env) for _ in range(2))
    return one, two
