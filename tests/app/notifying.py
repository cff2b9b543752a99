"""Helpers for the notification tests: an app whose notifications go to real loopback
servers and whose delivery worker the test drives round by round on a hand-moved clock,
and tables at which a chosen person is awaited."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.notifications.outbox import Notifications
from app.rooms.signals import Signal, TurnAwaits
from tests.app.helpers import PASSWORD, Timed, timed_app
from tests.app.manual_clock import ManualClock

PUBLIC_URL = "https://parlour.test"


@contextmanager
def notifying_app(
    url: str, tmp_path: Path, smtp_port: int, clock: ManualClock | None = None, **overrides: Any
) -> Iterator[Timed]:
    """An app that e-mails through 127.0.0.1:``smtp_port``; no worker loop runs (the test
    calls ``deliver``), and addresses count as confirmed unless the test says otherwise."""
    settings: dict[str, Any] = {
        "smtp_host": "127.0.0.1",
        "smtp_port": smtp_port,
        "smtp_from": "Parlour <parlour@parlour.test>",
        "email_confirmation": "off",
        "notify_poll_seconds": 0,
        "turn_notice_delay_seconds": 0,
        "public_url": PUBLIC_URL,
        # The tables stand for turn-based ones: nobody at them for hours is no reason to
        # abandon them.
        "stale_after": 10**8,
        "absence_grace": 10**8,
        **overrides,
    }
    with timed_app(url, tmp_path, clock, **settings) as timed:
        yield timed


def notifications(timed: Timed) -> Notifications:
    found: Notifications = timed.app.state.notifications
    return found


def emit(timed: Timed, signal: Signal) -> None:
    """Emit as the rooms do (on the event loop), and wait until it is in the outbox."""
    portal = timed.main.portal
    assert portal is not None
    portal.call(notifications(timed).emit, signal)
    portal.call(notifications(timed).written)


def deliver(timed: Timed) -> int:
    """One round of the delivery worker; how many outbox rows it claimed."""
    portal = timed.main.portal
    assert portal is not None
    return int(portal.call(notifications(timed).deliver_once))


def account(timed: Timed, username: str) -> TestClient:
    client = timed.client("Someone")
    response = client.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return client


def user_id(client: TestClient) -> str:
    return str(client.get("/api/session").json()["user_id"])


def awaited(timed: Timed, room_id: str) -> list[str]:
    """The people the room's match awaits now."""
    room = timed.app.state.rooms.registry.held(room_id)
    assert room is not None
    return [room.seats[seat].user_id for seat in room.rules.to_act(room.state)]


def table_awaiting(timed: Timed, host: TestClient, guest: TestClient) -> str:
    """A started two-seat Cupid table whose first move is the host's; its id."""
    for dealer in (0, 1):
        body = {"game": "cupid", "seats": 2, "options": {"dealer": dealer}}
        room = host.post("/api/rooms", json=body).json()
        assert guest.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
        assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
        if awaited(timed, room["id"]) == [user_id(host)]:
            return str(room["id"])
    raise AssertionError("neither dealer gives the host the first move")


def turn(timed: Timed, person: TestClient, room_id: str) -> TurnAwaits:
    deadline = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    return TurnAwaits(user_id(person), room_id, "cupid", deadline)


def table_url(room_id: str) -> str:
    return f"{PUBLIC_URL}/rooms/{room_id}"
