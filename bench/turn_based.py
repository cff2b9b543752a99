"""Turn-based tables at scale: memory stays bounded, and a table loaded from the database
acts quickly.

Fills a PostgreSQL database with ``--tables`` (100,000) real turn-based Cupid tables —
two people each, rooms, seats, matches, who sat where and a few moves of each log, with
their deadlines spread over the next three days — by COPY, in a process of its own. Then
runs the room service in this process as the server builds it (app.rooms.Rooms on the
database, nobody connected), and acts in ``--rate`` (1 %) of the tables each minute for
``--minutes`` minutes, ``--speed`` times faster than real time: each act loads its table
from the database (the log replayed), plays the awaited person's move (committed), and
lets the table go, as the server does when nobody is at it. The deadline sweep runs each
minute meanwhile. It prints the process's memory (RSS) before and after, how many tables
it holds at the end, the act latency (load and act together, and the load alone; p50 and
p99) and how long a sweep took.

    python -m bench.turn_based --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench_turns
        [--tables 100000] [--rate 0.01] [--minutes 3] [--speed 1] [--keep]
        [--results-dir DIR] [--no-write]

The database is dropped and made again (``--keep`` reuses tables already there from an
earlier run of the same size); the test suite's database ``test`` is refused.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import multiprocessing
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psutil
from sqlalchemy import create_engine, func, make_url, select, text

import games
from app.db import make_engine, upgrade_to_head
from app.models import Room
from app.rooms import Rooms
from app.rooms.pace import DAY
from app.rooms.signals import Signal
from app.rooms.storage import RoomStorage
from bench import machine

GAME = "cupid"
DAYS_PER_MOVE = 3
MOVES = 4  # moves already in each table's log
PEOPLE = 2_000  # each plays at many tables
CHUNK = 5_000  # tables per COPY transaction


# --- filling the database ------------------------------------------------------------------


def reset_database(url: str) -> None:
    """Drop the benchmark's database and make it again, empty and migrated."""
    parsed = make_url(url)
    if parsed.database in (None, "", "test", "postgres"):
        raise SystemExit(f"refusing to reset the database {parsed.database!r}")
    maintenance = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with maintenance.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{parsed.database}"'))
    maintenance.dispose()
    upgrade_to_head(url)


def table_rows(index: int, now: datetime) -> dict[str, list[tuple[Any, ...]]]:
    """One table's rows, a real one: its log is a few legal moves of a seeded match, and
    its stored clocks await whoever the rules await after them."""
    rng = random.Random(index)
    rules = games.get(GAME)
    options = rules.default_options()
    seed = rng.getrandbits(128)
    room_id, match_id = f"tb{index:012d}", f"tm{index:012d}"
    people = rng.sample(range(PEOPLE), 2)
    users = [f"u{person:08d}" for person in people]
    names = [f"Player {person}" for person in people]
    state = rules.new_game(2, seed, options, None)
    events = []
    for seq in range(1, MOVES + 1):
        seat = rules.to_act(state)[0]
        action = rules.legal_actions(state, seat)[0]
        state = rules.apply(state, seat, action)
        played_by = json.dumps({"user_id": users[seat]})
        at = now - timedelta(hours=MOVES - seq)
        events.append((match_id, seq, seat, json.dumps(action), at, played_by, False))
    awaited = rules.to_act(state)
    deadline = now.timestamp() + rng.uniform(0, DAYS_PER_MOVE * DAY)
    deadlines = [deadline if seat in awaited else None for seat in range(2)]
    clocks = {"banks": [0.0, 0.0], "deadlines": deadlines, "timeouts": [0, 0]}
    players = [{"seat": s, "name": names[s], "user_id": users[s], "bot": None} for s in range(2)]
    created = now - timedelta(days=1)
    return {
        "matches": [
            (
                match_id, room_id, GAME, 2, json.dumps(options), str(seed),
                hashlib.sha256(str(seed).encode()).hexdigest(), json.dumps(players),
                "playing", created, False, False,
            )
        ],
        "rooms": [
            (
                room_id, GAME, 2, json.dumps(options), "private", "playing", users[0],
                match_id, created, False, json.dumps(clocks), True, "[]", "{}",
                "turn_based", DAYS_PER_MOVE,
                datetime.fromtimestamp(deadline, UTC).replace(tzinfo=None),
            )
        ],
        "seats": [(room_id, s, users[s], names[s]) for s in range(2)],
        "match_players": [(match_id, s, users[s]) for s in range(2)],
        "match_events": events,
    }  # fmt: skip


