"""The notification outbox: what was emitted is delivered after a restart, exactly once;
rows are claimed by one process at a time; nothing goes to a person looking at the table
or no longer awaited there; the worker started with the app delivers without being asked;
and a slow or failing channel never holds up play."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from sqlalchemy.exc import OperationalError

from app.db import make_engine, make_session_factory
from app.models import OutboxItem, User
from app.notifications import outbox as outbox_module
from app.store import outbox as outbox_store
from tests.app.helpers import Timed, eventually, state_at
from tests.app.notifying import (
    account,
    awaited,
    deliver,
    emit,
    notifications,
    notifying_app,
    table_awaiting,
    table_url,
    turn,
    user_id,
)
from tests.app.receivers import http_receiver, smtp_server, text_of

ANN = "ann@example.org"


def pending(timed: Timed) -> int:
    portal = timed.main.portal
    assert portal is not None
    return int(portal.call(notifications(timed).database.call, outbox_store.pending_count))


def test_what_was_emitted_is_sent_after_a_restart_exactly_once(
    database_url: str, tmp_path: Path
) -> None:
    with smtp_server() as (mail, port):
        with notifying_app(database_url, tmp_path, port) as timed:
            ann, bob = account(timed, "ann"), account(timed, "bob")
            ann.put("/api/me/notifications", json={"email": ANN})
            room = table_awaiting(timed, ann, bob)
            emit(timed, turn(timed, ann, room))
        assert mail.messages == []  # stopped before the worker ran

        with notifying_app(database_url, tmp_path, port) as again:
            assert pending(again) == 1
            deliver(again)
            assert len(mail.messages) == 1
            assert table_url(room) in text_of(mail.messages[0])
            deliver(again)
        with notifying_app(database_url, tmp_path, port) as third:
            deliver(third)
            assert pending(third) == 0
        assert len(mail.messages) == 1


def test_a_row_is_claimed_by_one_worker_until_its_lease_ends(database_url: str) -> None:
    engine = make_engine(database_url)
    sessions = make_session_factory(engine)
    now = datetime(2026, 11, 26, 12, 0)
    with sessions() as session:
        session.execute(insert(User).values(id="u1", name="Ann", created_at=now))
        rows = [
            {
                "user_id": "u1",
                "channel": "webhook",
                "kind": "turn",
                "room_id": f"r{n}",
                "details": {},
                "created_at": now,
                "due_at": now,
            }
            for n in range(3)
        ]
        outbox_store.add_outbox_items(session=session, items=rows)
        session.commit()

    def claim(worker: str, at: datetime) -> list[OutboxItem]:
        with sessions() as session:
            return outbox_store.claim_outbox(
                session=session,
                now=at,
                lease_until=at + timedelta(seconds=60),
                worker=worker,
                limit=10,
            )

    assert len(claim("a", now)) == 3
    assert claim("b", now + timedelta(seconds=59)) == []
    taken_over = claim("b", now + timedelta(seconds=61))  # "a" died mid-round
    assert sorted(row.room_id or "" for row in taken_over) == ["r0", "r1", "r2"]
    assert {row.leased_by for row in taken_over} == {"b"}

    # Claimers racing from threads never share a row.
    later = now + timedelta(seconds=200)
    won: dict[str, list[int]] = {}

    def race(worker: str) -> None:
        won[worker] = [row.id for row in claim(worker, later)]

    threads = [threading.Thread(target=race, args=(f"w{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    claimed = [row for rows_won in won.values() for row in rows_won]
    assert sorted(claimed) == sorted(set(claimed)) and len(claimed) == 3
    engine.dispose()


def connected(timed: Timed, client: TestClient, room: str) -> bool:
    return user_id(client) in timed.app.state.rooms.presence.connected_users(room)


def test_nothing_goes_to_a_person_looking_at_the_table(database_url: str, tmp_path: Path) -> None:
    with (
        smtp_server() as (mail, port),
        http_receiver() as hook,
        notifying_app(database_url, tmp_path, port) as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        ann.put("/api/me/notifications", json={"email": ANN, "webhook_url": hook.url("/h")})
        room = table_awaiting(timed, ann, bob)
        with ann.websocket_connect(f"/ws/rooms/{room}") as ws:
            state_at(ws, 0)
            emit(timed, turn(timed, ann, room))
            assert deliver(timed) == 2
            assert mail.messages == [] and hook.requests == []
            assert pending(timed) == 0  # dropped, not put off
        eventually(lambda: not connected(timed, ann, room), "Ann's socket is gone")
        emit(timed, turn(timed, ann, room))
        deliver(timed)
        assert len(mail.messages) == 1 and len(hook.requests) == 1


def test_nothing_goes_once_it_is_no_longer_the_persons_turn(
    database_url: str, tmp_path: Path
) -> None:
    with (
        smtp_server() as (mail, port),
        http_receiver() as hook,
        notifying_app(database_url, tmp_path, port) as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        ann.put("/api/me/notifications", json={"email": ANN, "webhook_url": hook.url("/h")})
        room = table_awaiting(timed, ann, bob)
        emit(timed, turn(timed, ann, room))
        with ann.websocket_connect(f"/ws/rooms/{room}") as ws:
            state = state_at(ws, 0)
            action = state["view"]["legal_actions"][0]
            ws.send_json({"type": "act", "version": 0, "action": action})
            state_at(ws, 1)
        assert awaited(timed, room) == [user_id(bob)]
        eventually(lambda: not connected(timed, ann, room), "Ann's socket is gone")
        deliver(timed)
        assert mail.messages == [] and hook.requests == []
        assert pending(timed) == 0


def test_the_worker_started_with_the_app_delivers_on_its_own(
    database_url: str, tmp_path: Path
) -> None:
    with (
        smtp_server() as (mail, port),
        notifying_app(database_url, tmp_path, port, notify_poll_seconds=3600) as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        ann.put("/api/me/notifications", json={"email": ANN})
        room = table_awaiting(timed, ann, bob)
        emit(timed, turn(timed, ann, room))  # wakes the worker: no poll interval passes
        eventually(lambda: mail.messages, "the e-mail")
        assert table_url(room) in text_of(mail.messages[0])


def test_failing_and_slow_channels_never_hold_up_play(database_url: str, tmp_path: Path) -> None:
    """The SMTP server refuses connections and the webhook's receiver hangs: a move made
    meanwhile is acknowledged at once, and what failed is kept to be tried again."""
    with smtp_server() as (_mail, dead_port):
        pass  # its port is closed now: connections are refused
    with (
        http_receiver() as hook,
        notifying_app(database_url, tmp_path, dead_port, delivery_timeout=30) as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        ann.put("/api/me/notifications", json={"email": ANN, "webhook_url": hook.url("/h")})
        room = table_awaiting(timed, ann, bob)
        emit(timed, turn(timed, ann, room))
        hook.hold.clear()
        portal = timed.main.portal
        assert portal is not None
        round_ = portal.start_task_soon(notifications(timed).deliver_once)
        assert hook.arrived.wait(10), "the webhook POST is under way"

        with bob.websocket_connect(f"/ws/rooms/{room}") as bob_ws:
            state_at(bob_ws, 0)
            with ann.websocket_connect(f"/ws/rooms/{room}") as ws:
                state = state_at(ws, 0)
                action = state["view"]["legal_actions"][0]
                ws.send_json({"type": "act", "version": 0, "action": action})
                assert state_at(ws, 1)["version"] == 1
            assert state_at(bob_ws, 1)["version"] == 1
            assert not round_.done()  # the webhook still hangs
        hook.hold.set()
        assert round_.result(timeout=30) == 2
        assert len(hook.requests) == 1
        assert pending(timed) == 1  # the e-mail, put back to be tried again


def test_signals_the_database_refused_are_written_when_it_answers_again(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox_module, "FIRST_PAUSE", 0.01)
    with smtp_server() as (mail, port), notifying_app(database_url, tmp_path, port) as timed:
        ann, bob = account(timed, "ann"), account(timed, "bob")
        ann.put("/api/me/notifications", json={"email": ANN})
        room = table_awaiting(timed, ann, bob)
        database = notifications(timed).database
        real_run = database.run
        refusals = [OperationalError("INSERT", {}, Exception("the database is away"))] * 2

        async def flaky(work: Any) -> Any:
            if refusals:
                raise refusals.pop()
            return await real_run(work)

        monkeypatch.setattr(database, "run", flaky)
        emit(timed, turn(timed, ann, room))  # returns once written, after two refusals
        assert refusals == []
        deliver(timed)
        assert len(mail.messages) == 1
