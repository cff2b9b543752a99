"""The event log's SQL: one transaction appending a batch of events, and what it does
besides — the rooms' turn clocks after them, and the end of every match a written event
finished (its result, who won, the room's status, then each finishing hook: the ratings).

The writer that groups events into batches and runs them off the event loop is
app/rooms/event_log.py; these functions only write.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, bindparam, update
from sqlalchemy.dialects import sqlite

from app.models import MatchEvent, MatchPlayer, Room, table, utcnow
from app.store.matches import end_match

# Called in the finishing transaction for each match it finishes: (connection, match id,
# the time the match finished). An exception fails the whole transaction.
FinishHook = Callable[[Connection, str, datetime], None]


@dataclass(frozen=True)
class Event:
    """One action to append; ``result`` (scores, winners) when it ends the match.

    ``by`` is who made it (``{"user_id": ...}`` or ``{"bot": kind}``), ``timeout`` marks a
    move the clock played, ``at`` is when (the rooms' time source), ``clock_state`` the
    room's turn clocks after it (None: the room is untimed), and ``room_columns`` more of
    the room's columns to write with it (a turn-based table's next deadline).
    """

    match_id: str
    seq: int
    seat: int
    action: dict[str, Any]
    room_id: str
    result: tuple[list[int], list[int]] | None = None
    by: dict[str, Any] | None = None
    timeout: bool = False
    at: datetime | None = None
    clock_state: dict[str, Any] | None = None
    room_columns: dict[str, Any] | None = None


def only_inserted(event: Event) -> bool:
    """Whether writing ``event`` takes nothing but its row: no turn clocks, no room
    columns, no match to finish."""
    return event.result is None and event.clock_state is None and not event.room_columns


# Inserts a batch of events; returns the (match, seq) of those that went in (or raises
# ``SomeTaken``: see ``Inserts``).
InsertEvents = Callable[[Connection, Sequence[Event]], set[tuple[str, int]]]


class SomeTaken(Exception):
    """An insert that only counts what went in found a (match, seq) taken: its
    transaction is rolled back, and the batch written again by the insert that says
    which went in."""


@dataclass(frozen=True)
class Inserts:
    """How a database takes a batch of events: ``first`` as a rule, ``exact`` after it
    raised ``SomeTaken`` (where the two differ)."""

    first: InsertEvents
    exact: InsertEvents


# PostgreSQL: the whole batch as one JSON parameter, unpacked by the server. The statement's
# text never changes, so psycopg parses it once (and prepares it, run this often). The
# multi-row VALUES a batch otherwise needs is a new text for each batch size, seven
# parameters per event; past 4,096 characters (about twenty events, the batches of a busy
# server) psycopg keeps no parse of it, and splitting it anew cost more of the writer
# thread's time than everything else the batch does (docs/benchmarks.md, "The event log's
# writer"). ``e->3`` keeps the action's JSON as sent; a ``played_by`` of None is JSON null,
# as the ORM's JSON column stores it. The placeholder is psycopg's (the driver the
# project's PostgreSQL URLs name). The event log sends it from the event loop as a rule
# (app/store/events_on_loop.py) and through ``Inserts`` when a batch does more than insert.
POSTGRESQL_INSERT = (
    "INSERT INTO match_events (match_id, seq, seat, action, played_by, timeout, at) "
    "SELECT e->>0, (e->>1)::int, (e->>2)::int, e->3, e->4, (e->>5)::bool, (e->>6)::timestamp "
    "FROM json_array_elements(%(events)s::json) AS e "
    "ON CONFLICT (match_id, seq) DO NOTHING RETURNING match_id, seq"
)


def insert_for(engine: Engine) -> Inserts:
    """How this database takes a batch of events: INSERT ... ON CONFLICT (match_id, seq)
    DO NOTHING, telling the (match, seq) written."""
    dialect = engine.dialect.name
    if dialect == "postgresql":
        return Inserts(_insert_postgresql, _insert_postgresql)
    if dialect == "sqlite":
        return Inserts(_insert_sqlite_counted, _insert_sqlite)
    raise ValueError(f"The event log supports PostgreSQL and SQLite, not {dialect}.")


def postgresql_batch(events: Sequence[Event]) -> dict[str, str]:
    """``POSTGRESQL_INSERT``'s parameter: the batch as one JSON array."""
    batch = orjson.dumps(
        [
            [e.match_id, e.seq, e.seat, e.action, e.by, e.timeout, (e.at or utcnow()).isoformat()]
            for e in events
        ]
    ).decode()
    return {"events": batch}


def _insert_postgresql(connection: Connection, events: Sequence[Event]) -> set[tuple[str, int]]:
    result = connection.exec_driver_sql(POSTGRESQL_INSERT, postgresql_batch(events))
    return {(match_id, seq) for match_id, seq in result}


# SQLite, as a rule: the rows as the ORM's columns store them (JSON text, JSON null for no
# ``played_by``, the time with its microseconds), bound by sqlite3 itself, and only counted.
# Through SQLAlchemy's insert with RETURNING, binding and reading back the rows cost the
# writer thread several times what SQLite's own work did (docs/benchmarks.md, "The event
# log's writer"). sqlite3 keeps the compiled statement.
_SQLITE_INSERT_COUNTED = (
    "INSERT INTO match_events (match_id, seq, seat, action, played_by, timeout, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seq) DO NOTHING"
)
_SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"  # as SQLAlchemy's DateTime stores it in SQLite


