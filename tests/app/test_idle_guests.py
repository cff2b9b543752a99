"""Idle guests are removed: a guest none of whose sessions was used for a month, and who
left no record, goes with its sessions — now and then by the server, or when an operator
asks (``python -m app.people remove-idle-guests``). Guests that played a match, spoke at
one or sit at an open table stay; so do accounts, and guests used lately.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db import make_engine, make_session_factory
from app.models import AuthSession, ChatMessage, MatchPlayer, Room, Seat, User, utcnow
from app.people.__main__ import main as people_command
from app.people.idle_guests import remove_idle_guests
from tests.app.helpers import finished_match_row, make_app, running
from tests.app.test_api import error_of

NOW = utcnow()
LONG_AGO = NOW - timedelta(days=40)


@pytest.fixture
def sessions(database_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(database_url)
    yield make_session_factory(engine)
    engine.dispose()


def guest(session: Session, user_id: str, *, made: datetime = LONG_AGO, **user: Any) -> None:
    session.add(User(id=user_id, name=user_id, created_at=made, **user))
    session.flush()  # before the rows naming it (the models declare no relationships)


def used(session: Session, user_id: str, at: datetime) -> None:
    expires = at + timedelta(days=365)
    session.add(AuthSession(id=f"s-{user_id}", user_id=user_id, used_at=at, expires_at=expires))


def room(session: Session, room_id: str, host: str, status: str, **fields: Any) -> None:
    session.add(
        Room(
            id=room_id,
            game="cupid",
            seat_count=2,
            options={},
            visibility="public",
            status=status,
            host_id=host,
            **fields,
        )
    )


def sit(session: Session, room_id: str, seat: int, user_id: str) -> None:
    session.add(Seat(room_id=room_id, seat=seat, user_id=user_id, name=user_id))


def say(session: Session, room_id: str, user_id: str, match_id: str | None = None) -> None:
    session.add(
        ChatMessage(
            room_id=room_id,
            match_id=match_id,
            channel="players",
            user_id=user_id,
            name=user_id,
            text="hi",
        )
    )


def remaining(sessions: sessionmaker[Session]) -> tuple[set[str], set[str], set[str]]:
    """The users, sessions' users and rooms left."""
    with sessions() as session:
        users = set(session.scalars(select(User.id)))
        signed_in = set(session.scalars(select(AuthSession.user_id)))
        rooms = set(session.scalars(select(Room.id)))
    return users, signed_in, rooms


def test_guests_idle_for_a_month_that_left_no_record_are_removed_with_their_sessions(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as session:
        guest(session, "idle")
        used(session, "idle", LONG_AGO)
        guest(session, "never-signed-in")
        guest(session, "used-lately")
        used(session, "used-lately", NOW - timedelta(days=2))
        guest(session, "new", made=NOW - timedelta(days=1))
        guest(session, "account", username="Acct", username_key="acct", password_hash="x")
        guest(session, "player")
        guest(session, "watcher")
        guest(session, "waiting")
        guest(session, "lobby-host")
        guest(session, "lobby-guest")
        session.flush()
        # A finished match: its player and a watcher who spoke at it stay.
        room(session, "finished", "player", "finished")
        session.flush()
        session.add(finished_match_row("m1", "finished"))
        session.flush()
        session.add(MatchPlayer(match_id="m1", seat=0, user_id="player"))
        say(session, "finished", "watcher", "m1")
        # Someone sitting at a table still open stays.
        room(session, "open", "used-lately", "waiting")
        # A table that never started (closed): its host and its guest go, and so does it.
        room(session, "lobby", "lobby-host", "closed")
        session.flush()
        sit(session, "open", 1, "waiting")
        sit(session, "lobby", 0, "lobby-host")
        sit(session, "lobby", 1, "lobby-guest")
        say(session, "lobby", "lobby-guest")
        session.flush()
        session.execute(update(Room).where(Room.id == "finished").values(rematch_id="lobby"))
        session.commit()

    assert remove_idle_guests(sessions, idle_days=30, now=NOW) == 4
    users, signed_in, rooms = remaining(sessions)
    kept = {"used-lately", "new", "account", "player", "watcher", "waiting"}
    assert users == kept
    assert signed_in == {"used-lately"}
    assert rooms == {"finished", "open"}
    with sessions() as session:
        assert session.get(Room, "finished").rematch_id is None  # type: ignore[union-attr]
        assert [m.user_id for m in session.scalars(select(ChatMessage))] == ["watcher"]
    # Nothing more to do a second time.
    assert remove_idle_guests(sessions, idle_days=30, now=NOW) == 0


def backdate(sessions: sessionmaker[Session], user_id: str) -> None:
    """As if the guest was made, and last used, 40 days ago."""
    with sessions() as session:
        session.execute(update(User).where(User.id == user_id).values(created_at=LONG_AGO))
        session.execute(
            update(AuthSession).where(AuthSession.user_id == user_id).values(used_at=LONG_AGO)
        )
        session.commit()


def test_a_used_session_keeps_its_guest_and_an_operator_removes_the_idle_ones(
    database_url: str, tmp_path: Path, sessions: sessionmaker[Session], capsys: Any
) -> None:
    app = make_app(database_url, tmp_path, guest_sweep_seconds=0, session_cache_seconds=0)
    with running(app) as new_client:
        back, gone = new_client("Back"), new_client("Gone")
        ids = {c: c.get("/api/session").json()["user_id"] for c in (back, gone)}
        for user_id in ids.values():
            backdate(sessions, user_id)
        # Coming back is a use of the session: it is written down.
        assert back.get("/api/session").status_code == 200
        people_command(["remove-idle-guests", "--database-url", database_url])
        assert capsys.readouterr().out.strip() == "removed 1 idle guests"
        assert back.get("/api/session").json()["user_id"] == ids[back]
        error_of(gone.get("/api/session"), 401, "no_session")
    users, _, _ = remaining(sessions)
    assert users == {ids[back]}


def test_the_server_removes_idle_guests_itself(
    database_url: str, tmp_path: Path, sessions: sessionmaker[Session]
) -> None:
    with sessions() as session:
        guest(session, "idle")
        used(session, "idle", LONG_AGO)
        session.commit()
    app = make_app(database_url, tmp_path)
    swept, removed = threading.Event(), []

    def told(count: int | None) -> None:
        removed.append(count)
        swept.set()

    app.state.guest_sweeper.on_sweep = told
    with running(app):
        assert swept.wait(30)
    assert removed[0] == 1
    assert remaining(sessions)[0] == set()
