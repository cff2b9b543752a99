"""While the database is down, requests are refused with the documented ``unavailable``
code and nothing else breaks: the play socket stays open, HTTP errors keep their JSON
shape, and the log says it once, not once per request."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import make_url
from sqlalchemy.exc import OperationalError

from app.main import create_app
from app.social.invitations import Invitations
from app.store.database_thread import DatabaseThread
from app.store.outage import log_failure
from tests.app.helpers import make_settings, next_of, running, started_room
from tests.app.live_clients import UNLIMITED, open_room
from tests.app.tcp_proxy import TcpProxy
from tests.app.test_computer_players_outlast_outages import FailingStorage
from tests.conftest import LiveServer


def test_an_act_during_an_outage_is_refused_and_the_socket_stays_open(
    database_url: str, tmp_path: Path
) -> None:
    storage = FailingStorage(database_url)
    settings = make_settings(database_url, tmp_path, rate_per_second=1000.0, rate_burst=1000)
    with running(create_app(settings, storage=storage)) as new_client:
        ann, bob = new_client("Ann"), new_client("Bob")
        room = started_room(ann, [bob], options={"dealer": 0})
        with ann.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
            state = next_of(ws, "state")
            act = {"type": "act", "version": 0, "action": state["view"]["legal_actions"][0]}
            storage.down = True
            ws.send_json(act)
            assert next_of(ws, "error")["code"] == "unavailable"
            ws.send_json({"type": "ping"})
            assert next_of(ws, "pong") == {"type": "pong"}
            storage.down = False
            ws.send_json(act)
            assert next_of(ws, "state")["version"] == 1


@contextmanager
def behind_a_proxy(
    postgres_url: str, live_server_factory: Callable[..., LiveServer]
) -> Iterator[tuple[LiveServer, TcpProxy]]:
    """A live server whose database connections pass through a proxy the test can cut."""
    url = make_url(postgres_url)
    proxy = TcpProxy((url.host or "127.0.0.1", url.port or 5432))
    try:
        proxied = url.set(port=proxy.port).render_as_string(hide_password=False)
        yield live_server_factory(database_url=proxied, **UNLIMITED), proxy
    finally:
        proxy.close()


def test_a_stopped_database_is_answered_with_codes_and_logged_once(
    postgres_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    with behind_a_proxy(postgres_url, live_server_factory) as (server, proxy):
        room_id, (ann, bob) = open_room(server, "cupid", ["Ann", "Bob"], {"dealer": 0})
        ann.connect(room_id)
        state = ann.state_at(0)
        proxy.cut()
        for _ in range(5):
            ann.act(0, state["view"]["legal_actions"][0])
            error = ann.next_of("error")
            assert error["code"] == "unavailable", error
            created = ann.http.post("/api/rooms", json={"game": "cupid"})
            assert created.status_code == 503
            assert created.json()["code"] == "unavailable" and created.json()["message"]
        proxy.restore()
        ann.act(0, state["view"]["legal_actions"][0])
        assert ann.state_at(1)["version"] == 1
        assert ann.http.post("/api/rooms", json={"game": "cupid"}).status_code == 201
        log = server.log_path.read_text()
        assert log.count("the database is not answering") == 1, log
        assert log.count("the database answers again") == 1, log
        assert "Traceback" not in log, log
        ann.close()
        bob.close()


def test_a_database_restart_between_moves_costs_the_players_nothing(
    postgres_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    """Every connection the server held broke while nobody moved (the database restarted):
    the next move is written on a fresh connection, with no error for the player."""
    with behind_a_proxy(postgres_url, live_server_factory) as (server, proxy):
        room_id, (ann, bob) = open_room(server, "cupid", ["Ann", "Bob"], {"dealer": 0})
        ann.connect(room_id)
        bob.connect(room_id)
        first = ann.state_at(0)
        ann.act(0, first["view"]["legal_actions"][0])
        second = bob.state_at(1)  # the event log's connection is open and idle now
        proxy.cut()
        proxy.restore()
        bob.act(1, second["view"]["legal_actions"][0])
        assert bob.state_at(2)["version"] == 2
        assert ann.http.get(f"/api/rooms/{room_id}").json()["version"] == 2
        ann.close()
        bob.close()


class DownDatabase:
    """A database thread whose every call meets ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def call(self, function: Callable[..., Any], /, **arguments: Any) -> Any:
        raise self.error


def test_a_tables_invitations_unread_in_an_outage_leave_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The invitees of a table that stopped waiting are told from a task of its own; one
    that meets the outage adds nothing to the outage's one line."""
    down = OperationalError("SELECT", {}, ConnectionError("server closed the connection"))
    broken = ValueError("a bug")

    def logged(error: Exception) -> list[logging.LogRecord]:
        caplog.clear()
        database = cast(DatabaseThread, DownDatabase(error))
        invitations = Invitations(database, cast(Any, None), cast(Any, None), cast(Any, None))
        with caplog.at_level(logging.WARNING, logger="parlour.social"):
            asyncio.run(invitations._close_notices("a-room"))
        return [record for record in caplog.records if record.name == "parlour.social"]

    assert logged(down) == []
    assert [record.exc_info is not None for record in logged(broken)] == [True]


def test_work_off_the_request_path_logs_its_failures_but_not_the_outage(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The sessions' checks, the notifications' outbox, a copy's catching up and the like
    log what fails them with its traceback; the database out of reach is the outage's one
    line instead."""
    log = logging.getLogger("parlour.test")

    def logged(error: Exception) -> list[logging.LogRecord]:
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="parlour.test"):
            try:
                raise error
            except Exception:
                log_failure(log, "the work failed")
        return [record for record in caplog.records if record.name == "parlour.test"]

    assert logged(OperationalError("SELECT", {}, ConnectionError("closed"))) == []
    assert [record.exc_info is not None for record in logged(ValueError("a bug"))] == [True]
