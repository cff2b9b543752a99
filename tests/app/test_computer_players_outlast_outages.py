"""A computer player whose move meets a database outage keeps trying, and moves as soon as
the database answers again — with no restart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import make_url
from sqlalchemy.exc import OperationalError

from app.db import make_engine
from app.main import create_app
from app.rooms.storage import RoomStorage
from tests.app.helpers import eventually, make_settings, running, state_at
from tests.app.live_clients import Seat
from tests.app.tcp_proxy import TcpProxy
from tests.conftest import LiveServer


class FailingStorage(RoomStorage):
    """Refuses every append while ``down``, as a database that stopped answering would."""

    def __init__(self, url: str) -> None:
        super().__init__(make_engine(url))
        self.down = False
        self.refused = 0

    async def append_event(self, **event: Any) -> None:
        if self.down:
            self.refused += 1
            raise OperationalError("INSERT INTO match_events", {}, OSError("connection refused"))
        await super().append_event(**event)


def test_a_computer_retries_through_a_failing_store(database_url: str, tmp_path: Path) -> None:
    storage = FailingStorage(database_url)
    app = create_app(make_settings(database_url, tmp_path), storage=storage)
    bots = app.state.rooms.bots
    bots.first_retry_pause, bots.max_retry_pause = 0.01, 0.05
    with running(app) as new_client:
        ann = new_client("Ann")
        # The dealer leads Cupid's first trick: the computer in seat 1 moves first.
        body = {"game": "cupid", "seats": 2, "options": {"dealer": 1}}
        room = ann.post("/api/rooms", json=body).json()
        assert ann.post(f"/api/rooms/{room['id']}/bots", json={"seat": 1}).status_code == 200
        with ann.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
            storage.down = True
            assert ann.post(f"/api/rooms/{room['id']}/start").status_code == 200
            eventually(lambda: storage.refused >= 3, "the computer to try (and fail) three times")
            assert ann.get(f"/api/rooms/{room['id']}").json()["version"] == 0
            storage.down = False
            state = state_at(ws, 1)
    assert state["event"]["seat"] == 1 and state["version"] == 1
    assert state["view"]["to_act"] == [0]


def test_a_computer_moves_once_a_stopped_database_is_back(
    postgres_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    url = make_url(postgres_url)
    proxy = TcpProxy((url.host or "127.0.0.1", url.port or 5432))
    try:
        proxied = url.set(port=proxy.port).render_as_string(hide_password=False)
        server = live_server_factory(database_url=proxied, BOT_DELAY="1.0")
        ann = Seat(server, "Ann")
        body = {"game": "cupid", "seats": 2, "options": {"dealer": 1}}
        room = ann.http.post("/api/rooms", json=body).json()
        assert ann.http.post(f"/api/rooms/{room['id']}/bots", json={"seat": 1}).status_code == 200
        ann.connect(room["id"])
        assert ann.http.post(f"/api/rooms/{room['id']}/start").status_code == 200
        proxy.cut()  # the database stops before the computer's first move (1 s after start)
        eventually(
            lambda: "could not move" in server.log_path.read_text(),
            "the computer's move to meet the stopped database",
        )
        proxy.restore()
        state = ann.state_at(1)
        assert state["event"]["seat"] == 1 and state["view"]["to_act"] == [0]
        ann.close()
    finally:
        proxy.close()