COLUMNS = {
    "matches": "id, room_id, game, seat_count, options, seed, seed_hash, players, status,"
    " created_at, rated, ratings_applied",
    "rooms": "id, game, seat_count, options, visibility, status, host_id, match_id,"
    " created_at, rated, clock_state, watchers_chat, muted, mute_marks, pace,"
    " days_per_move, deadline",
    "seats": "room_id, seat, user_id, name",
    "match_players": "match_id, seat, user_id",
    "match_events": "match_id, seq, seat, action, at, played_by, timeout",
}


def fill(url: str, tables: int) -> float:
    """Write ``tables`` turn-based tables (and their people) by COPY; the seconds it took.
    Runs in a process of its own, so that what it builds never counts in the service's
    memory."""
    started = time.perf_counter()
    engine = make_engine(url)
    now = datetime.now(UTC).replace(tzinfo=None)
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        with cursor.copy("COPY users (id, name, created_at) FROM STDIN") as copy:
            for person in range(PEOPLE):
                copy.write_row((f"u{person:08d}", f"Player {person}", now))
        raw.commit()
        for first in range(0, tables, CHUNK):
            rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in COLUMNS}
            for index in range(first, min(first + CHUNK, tables)):
                for name, found in table_rows(index, now).items():
                    rows[name].extend(found)
            for name, columns in COLUMNS.items():
                statement = f"COPY {name} ({columns}) FROM STDIN"
                with cursor.copy(statement) as copy:
                    for row in rows[name]:
                        copy.write_row(row)
            raw.commit()
    finally:
        raw.close()
        engine.dispose()
    return time.perf_counter() - started


def stored_tables(url: str) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            query = select(func.count()).select_from(Room).where(Room.pace == "turn_based")
            return int(connection.execute(query).scalar_one())
    finally:
        engine.dispose()


# --- the room service, nobody connected -----------------------------------------------------


class Nobody:
    """Presence with nobody connected anywhere, and a notifier nobody listens to: the
    tables are acted on as over HTTP, with no socket open."""

    def connected_users(self, room_id: str) -> set[str]:
        return set()

    def watcher_count(self, room_id: str) -> int:
        return 0

    def local_watcher_count(self, room_id: str) -> int:
        return 0

    def room_changed(self, room: Any) -> None:
        return None


class CountedSignals:
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def emit(self, signal: Signal) -> None:
        kind = type(signal).__name__
        self.counts[kind] = self.counts.get(kind, 0) + 1


def rss_mib() -> float:
    return float(psutil.Process().memory_info().rss) / 2**20


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def act_in(rooms: Rooms, room_id: str) -> tuple[float, float]:
    """Load a table, play its awaited person's first legal move, let it go; (load, whole)
    seconds."""
    started = time.perf_counter()
    room = await rooms.get(room_id)
    loaded = time.perf_counter()
    seat = room.rules.to_act(room.state)[0]
    holder = room.seats[seat]
    assert holder is not None and holder.user_id is not None
    action = room.rules.legal_actions(room.state, seat)[0]
    await rooms.act(room, user_id=holder.user_id, version=room.version, action=action)
    done = time.perf_counter()
    rooms.registry.release_if_idle(room)
    return loaded - started, done - started


async def drive(url: str, tables: int, rate: float, minutes: float, speed: float) -> dict[str, Any]:
    nobody, signals = Nobody(), CountedSignals()
    rooms = Rooms(
        RoomStorage(make_engine(url)),
        notifier=nobody,
        presence=nobody,
        bot_delay=0.0,
        signals=signals,
        turn_sweep_seconds=0,
    )
    held_at_start = await rooms.registry.resume_all()
    rss_start = rss_mib()
    per_second = tables * rate / 60 * speed
    total = max(1, round(tables * rate * minutes))
    ids = [f"tb{index:012d}" for index in random.Random(7).sample(range(tables), total)]
    loads: list[float] = []
    wholes: list[float] = []
    sweeps: list[float] = []
    errors = 0
    peak = rss_start

    async def one(room_id: str) -> None:
        nonlocal errors
        try:
            load, whole = await act_in(rooms, room_id)
        except Exception as error:
            errors += 1
            print(f"  act failed in {room_id}: {type(error).__name__}: {error}", file=sys.stderr)
            return
        loads.append(load)
        wholes.append(whole)

    async def sweep_each_minute() -> None:
        while True:
            began = time.perf_counter()
            await rooms.sweep.once()
            sweeps.append(time.perf_counter() - began)
            await asyncio.sleep(60 / speed)

    sweeper = asyncio.get_running_loop().create_task(sweep_each_minute())
    began = time.perf_counter()
    tasks = []
    for n, room_id in enumerate(ids):
        due = began + n / per_second
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        tasks.append(asyncio.get_running_loop().create_task(one(room_id)))
        if n % 100 == 0:
            peak = max(peak, rss_mib())
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - began
    sweeper.cancel()
    peak = max(peak, rss_mib())
    held_at_end = len(rooms.registry.rooms())
    await rooms.close()
    return {
        "held_at_start": held_at_start,
        "held_at_end": held_at_end,
        "rss_start": rss_start,
        "rss_end": rss_mib(),
        "rss_peak": peak,
        "acts": len(wholes),
        "errors": errors,
        "elapsed": elapsed,
        "loads": loads,
        "wholes": wholes,
        "sweeps": sweeps,
        "signals": signals.counts,
    }


