"""The event log writes each event of a batch as it was given, on each database: its
action, who made it (JSON null when nobody is named), whether the clock played it, and
when, to the microsecond; an event whose (match, seq) is taken is refused as such and
leaves the row that was there.

Each test runs on SQLite and, where TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from app.db import make_engine, make_session_factory
from app.models import MatchEvent
from app.rooms.event_log import Event, EventLog, SeqTaken
from tests.app.helpers import finished_match_row

AT = datetime(2026, 11, 27, 9, 30, 1, 234567)


def test_each_event_of_a_batch_is_stored_as_given(database_url: str) -> None:
    engine = make_engine(database_url)
    with make_session_factory(engine)() as session:
        session.add(finished_match_row("m1", "r1"))
        session.commit()
    events = [
        Event(
            "m1",
            1,
            0,
            {"type": "play", "card": "H7", "said": 'Ünïcode ♥ "quoted"'},
            "r1",
            by={"user_id": "u1"},
            at=AT,
        ),
        Event(
            "m1",
            2,
            1,
            {"type": "pass"},
            "r1",
            by=None,
            timeout=True,
            at=AT + timedelta(microseconds=1),
        ),
        Event(
            "m1",
            3,
            0,
            {"type": "play", "card": "S2"},
            "r1",
            by={"bot": "strong"},
            at=AT.replace(microsecond=0),
        ),
    ]
    log = EventLog(engine)

    async def write() -> None:
        try:
            # Appended together: the writer takes all three in one transaction.
            await asyncio.gather(*(log.append(event) for event in events))
            with pytest.raises(SeqTaken):
                await log.append(Event("m1", 2, 0, {"type": "other"}, "r1", at=AT))
        finally:
            await log.close()

    asyncio.run(write())
    assert log.batches == 2
    with engine.connect() as connection:
        rows = connection.execute(
            select(
                MatchEvent.seq,
                MatchEvent.seat,
                MatchEvent.action,
                MatchEvent.played_by,
                MatchEvent.timeout,
                MatchEvent.at,
            )
            .where(MatchEvent.match_id == "m1")
            .order_by(MatchEvent.seq)
        ).all()
        # Nobody named is JSON null, as the ORM's JSON column writes None, not SQL NULL.
        nobody_is_sql_null = connection.execute(
            select(MatchEvent.played_by.is_(None)).where(
                MatchEvent.match_id == "m1", MatchEvent.seq == 2
            )
        ).scalar_one()
    engine.dispose()
    assert not nobody_is_sql_null
    assert [tuple(row) for row in rows] == [
        (e.seq, e.seat, e.action, e.by, e.timeout, e.at) for e in events
    ]
