"""The event log's writer: group commit, never blocking the event loop.

Every acknowledged action is one row in ``match_events``. Appending them one transaction
at a time, waiting for each, made the server wait for the database instead of working.
Here each room hands its event to :meth:`EventLog.append` and waits; one writer task takes
every event queued while the previous transaction was in flight and writes them all in one
transaction, then wakes each room — only after the commit that holds its event, so the
guarantee is unchanged: nobody is told of an action before it is durable, and a crash
loses nothing acknowledged.

Where a batch is written: on PostgreSQL a batch of nothing but moves — nearly every batch —
is one statement, sent from the event loop on an asynchronous connection of the log's own
(app/store/events_on_loop.py). Every other batch (turn clocks, a match's end and its
ratings), every batch on SQLite, and a batch of moves whose connection failed, goes to a
thread of the log's own, through SQLAlchemy's blocking connections. After a failure on
the loop's connection, batches go to the thread for ``loop_retry_seconds`` before the loop
opens a connection again: while the database is out of reach, its errors come from one
place.

An insert that meets an existing ``(match_id, seq)`` (another writer was first) fails
alone: the batch inserts with ON CONFLICT DO NOTHING and reports which rows went in, so
one conflict never holds up another room's event. Any other error fails the whole batch,
and every waiting room gets it (the database is down: nothing was written).

The transaction that appends a match's last event also finishes the match: its result,
which seats won, the room's status — and then each finishing hook runs in the same
transaction (the ratings, app/ratings/). A match is finished, and its ratings changed,
together or not at all; and since only the event that is written finishes a match, an
event sent again (its seq already taken) finishes nothing twice. The SQL of that
transaction is in app/store/events.py; this module groups the events and runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import psycopg
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from app.observability.metrics import EVENT_LOG_BATCH_EVENTS, EVENT_LOG_COMMIT_SECONDS
from app.store.events import Event, FinishHook, insert_for, only_inserted, write_events
from app.store.events_on_loop import MovesOnLoop

MAX_BATCH = 500  # events per transaction: bounds one statement's size
# Seconds batches of moves go to the writer thread after the loop's connection failed.
LOOP_RETRY_SECONDS = 5.0

log = logging.getLogger("parlour.database")


class SeqTaken(IntegrityError):
    """Another writer appended this (match, seq) first; nothing was written."""

    def __init__(self, event: Event) -> None:
        super().__init__(
            "INSERT INTO match_events", {}, Exception(f"{event.match_id}#{event.seq} exists")
        )


__all__ = ["MAX_BATCH", "Event", "EventLog", "FinishHook", "SeqTaken"]


class EventLog:
    """Appends events in grouped transactions, from the event loop or a writer thread."""

    def __init__(
        self,
        engine: Engine,
        on_finish: Sequence[FinishHook] = (),
        *,
        loop_retry_seconds: float = LOOP_RETRY_SECONDS,
    ) -> None:
        self.engine = engine
        self.on_finish = list(on_finish)
        self._insert = insert_for(engine)
        self._queue: list[tuple[Event, asyncio.Future[None]]] = []
        self._wakeup: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        # One thread: transactions are written one after another, in arrival order.
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="event-log")
        # The writer thread's own connections (``_held``): by whether they commit each
        # statement on its own.
        self._connections: dict[bool, Connection] = {}
        # On PostgreSQL a batch of nothing but inserts is one statement committed on its own:
        # one round trip, where BEGIN, the insert and COMMIT take three. The statement is
        # atomic by itself, and its answer comes only once it is durable, like a COMMIT's.
        # SQLite's BEGIN and COMMIT cost no round trip: nothing to save there.
        self._commit_alone = engine.dialect.name == "postgresql"
        # PostgreSQL's batches of moves, written from the event loop (see the docstring).
        self.on_loop = MovesOnLoop(engine) if self._commit_alone else None
        self.loop_retry_seconds = loop_retry_seconds
        # time.monotonic() from which the loop writes again after a failure; 0: its last
        # try did not fail. A failure is said once until the loop writes again, so an
        # outage is told by the engine's outage log, not once every retry.
        self._loop_resumes_at = 0.0
        self._closed = False
        self.batches = 0  # transactions written (for benchmarks and tests)
        self._writing = False  # a batch is in its transaction

    async def append(self, event: Event) -> None:
        """Return once ``event`` is committed; raise :class:`SeqTaken` or the database error."""
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done():
            self._wakeup = asyncio.Event()
            self._task = loop.create_task(self._write_forever())
        assert self._wakeup is not None
        done: asyncio.Future[None] = loop.create_future()
        self._queue.append((event, done))
        self._wakeup.set()
        await done

    async def drain(self) -> None:
        """Return once every event appended so far has its answer: committed, or refused
        (the server is stopping; nothing acknowledged may be left behind)."""
        while self._queue or self._writing:
            if self._task is None or self._task.done():
                return
            await asyncio.sleep(0.005)

    async def close(self) -> None:
        """Stop the writer (the server is shutting down)."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.on_loop is not None:
            await self.on_loop.close()
        self._thread.submit(self._let_go)
        self._thread.shutdown(wait=True)

    async def _write_forever(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._wakeup is not None
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            while self._queue:
                batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
                events = [event for event, _ in batch]
                began = time.perf_counter()
                self._writing = True
                try:
                    written = await self._write_batch(loop, events)
                except Exception as error:  # nothing of the batch was written
                    for _, done in batch:
                        if not done.done():
                            done.set_exception(error)
                    continue
                finally:
                    self._writing = False
                EVENT_LOG_COMMIT_SECONDS.observe(time.perf_counter() - began)
                EVENT_LOG_BATCH_EVENTS.observe(len(events))
                self.batches += 1
                for event, done in batch:
                    if done.done():
                        continue
                    if (event.match_id, event.seq) in written:
                        done.set_result(None)
                    else:
                        done.set_exception(SeqTaken(event))

    async def _write_batch(
        self, loop: asyncio.AbstractEventLoop, events: list[Event]
    ) -> set[tuple[str, int]]:
        """The batch written from the loop if it may be, else (or if that fails) through
        the writer thread; the (match, seq) that went in."""
        if (
            self.on_loop is not None
            and not self._closed  # closed: refused by the thread's pool, as it was before
            and time.monotonic() >= self._loop_resumes_at
            and all(only_inserted(event) for event in events)
        ):
            try:
                written = await self.on_loop.insert(events)
            except (psycopg.Error, OSError) as error:  # OSError: a connect timed out, too
                # Written again through the thread: rows of a batch whose statement landed
                # just before the failure are then found taken and reported so
                # (``SeqTaken``), as after the thread's own connection went stale.
                failing = self._loop_resumes_at > 0
                self._loop_resumes_at = time.monotonic() + self.loop_retry_seconds
                log.log(
                    logging.DEBUG if failing else logging.WARNING,
                    "writing moves from the event loop failed (%s); through the writer"
                    " thread for %g s",
                    (str(error).strip().splitlines() or [type(error).__name__])[0],
                    self.loop_retry_seconds,
                )
            else:
                self._loop_resumes_at = 0.0
                return written
        return await loop.run_in_executor(self._thread, self._write, events)

    def _write(self, events: list[Event]) -> set[tuple[str, int]]:
        """One transaction (for a batch of moves alone on PostgreSQL, one statement
        committed by itself) on one of the writer's own connections, held from one batch
        to the next: checking one out of the pool for every batch would cost a round trip
        each time (the pool's ping). If the held connection went stale meanwhile (the
        database restarted), the batch is written once more on a fresh one, which the
        pool checks. Rows of a batch whose commit landed just before the break are then
        found taken, and reported so (``SeqTaken``): nothing is written twice."""
        alone = self._commit_alone and all(only_inserted(event) for event in events)
        try:
            return self._write_on(self._held(alone), events)
        except DBAPIError as error:
            self._let_go()
            if not error.connection_invalidated:
                raise
        return self._write_on(self._held(alone), events)

    def _held(self, alone: bool) -> Connection:
        """The held connection that commits each statement on its own (``alone``), or the
        one whose transactions span several."""
        connection = self._connections.get(alone)
        if connection is None:
            connection = self.engine.connect()
            if alone:
                # BEGIN and COMMIT become no-ops on it: write_events runs unchanged.
                connection.execution_options(isolation_level="AUTOCOMMIT")
            self._connections[alone] = connection
        return connection

    def _let_go(self) -> None:
        """Give the held connections back (after a failure, and when closing)."""
        for connection in self._connections.values():
            with contextlib.suppress(DBAPIError):
                connection.close()
        self._connections.clear()

    def _write_on(self, connection: Connection, events: list[Event]) -> set[tuple[str, int]]:
        return write_events(connection, self._insert, events, self.on_finish)
