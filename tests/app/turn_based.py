"""Helpers for the turn-based tests: a recording of the signals the rooms emit, opening a
turn-based table, playing its moves over the socket, and a server restarted on the same
database with the same people."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.rooms.pace import DAY
from app.rooms.signals import Signal
from tests.app.helpers import Timed, room_of, state_at, timed_app
from tests.app.manual_clock import ManualClock


class RecordingSignals:
    """Keeps every signal emitted, in order."""

    def __init__(self) -> None:
        self.emitted: list[Signal] = []

    def emit(self, signal: Signal) -> None:
        self.emitted.append(signal)

    def of(self, kind: type[Any]) -> list[Any]:
        return [signal for signal in self.emitted if isinstance(signal, kind)]


def user_id(client: TestClient) -> str:
    return str(client.get("/api/session").json()["user_id"])


def turn_based_room(
    timed: Timed,
    names: list[str],
    *,
    game: str = "cupid",
    days: int = 3,
    start: bool = True,
    people: list[TestClient] | None = None,
    **body: Any,
) -> tuple[str, list[TestClient]]:
    """A turn-based table at which ``names`` (new guests), or ``people``, sit in order (the
    first hosts), started unless told otherwise; its id and the people's clients."""
    clients = people or [timed.client(name) for name in names]
    response = clients[0].post(
        "/api/rooms",
        json={
            "game": game,
            "seats": len(clients),
            "pace": "turn_based",
            "days_per_move": days,
            **body,
        },
    )
    assert response.status_code == 201, response.text
    room_id = str(response.json()["id"])
    for client in clients[1:]:
        assert client.post(f"/api/rooms/{room_id}/join", json={}).status_code == 200
    if start:
        started = clients[0].post(f"/api/rooms/{room_id}/start")
        assert started.status_code == 200, started.text
    return room_id, clients


def play_moves(clients: list[TestClient], room_id: str, most: int) -> dict[str, Any]:
    """The people (``clients`` in seat order) play the last legal action of whoever is
    awaited, at most ``most`` moves or to the end; returns seat 0's last state message."""
    sockets = [c.websocket_connect(f"/ws/rooms/{room_id}") for c in clients]
    connections = [socket.__enter__() for socket in sockets]
    latest: list[dict[str, Any] | None] = [None] * len(connections)

    def seen(seat: int, version: int) -> dict[str, Any]:
        state = latest[seat]
        if state is None or state["version"] < version:
            state = latest[seat] = state_at(connections[seat], version)
        return state

    try:
        version = room_of(clients[0], room_id)["version"]
        for _ in range(most):
            first = seen(0, version)
            if first["view"]["over"]:
                return first
            mover = first["view"]["to_act"][0]
            action = seen(mover, version)["view"]["legal_actions"][-1]
            connections[mover].send_json({"type": "act", "version": version, "action": action})
            version += 1
        return seen(0, version)
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)


@contextmanager
def restarted(
    database_url: str,
    tmp_path: Path,
    clients: list[TestClient],
    clock: ManualClock,
    signals: RecordingSignals | None = None,
    **overrides: Any,
) -> Iterator[tuple[Timed, list[TestClient]]]:
    """A new server on the same database, its clock at ``clock``'s time, and the same
    people (their cookies) as clients of it."""
    with timed_app(
        database_url, tmp_path, ManualClock(clock.now()), signals, **overrides
    ) as server:
        again = []
        for client in clients:
            fresh = server.client()
            fresh.cookies.update(dict(client.cookies))
            again.append(fresh)
        yield server, again


def days(n: float) -> float:
    return n * DAY
