"""How to write the event log: the choices measured side by side, in one run.

Every acknowledged action is one row in ``match_events``, committed before anyone is told.
This benchmark appends events the way the server does — many rooms at once, each waiting
for its own event's commit before its next one — with each way of writing them:

* ``on-loop``: one transaction per event, run on the event loop (how the server once did it);
* ``thread-each``: one transaction per event, each in a worker thread (``asyncio.to_thread``);
* ``group-commit``: the server's way (app/rooms/event_log.py): one writer thread takes every
  event queued during the previous transaction and commits them together;
* ``async-each`` and ``async-group``: the same two with SQLAlchemy's asyncio extension and
  psycopg's async driver (PostgreSQL only).

For each it prints events/s, this process's CPU per event (all threads), the database
server's CPU per event (PostgreSQL, when its processes can be read), the transactions
used, and the event loop's longest stall (a 1 ms ticker's worst lateness): a stall is time
in which no other room could be served.

    python -m bench.persistence [--database-url URL] [--rooms 100] [--events 40]
                                [--results-dir DIR] [--no-write]

PostgreSQL needs a database of its own (``createdb -h 127.0.0.1 -U postgres bench``); it is
emptied first. The default is a fresh SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
from sqlalchemy import Engine, insert
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.db import make_engine, upgrade_to_head
from app.models import Match, MatchEvent, Room, User
from app.rooms.event_log import Event, EventLog
from bench import machine
from bench.load import reset_postgres

Append = Callable[[Event], Awaitable[None]]


@dataclass
class Figures:
    name: str
    events: int
    seconds: float
    cpu: float
    db_cpu: float | None
    transactions: int
    stall_ms: float

    def row(self) -> str:
        per_event = 1e6 * self.cpu / self.events
        db = "—" if self.db_cpu is None else f"{1e6 * self.db_cpu / self.events:,.0f}"
        return (
            f"| {self.name} | {self.events / self.seconds:,.0f} | {per_event:,.0f} | {db}"
            f" | {self.transactions:,} | {self.stall_ms:,.1f} |"
        )


def seed_matches(engine: Engine, rooms: int) -> list[str]:
    """A user, ``rooms`` rooms and one match each; returns the match ids."""
    ids = [secrets.token_hex(8) for _ in range(rooms)]
    with engine.begin() as connection:
        connection.execute(insert(User), [{"id": "bench", "name": "Bench"}])
        connection.execute(
            insert(Match),
            [
                {
                    "id": match_id,
                    "room_id": match_id,
                    "game": "cupid",
                    "seat_count": 2,
                    "options": {},
                    "seed": "1",
                    "seed_hash": "0" * 64,
                    "players": [],
                    "status": "playing",
                }
                for match_id in ids
            ],
        )
        connection.execute(
            insert(Room),
            [
                {
                    "id": match_id,
                    "code": match_id[:8].upper(),
                    "game": "cupid",
                    "seat_count": 2,
                    "options": {},
                    "visibility": "public",
                    "status": "playing",
                    "host_id": "bench",
                    "match_id": match_id,
                }
                for match_id in ids
            ],
        )
    return ids


def row_of(event: Event) -> dict[str, Any]:
    return {
        "match_id": event.match_id,
        "seq": event.seq,
        "seat": event.seat,
        "action": event.action,
    }


class Counter:
    transactions = 0


def on_loop(engine: Engine, counter: Counter) -> Append:
    async def append(event: Event) -> None:
        with engine.begin() as connection:
            connection.execute(insert(MatchEvent), row_of(event))
        counter.transactions += 1

    return append


def thread_each(engine: Engine, counter: Counter) -> Append:
    def write(event: Event) -> None:
        with engine.begin() as connection:
            connection.execute(insert(MatchEvent), row_of(event))

    async def append(event: Event) -> None:
        await asyncio.to_thread(write, event)
        counter.transactions += 1

    return append


def async_each(engine: AsyncEngine, counter: Counter) -> Append:
    async def append(event: Event) -> None:
        async with engine.begin() as connection:
            await connection.execute(insert(MatchEvent), row_of(event))
        counter.transactions += 1

    return append


def async_group(engine: AsyncEngine, counter: Counter) -> Append:
    """Group commit as in app/rooms/event_log.py, on the async driver instead of a thread."""
    queue: list[tuple[Event, asyncio.Future[None]]] = []
    wakeup = asyncio.Event()

    async def writer() -> None:
        while True:
            await wakeup.wait()
            wakeup.clear()
            while queue:
                batch = queue[:]
                queue.clear()
                async with engine.begin() as connection:
                    await connection.execute(insert(MatchEvent), [row_of(e) for e, _ in batch])
                counter.transactions += 1
                for _, done in batch:
                    done.set_result(None)

    task: list[asyncio.Task[None]] = []

    async def append(event: Event) -> None:
        if not task:
            task.append(asyncio.get_running_loop().create_task(writer()))
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append((event, done))
        wakeup.set()
        await done

    return append


async def drive(append: Append, match_ids: list[str], events: int, offset: int) -> float:
    """Every room appends ``events`` events one after another; returns the worst stall."""
    stall = 0.0
    running = True

    async def ticker() -> None:
        nonlocal stall
        loop = asyncio.get_running_loop()
        while running:
            before = loop.time()
            await asyncio.sleep(0.001)
            stall = max(stall, loop.time() - before - 0.001)

    async def room(match_id: str) -> None:
        for seq in range(offset + 1, offset + events + 1):
            action = {"type": "play", "card": "7S"}
            await append(Event(match_id, seq, seq % 2, action, match_id))

    tick = asyncio.get_running_loop().create_task(ticker())
    await asyncio.gather(*(room(m) for m in match_ids))
    running = False
    await tick
    return stall


def database_processes(url: str) -> list[psutil.Process]:
    if not url.startswith("postgresql"):
        return []
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        name = process.info["name"] or ""
        if name.startswith("postgres"):
            found.append(process)
    return found


def cpu_of(processes: list[psutil.Process]) -> float | None:
    if not processes:
        return None
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        total += times.user + times.system
    return total


async def measure(
    name: str, make: Callable[[Counter], Append], url: str, ids: list[str], events: int, n: int
) -> Figures:
    counter = Counter()
    append = make(counter)
    db = database_processes(url)
    db_before = cpu_of(db)
    cpu_before, wall_before = time.process_time(), time.perf_counter()
    stall = await drive(append, ids, events, offset=n * events)
    seconds = time.perf_counter() - wall_before
    cpu = time.process_time() - cpu_before
    db_after = cpu_of(db)
    db_cpu = None if db_before is None or db_after is None else db_after - db_before
    return Figures(
        name, len(ids) * events, seconds, cpu, db_cpu, counter.transactions, 1000 * stall
    )


async def run(url: str, rooms: int, events: int) -> list[Figures]:
    engine = make_engine(url)
    ids = seed_matches(engine, rooms)
    event_log = EventLog(engine)

    async def group(event: Event) -> None:
        await event_log.append(event)

    def group_commit(counter: Counter) -> Append:
        return group

    choices: list[tuple[str, Callable[[Counter], Append]]] = [
        ("on-loop", lambda c: on_loop(engine, c)),
        ("thread-each", lambda c: thread_each(engine, c)),
        ("group-commit", group_commit),
    ]
    async_engine: AsyncEngine | None = None
    if url.startswith("postgresql+psycopg"):
        async_engine = create_async_engine(url)
        choices += [
            ("async-each", lambda c: async_each(async_engine, c)),  # type: ignore[arg-type]
            ("async-group", lambda c: async_group(async_engine, c)),  # type: ignore[arg-type]
        ]
    results = []
    for n, (name, make) in enumerate(choices):
        before = event_log.batches
        figures = await measure(name, make, url, ids, events, n)
        if name == "group-commit":
            figures.transactions = event_log.batches - before
        results.append(figures)
        print(figures.row(), flush=True)
    await event_log.close()
    if async_engine is not None:
        await async_engine.dispose()
    engine.dispose()
    return results


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.persistence", description=__doc__)
    parser.add_argument("--database-url", help="PostgreSQL URL (a database of its own)")
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--events", type=int, default=40, help="events per room and choice")
    parser.add_argument("--results-dir", type=Path, default=machine.RESULTS)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    workdir = tempfile.TemporaryDirectory(prefix="parlour-persistence-")
    url = args.database_url or f"sqlite:///{workdir.name}/bench.db"
    if args.database_url:
        reset_postgres(url)
    upgrade_to_head(url)
    when = machine.now()
    database = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    head = [
        f"# Persistence choices — {database}",
        "",
        f"{machine.describe(when)}",
        "",
        f"Command: `{machine.command_line('bench.persistence', argv)}`",
        "",
        f"{args.rooms} rooms at once, each appending {args.events} events one after another"
        " (waiting for each commit), per choice.",
        "",
        "| choice | events/s | µs CPU per event (server) | µs DB CPU per event | transactions"
        " | longest loop stall ms |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    print("\n".join(head), flush=True)
    results = asyncio.run(run(url, args.rooms, args.events))
    workdir.cleanup()
    if not args.no_write:
        path = machine.write_result(
            args.results_dir,
            when,
            f"persistence-{database.lower()}",
            head + [f.row() for f in results],
        )
        print(f"recorded in {machine.shown(path)}")


if __name__ == "__main__":
    main(sys.argv[1:])
