"""PostgreSQL's batches of moves written from the event loop, on an asynchronous connection.

On PostgreSQL a batch of nothing but moves is one statement committed by itself
(app/store/events.py, ``POSTGRESQL_INSERT``). Sent from the event log's writer thread, each
cost the server about three times the statement's own work: the batch handed to the
thread and its answer handed back, and the interpreter lock changing hands at every wait
on the database's socket while the event loop had work of its own (docs/benchmarks.md,
"Moves written from the event loop"). Sent here, through psycopg's asynchronous
connection, the event loop waits for the answer as it waits for any socket, and nothing
changes hands.

The connection is the event log's own, outside SQLAlchemy's pool: opened with the
arguments the engine's dialect makes of its URL (not ``create_engine``'s ``connect_args``,
which the project's PostgreSQL engines do not set), it commits each statement by
itself (autocommit), as the writer thread's connection for batches of moves does, and its
answer comes only once the batch is durable. Whatever fails closes it and is the caller's
to handle (app/rooms/event_log.py writes the batch again through its thread, whose errors
the engine reports as any other database error).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

import psycopg
from sqlalchemy import Engine

from app.store.events import POSTGRESQL_INSERT, Event, postgresql_batch

# Seconds the loop's connection may take to open.
CONNECT_SECONDS = 5.0


class MovesOnLoop:
    """Inserts batches of moves on one asynchronous connection, opened on first use."""

    def __init__(self, engine: Engine) -> None:
        self._arguments = engine.dialect.create_connect_args(engine.url)
        # Open between batches; None until the first, and after a failure.
        self.connection: psycopg.AsyncConnection[Any] | None = None

    async def insert(self, events: Sequence[Event]) -> set[tuple[str, int]]:
        """Insert ``events`` in one statement; the (match, seq) that went in (those taken
        already are left out). On any failure the connection is closed first."""
        try:
            connection = self.connection or await self._connect()
            cursor = await connection.execute(POSTGRESQL_INSERT, postgresql_batch(events))
            return {(match_id, seq) for match_id, seq in await cursor.fetchall()}
        except BaseException:
            # Broken, or cut off mid-statement (cancelled): its state is unknown.
            await self.close()
            raise

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        args, kwargs = self._arguments
        # Bounded (TimeoutError, an OSError): a database out of reach must not keep the
        # batch waiting here for the network's own timeout before the thread tries.
        async with asyncio.timeout(CONNECT_SECONDS):
            self.connection = await psycopg.AsyncConnection.connect(
                *args, **kwargs, autocommit=True
            )
        return self.connection

    async def close(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(psycopg.Error, OSError):
                await connection.close()