def _insert_sqlite_counted(connection: Connection, events: Sequence[Event]) -> set[tuple[str, int]]:
    rows = [
        (
            e.match_id,
            e.seq,
            e.seat,
            orjson.dumps(e.action).decode(),
            orjson.dumps(e.by).decode(),
            e.timeout,
            (e.at or utcnow()).strftime(_SQLITE_TIME),
        )
        for e in events
    ]
    if connection.exec_driver_sql(_SQLITE_INSERT_COUNTED, rows).rowcount != len(rows):
        raise SomeTaken()
    return {(e.match_id, e.seq) for e in events}


# SQLite, when some (match, seq) of the batch was taken: SQLAlchemy's insert, which returns
# the rows that went in.
_SQLITE_INSERT = (
    sqlite.insert(MatchEvent)
    .on_conflict_do_nothing(index_elements=["match_id", "seq"])
    .returning(MatchEvent.match_id, MatchEvent.seq)
)


def _insert_sqlite(connection: Connection, events: Sequence[Event]) -> set[tuple[str, int]]:
    rows = [
        {
            "match_id": e.match_id,
            "seq": e.seq,
            "seat": e.seat,
            "action": e.action,
            "played_by": e.by,
            "timeout": e.timeout,
            "at": e.at or utcnow(),
        }
        for e in events
    ]
    return {(row.match_id, row.seq) for row in connection.execute(_SQLITE_INSERT, rows)}


_ROOMS = table(Room)
_ROOM_CLOCKS = (
    update(_ROOMS).where(_ROOMS.c.id == bindparam("room")).values(clock_state=bindparam("state"))
)


def write_events(
    connection: Connection,
    inserts: Inserts,
    events: Sequence[Event],
    on_finish: Sequence[FinishHook],
) -> set[tuple[str, int]]:
    """Every event that fits, the turn clocks of the rooms that have them, and the end
    of every match that ended: one transaction. Returns the (match, seq) written."""
    try:
        return _write_events(connection, inserts.first, events, on_finish)
    except SomeTaken:
        return _write_events(connection, inserts.exact, events, on_finish)


def _write_events(
    connection: Connection,
    insert: InsertEvents,
    events: Sequence[Event],
    on_finish: Sequence[FinishHook],
) -> set[tuple[str, int]]:
    with connection.begin():
        written = insert(connection, events)
        landed = [e for e in events if (e.match_id, e.seq) in written]
        clocks = [
            {"room": e.room_id, "state": e.clock_state} for e in landed if e.clock_state is not None
        ]
        if clocks:
            connection.execute(_ROOM_CLOCKS, clocks)
        for event in landed:
            if event.room_columns:
                connection.execute(
                    update(_ROOMS).where(_ROOMS.c.id == event.room_id).values(**event.room_columns)
                )
        finished_at = utcnow()
        for event in landed:
            if event.result is not None:
                _finish(connection, event, finished_at, on_finish)
    return written


def _finish(
    connection: Connection, event: Event, finished_at: datetime, on_finish: Sequence[FinishHook]
) -> None:
    assert event.result is not None
    scores, winners = event.result
    finish_match(
        connection,
        match_id=event.match_id,
        room_id=event.room_id,
        scores=scores,
        winners=winners,
        finished_at=finished_at,
        on_finish=on_finish,
    )


# Built once, as the match's own statements are (app/store/matches.py says why).
_PLAYERS = table(MatchPlayer)
_WON = (
    update(_PLAYERS)
    .where(_PLAYERS.c.match_id == bindparam("match"))
    .values(won=_PLAYERS.c.seat.in_(bindparam("winners", expanding=True)))
)
_ROOM_FINISHED = (
    update(_ROOMS).where(_ROOMS.c.id == bindparam("room")).values(status="finished", code=None)
)


def finish_match(
    connection: Connection,
    *,
    match_id: str,
    room_id: str,
    scores: list[int],
    winners: list[int],
    finished_at: datetime,
    on_finish: Sequence[FinishHook],
    ran_out: Collection[int] = (),
    room_changes: dict[str, Any] | None = None,
) -> None:
    """A match finished, in the caller's transaction: its result, who won, the room's
    status, then each finishing hook (the ratings). ``ran_out``: the seats whose time ran
    out and whose match was claimed — recorded as having left it (app/store/credit.py)."""
    end_match(
        connection=connection,
        match_id=match_id,
        status="finished",
        scores=scores,
        winners=winners,
        finished_at=finished_at,
        ran_out=ran_out,
    )
    connection.execute(_WON, {"match": match_id, "winners": winners or [-1]})
    connection.execute(_ROOM_FINISHED, {"room": room_id})
    if room_changes:
        connection.execute(update(_ROOMS).where(_ROOMS.c.id == room_id).values(**room_changes))
    for hook in on_finish:
        hook(connection, match_id, finished_at)
