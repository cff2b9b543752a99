"""Clients of a real server process for the live tests: a browser's worth per seat."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
from websockets.sync.client import ClientConnection, connect

from tests.conftest import LiveServer


class Seat:
    """One browser's worth: a guest session and one WebSocket to a room."""

    def __init__(self, server: LiveServer, name: str | None) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=10)
        if name is not None:
            assert self.http.post("/api/session", json={"name": name}).status_code == 200
        self.ws: ClientConnection | None = None
        self.states: list[dict[str, Any]] = []

    def connect(self, room_id: str) -> None:
        cookie = self.http.cookies.get("parlour_session")
        headers = {"Cookie": f"parlour_session={cookie}"} if cookie else {}
        self.ws = connect(
            f"{self.server.ws_url}/ws/rooms/{room_id}", additional_headers=headers, legacy=True
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