# --- the report -----------------------------------------------------------------------------


def report(args: argparse.Namespace, figures: dict[str, Any], filled: float | None) -> list[str]:
    ms = 1000.0
    wholes, loads, sweeps = figures["wholes"], figures["loads"], figures["sweeps"]
    per_minute = args.tables * args.rate
    signals = ", ".join(f"{kind} {n:,}" for kind, n in sorted(figures["signals"].items()))
    lines = [
        f"{args.tables:,} turn-based {GAME} tables in PostgreSQL ({MOVES} moves logged each,"
        f" {DAYS_PER_MOVE} days per move)"
        + ("" if filled is None else f", written in {filled:.0f} s"),
        f"acting in {args.rate:.2%} of them a minute ({per_minute:,.0f} acts/min) for"
        f" {args.minutes:g} min at {args.speed:g}x real time: {figures['acts']:,} acts in"
        f" {figures['elapsed']:.0f} s, {figures['errors']} errors",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| server RSS before acting | {figures['rss_start']:,.0f} MiB |",
        f"| server RSS after acting | {figures['rss_end']:,.0f} MiB |",
        f"| server RSS, highest seen | {figures['rss_peak']:,.0f} MiB |",
        f"| tables held at start / at the end | {figures['held_at_start']} /"
        f" {figures['held_at_end']} |",
        f"| act latency, table loaded from the database: p50 / p99 |"
        f" {statistics.median(wholes) * ms:.1f} / {percentile(wholes, 0.99) * ms:.1f} ms |",
        f"| of which loading (log replayed): p50 / p99 | {statistics.median(loads) * ms:.1f} /"
        f" {percentile(loads, 0.99) * ms:.1f} ms |",
        f"| deadline sweep (indexed query, reminders claimed): mean / max | "
        f"{statistics.mean(sweeps) * ms:.0f} / {max(sweeps) * ms:.0f} ms ({len(sweeps)} sweeps) |",
        f"| signals emitted | {signals or 'none'} |",
    ]  # fmt: skip
    return lines


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m bench.turn_based", description=__doc__)
    parser.add_argument("--database-url", required=True, help="a PostgreSQL database of its own")
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--rate", type=float, default=0.01, help="share of tables acting a minute")
    parser.add_argument("--minutes", type=float, default=3.0, help="minutes of play measured")
    parser.add_argument("--speed", type=float, default=1.0, help="times faster than real time")
    parser.add_argument("--keep", action="store_true", help="reuse the tables already there")
    parser.add_argument("--results-dir", type=Path, default=machine.RESULTS)
    parser.add_argument("--no-write", action="store_true", help="print only; record nothing")
    args = parser.parse_args(argv)
    if make_url(args.database_url).get_backend_name() != "postgresql":
        raise SystemExit(
            "this benchmark runs on PostgreSQL (--database-url postgresql+psycopg://…)"
        )

    when = machine.now()
    print(f"Turn-based tables — {machine.describe(when)}")
    filled = None
    if not (args.keep and stored_tables(args.database_url) == args.tables):
        reset_database(args.database_url)
        print(f"writing {args.tables:,} tables …", flush=True)
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(1, mp_context=spawn) as pool:
            filled = pool.submit(fill, args.database_url, args.tables).result()
    print("acting …", flush=True)
    figures = asyncio.run(
        drive(args.database_url, args.tables, args.rate, args.minutes, args.speed)
    )
    lines = report(args, figures, filled)
    print("\n".join(lines))
    if not args.no_write:
        recorded = [
            f"# Turn-based tables, {machine.stamp(when)}, commit {machine.commit()}",
            "",
            f"Command: `{machine.command_line('bench.turn_based', argv)}`.",
            "",
            f"Measured {machine.describe(when)}.",
            "",
            *lines,
        ]
        path = machine.write_result(args.results_dir, when, "turn-based", recorded)
        print(f"recorded in {machine.shown(path)}")


if __name__ == "__main__":
    main()
