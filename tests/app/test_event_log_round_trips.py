"""What the event log's writer says to PostgreSQL, read off the wire (libpq's trace of the
writer's connections): a batch of nothing but moves is its insert alone, sent from the
event loop's own connection and committed by itself in one round trip, and visible to
everyone once appended; a batch that finishes a match is one transaction, BEGIN to
COMMIT, on the writer thread's, so the match and its last move land together.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from psycopg.pq import Trace
from sqlalchemy import event, select

from app.db import make_engine, make_session_factory
from app.models import Match, MatchEvent
from app.rooms.event_log import Event, EventLog
from tests.app.helpers import engine_with_a_match_in_play


def frontend_messages(trace: Path) -> list[str]:
    """What the client sent, one message a line ("Query", "Parse", "Sync", ...), with the
    statement for a query or a parse."""
    sent = []
    for line in trace.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if parts[0] == "F":
            sent.append(" ".join(part.strip() for part in parts[2:]))
    return sent


def test_moves_alone_are_one_statement_and_a_finish_one_transaction(
    postgres_url: str, tmp_path: Path
) -> None:
    setup = engine_with_a_match_in_play(postgres_url)
    engine = make_engine(postgres_url)
    connections: list[Any] = []
    event.listen(engine, "connect", lambda dbapi, _record: connections.append(dbapi))
    log = EventLog(engine)

    async def traced(event_: Event) -> tuple[list[str], list[str]]:
        """What the writer sent while it appended ``event_`` on the thread's connections
        and on the event loop's (all traced meanwhile; the writer is idle before and
        after)."""
        assert log.on_loop is not None and log.on_loop.connection is not None
        on_loop = log.on_loop.connection.pgconn
        thread_trace, loop_trace = tmp_path / "thread.txt", tmp_path / "loop.txt"
        with thread_trace.open("w") as out, loop_trace.open("w") as loop_out:
            for connection in connections:
                connection.pgconn.trace(out.fileno())
                connection.pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
            on_loop.trace(loop_out.fileno())
            on_loop.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
            await log.append(event_)
            for connection in connections:
                connection.pgconn.untrace()
            on_loop.untrace()
        return frontend_messages(thread_trace), frontend_messages(loop_trace)

    def read_seq(seq: int) -> int | None:
        with make_session_factory(setup)() as session:
            return session.scalar(select(MatchEvent.seq).where(MatchEvent.seq == seq))

    async def write() -> tuple[tuple[list[str], list[str]], tuple[list[str], list[str]]]:
        # The writer's connections are made (and the dialect reads the server) first: a
        # move alone (the loop's), and one with the room's turn clocks to write beside it
        # (the thread's).
        await log.append(Event("m1", 1, 0, {"type": "play", "card": "H7"}, "r1"))
        clocks = {"remaining": [30.0, 30.0]}
        await log.append(Event("m1", 2, 1, {"type": "play"}, "r1", clock_state=clocks))
        move = await traced(Event("m1", 3, 0, {"type": "play", "card": "H9"}, "r1"))
        seen = read_seq(3)
        finish = await traced(
            Event("m1", 4, 1, {"type": "play", "card": "HT"}, "r1", result=([10, 3], [0]))
        )
        await log.close()
        assert seen == 3  # committed once appended: anyone can read it
        return move, finish

    try:
        (move_thread, move), (finish, finish_loop) = asyncio.run(write())
        # One exchange on the loop's connection: the insert's Parse, Bind, Describe and
        # Execute, then one Sync; no simple query (BEGIN, COMMIT) before or after it, and
        # nothing on the thread's.
        assert move_thread == [], move_thread
        assert not [m for m in move if m.startswith("Query")], move
        assert [m for m in move if "INSERT INTO match_events" in m], move
        assert [m for m in move if m.startswith("Sync")] == ["Sync"] and move[-1] == "Sync", move
        # The finish on the thread's, nothing on the loop's.
        assert finish_loop == [], finish_loop
        queries = [m for m in finish if m.startswith("Query")]
        assert queries[0].endswith('"BEGIN"') and queries[-1].endswith('"COMMIT"'), finish
        assert [m for m in finish if "INSERT INTO match_events" in m], finish
        with make_session_factory(setup)() as session:
            assert session.scalar(select(Match.status).where(Match.id == "m1")) == "finished"
    finally:
        engine.dispose()
        setup.dispose()
