"""On PostgreSQL the event log writes batches of moves from the event loop, on a connection
of its own. When that connection breaks (the database restarted, the connection was cut),
the move it was writing is written through the writer thread all the same and
acknowledged once committed; the batches after it go there too for
``loop_retry_seconds``, and then the loop opens a fresh connection."""

from __future__ import annotations

import asyncio
import logging

import pytest
from sqlalchemy import Engine, make_url, select, text
from sqlalchemy.exc import OperationalError

from app.db import make_engine, make_session_factory
from app.models import MatchEvent
from app.rooms.event_log import Event, EventLog, SeqTaken
from tests.app.helpers import engine_with_a_match_in_play
from tests.conftest import free_port


def move(seq: int) -> Event:
    return Event("m1", seq, seq % 2, {"type": "play", "card": f"H{seq}"}, "r1")


def loop_backend(log: EventLog) -> int | None:
    """The server process behind the event loop's connection (None: none is open)."""
    assert log.on_loop is not None
    connection = log.on_loop.connection
    return None if connection is None else connection.info.backend_pid


def cut(setup: Engine, backend: int) -> None:
    """End the database's side of a connection, as a restart would."""
    with setup.connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})


def stored_seqs(setup: Engine) -> list[int]:
    with make_session_factory(setup)() as session:
        return list(session.scalars(select(MatchEvent.seq).order_by(MatchEvent.seq)))


@pytest.mark.parametrize("retry", [3600.0, 0.0])
def test_a_cut_loop_connection_loses_no_move(
    postgres_url: str, retry: float, caplog: pytest.LogCaptureFixture
) -> None:
    setup = engine_with_a_match_in_play(postgres_url)
    engine = make_engine(postgres_url)
    log = EventLog(engine, loop_retry_seconds=retry)

    async def play() -> tuple[int | None, int | None, int | None]:
        await log.append(move(1))
        first = loop_backend(log)
        assert first is not None
        cut(setup, first)
        with caplog.at_level(logging.WARNING, logger="parlour.database"):
            await log.append(move(2))  # acknowledged: committed through the thread
        after_cut = loop_backend(log)
        await log.append(move(3))
        after_next = loop_backend(log)
        await log.close()
        return first, after_cut, after_next

    try:
        first, after_cut, after_next = asyncio.run(play())
        assert stored_seqs(setup) == [1, 2, 3]
        assert after_cut is None  # the cut connection was closed
        if retry:
            assert after_next is None  # the next move went through the thread too
        else:
            assert after_next is not None and after_next != first  # a fresh connection
        assert "writing moves from the event loop failed" in caplog.text
    finally:
        engine.dispose()
        setup.dispose()


def test_a_move_whose_seq_is_taken_is_refused_from_the_loop_too(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    setup = engine_with_a_match_in_play(postgres_url)
    engine = make_engine(postgres_url)
    log = EventLog(engine)

    async def play() -> tuple[BaseException | None, int | None, int | None]:
        await log.append(move(1))
        before = loop_backend(log)
        refused = None
        with caplog.at_level(logging.WARNING, logger="parlour.database"):
            try:
                await log.append(Event("m1", 1, 1, {"type": "play", "card": "S2"}, "r1"))
            except Exception as error:
                refused = error
        after = loop_backend(log)
        await log.close()
        return refused, before, after

    try:
        refused, before, after = asyncio.run(play())
        assert isinstance(refused, SeqTaken)
        # Refused by the loop's own connection, which stays open: no failure, no fallback.
        assert before is not None and after == before
        assert "writing moves from the event loop failed" not in caplog.text
        assert loop_backend(log) is None  # closed with the log
        with make_session_factory(setup)() as session:
            kept = session.scalars(select(MatchEvent.action)).all()
        assert kept == [{"type": "play", "card": "H1"}]
    finally:
        engine.dispose()
        setup.dispose()


def test_a_database_out_of_reach_refuses_moves_as_the_engine_does_and_is_told_once(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Nothing listens where the database should be: each move fails with SQLAlchemy's
    error, as every other database call does (the routes answer ``unavailable``); the loop's
    failure is logged once, whatever the number of moves."""
    nowhere = make_url(postgres_url).set(port=free_port())
    engine = make_engine(nowhere.render_as_string(hide_password=False))
    log = EventLog(engine, loop_retry_seconds=0.0)  # the loop tries again at every move

    async def play() -> list[BaseException]:
        errors = []
        for seq in (1, 2, 3):
            try:
                await log.append(move(seq))
            except Exception as error:
                errors.append(error)
        await log.close()
        return errors

    try:
        with caplog.at_level(logging.DEBUG, logger="parlour.database"):
            errors = asyncio.run(play())
        assert len(errors) == 3
        assert all(isinstance(error, OperationalError) for error in errors), errors
        told = [r for r in caplog.records if "from the event loop failed" in r.getMessage()]
        assert [r.levelno for r in told] == [logging.WARNING, logging.DEBUG, logging.DEBUG]
    finally:
        engine.dispose()
