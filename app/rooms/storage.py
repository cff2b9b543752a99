"""The rooms' storage: every transaction a room needs, behind one injectable object.

The rooms never open a session or a connection themselves; they await this object, each
call one transaction, and go on only once it has committed. Nothing runs on the event
loop: reads and lobby writes run on a worker thread (``call``, from
app/store/database_thread.py), and events go through the group-committing event log
(app/rooms/event_log.py). The SQL itself is in app/store/. Tests inject a storage that
fails on purpose (a database outage).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from app import ratings, store
from app.db import make_session_factory
from app.models import Match, MatchEvent, Room, utcnow
from app.rooms.event_log import Event, EventLog, FinishHook
from app.store import analyses
from app.store.database_thread import DatabaseThread
from app.store.events import finish_match

T = TypeVar("T")


@dataclass(frozen=True)
class StoredRoom:
    """A room as stored: its row (with seats) and, once started, its match and log."""

    room: Room
    match: Match | None
    events: list[MatchEvent]


def one_snapshot(session: Session) -> None:
    """Make the session's reads see the database as it was at the first of them.

    PostgreSQL's default (READ COMMITTED) lets each statement see what was committed
    before it began: a room's row read before its last move's commit and its events read
    after would make a room still "playing" whose match is over — and nobody could ask for
    its rematch. Called before the session's first statement. SQLite needs nothing: one
    process alone writes it, and a room's reads and writes there take turns under the
    room's lock."""
    if session.get_bind().dialect.name == "postgresql":
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


class RoomStorage(DatabaseThread):
    """The rooms' transactions, on a SQLAlchemy engine, never on the event loop: any
    function of app/store through ``call`` (a worker thread), the reads that gather a room
    or a match whole, and the event log's group-committed appends."""

    def __init__(
        self,
        engine: Engine,
        on_finish: Sequence[FinishHook] = (ratings.settle_match, analyses.queue_analysis),
    ) -> None:
        """``on_finish``: what the transaction that finishes a match does besides (the
        ratings, and queueing the computer's analysis)."""
        super().__init__(make_session_factory(engine))
        self.engine = engine
        self.event_log = EventLog(engine, on_finish)

    async def load_room(self, room_id: str) -> StoredRoom | None:
        """The room with id ``room_id`` or, failing that, with that short code."""

        def load(session: Session) -> StoredRoom | None:
            one_snapshot(session)
            row = store.find_room(session=session, key=room_id)
            if row is None:
                return None
            if row.match_id is None:
                return StoredRoom(row, None, [])
            match = store.load_match(session=session, match_id=row.match_id)
            assert match is not None, "a room's match is written with it"
            events = store.load_events(session=session, match_id=row.match_id)
            return StoredRoom(row, match, events)

        return await self.run(load)

    async def load_log(self, match_id: str) -> tuple[Match, list[MatchEvent]]:
        """A match and its events, in order."""

        def load(session: Session) -> tuple[Match, list[MatchEvent]]:
            match = store.load_match(session=session, match_id=match_id)
            assert match is not None, f"match {match_id} is referenced by a live room"
            return match, store.load_events(session=session, match_id=match_id)

        return await self.run(load)

    async def load_clock_state(self, room_id: str) -> dict[str, Any] | None:
        """A room's stored turn clocks."""

        def load(session: Session) -> dict[str, Any] | None:
            room = store.load_room(session=session, room_id=room_id)
            return None if room is None else room.clock_state

        return await self.run(load)

    async def append_event(
        self,
        *,
        match_id: str,
        seq: int,
        seat: int,
        action: dict[str, Any],
        result: tuple[list[int], list[int]] | None,
        room_id: str,
        by: dict[str, Any],
        timeout: bool = False,
        at: datetime | None = None,
        clock_state: dict[str, Any] | None = None,
        room_columns: dict[str, Any] | None = None,
    ) -> None:
        """Append one action (and, with ``result``, finish the match): the acknowledgement.

        ``by`` says who made it, ``timeout`` whether the clock played it, ``clock_state``
        is the room's turn clocks after it and ``room_columns`` more of the room's columns
        (a turn-based table's next deadline), written in the same transaction.

        Returns once committed. Raises ``event_log.SeqTaken`` (an ``IntegrityError``) when
        ``seq`` is taken — another writer was first — and any other database error as it
        comes; nothing is written then.
        """
        await self.event_log.append(
            Event(
                match_id,
                seq,
                seat,
                action,
                room_id,
                result,
                by,
                timeout,
                at,
                clock_state,
                room_columns,
            )
        )

    async def claim_match(
        self,
        *,
        room_id: str,
        match_id: str,
        scores: list[int],
        winners: list[int],
        ran_out: list[int],
        clock_state: dict[str, Any] | None,
    ) -> None:
        """Finish a match whose awaited people ran out of time and whose match another
        player claimed: no last move, but the same finishing transaction as a last move's
        (the result, the room's status, the ratings — ``ran_out`` rated as having left)."""
        finished_at = utcnow()

        def finish(session: Session) -> None:
            finish_match(
                session.connection(),
                match_id=match_id,
                room_id=room_id,
                scores=scores,
                winners=winners,
                finished_at=finished_at,
                on_finish=self.event_log.on_finish,
                ran_out=ran_out,
                room_changes={"clock_state": clock_state, "deadline": None},
            )
            session.commit()

        await self.run(finish)

    async def drain(self) -> None:
        """Return once every event appended so far is committed (or refused)."""
        await self.event_log.drain()

    async def close(self) -> None:
        await self.event_log.close()
        self.engine.dispose()
