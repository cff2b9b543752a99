"""The restart run: server processes sharing the rooms, restarted one at a time under paced
load as a deploy restarts them, and what the players saw of it.

Every process is started as ``python -m app.serve`` starts it. After the warm-up each is
sent SIGTERM in turn (it hands its rooms to the others and tells its sockets to reconnect
with 1012: app/departure.py), started again on its port, and given ``settle`` seconds
serving before the next is stopped. The seats reconnect at once to a process that is up
(bench/load/generator.py). Printed: the moves the seats saw acknowledged, how many of them
the event log lacks (or holds as another move), errors other than the reconnects, the
reconnects, the longest any move waited from its first send to every seat of its room
seeing it (the longest stall), and each stopped process's exit status and time.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.load.drive import start_tables
from bench.load.generator import Generator, ProtocolFactory
from bench.load.measure import percentile
from bench.load.servers import Server


@dataclass
class Stop:
    """One process stopped by SIGTERM: its exit status and how long it took to exit."""

    port: int
    status: int
    seconds: float
    at: float = 0.0  # when the signal was sent (time.perf_counter)
    longest_ms: float = float("nan")  # the longest stall of a move first sent after it


@dataclass
class RestartResult:
    label: str
    rooms: int
    connections: int
    seconds: float
    acknowledged: int
    lost: int
    errors: dict[str, int]  # from the first stop on
    errors_before: dict[str, int]  # during the warm-up, for comparison
    reconnects: int
    refused_restarting: int
    longest_stall_ms: float
    p99_ms: float
    longest_before_ms: float  # the longest wait during the warm-up, for comparison
    stops: list[Stop] = field(default_factory=list)

    @property
    def error_count(self) -> int:
        failed = sum(s.status != 0 for s in self.stops)
        return sum(self.errors.values()) + sum(self.errors_before.values()) + self.lost + failed


async def restart_in_turn(gen: Generator, servers: list[Server], settle: float) -> list[Stop]:
    """SIGTERM each server in turn, start it again, and let it serve ``settle`` seconds."""
    stops = []
    for index, server in enumerate(servers):
        gen.down.add(index)  # new connections go to the others
        began, at = time.monotonic(), time.perf_counter()
        status = await asyncio.to_thread(server.terminate)
        stops.append(Stop(server.port, status, time.monotonic() - began, at))
        print(
            f"  restart: process on port {server.port} exited {status} after"
            f" {stops[-1].seconds:.2f} s; starting it again",
            file=sys.stderr,
            flush=True,
        )
        await asyncio.to_thread(server.start)
        gen.down.discard(index)
        await asyncio.sleep(settle)
    return stops


def lost_moves(database_url: str, acknowledged: dict[tuple[str, int], Any]) -> int:
    """How many acknowledged moves the event log lacks, or holds as another move."""
    from sqlalchemy import select

    from app.db import make_engine
    from app.models import MatchEvent, Room

    engine = make_engine(database_url)
    rooms = sorted({room_id for room_id, _ in acknowledged})
    logged: dict[tuple[str, int], Any] = {}
    with engine.connect() as connection:
        for start in range(0, len(rooms), 500):
            query = (
                select(Room.id, MatchEvent.seq, MatchEvent.action)
                .join(MatchEvent, MatchEvent.match_id == Room.match_id)
                .where(Room.id.in_(rooms[start : start + 500]))
            )
            for room_id, seq, action in connection.execute(query):
                logged[(room_id, seq)] = action
    engine.dispose()
    return sum(logged.get(key) != action for key, action in acknowledged.items())


async def drive_restarts(
    servers: list[Server],
    *,
    label: str,
    protocol: ProtocolFactory,
    tables: list[tuple[str, int]],
    pace: float,
    warmup: float,
    settle: float,
    database_url: str,
) -> RestartResult:
    """Play ``tables`` paced on ``servers``; after ``warmup`` restart each in turn."""
    gen = Generator(servers, pace, protocol, reconnect=True)
    runners = await start_tables(
        gen,
        tables,
        label,
        f"warm-up {warmup:g} s, then each of {len(servers)} processes restarted in turn",
    )
    await asyncio.sleep(warmup)
    t0 = time.perf_counter()
    errors_before = Counter(gen.stats.errors)
    stops = await restart_in_turn(gen, servers, settle)
    t1 = time.perf_counter()
    gen.stop()
    await asyncio.wait(runners, timeout=30)
    for runner in runners:
        runner.cancel()
    await gen.close()
    stats = gen.stats
    # By when each move was first sent: from the first stop on, or during the warm-up.
    during = [lat * 1000 for at, lat in stats.done if at - lat >= t0]
    before = [lat * 1000 for at, lat in stats.done if at - lat < t0]
    # Each stop's own: the moves first sent between it and the next stop.
    for stop, until in zip(stops, [s.at for s in stops[1:]] + [t1], strict=True):
        waits = [lat * 1000 for at, lat in stats.done if stop.at <= at - lat < until]
        stop.longest_ms = max(waits, default=float("nan"))
    return RestartResult(
        label=f"{label}, {len(servers)} processes restarted in turn",
        rooms=len(tables),
        connections=sum(seats for _, seats in tables),
        seconds=t1 - t0,
        acknowledged=len(gen.acknowledged),
        lost=await asyncio.to_thread(lost_moves, database_url, gen.acknowledged),
        errors=dict(stats.errors - errors_before),
        errors_before=dict(errors_before),
        reconnects=stats.reconnects,
        refused_restarting=stats.refused_restarting,
        longest_stall_ms=max(during) if during else float("nan"),
        p99_ms=percentile(during, 99),
        longest_before_ms=max(before) if before else float("nan"),
        stops=stops,
    )


def format_restarts(r: RestartResult, pace: float) -> list[str]:
    errors = ", ".join(f"{k}={v}" for k, v in sorted(r.errors.items())) or "none"
    warmup = ", ".join(f"{k}={v}" for k, v in sorted(r.errors_before.items())) or "none"
    exits = "; ".join(
        f":{s.port} exited {s.status} in {s.seconds:.2f} s (longest stall after it"
        f" {s.longest_ms:.0f} ms)"
        for s in r.stops
    )
    return [
        f"{r.label}: paced {pace:g} s, {r.rooms} rooms, {r.connections} connections,"
        f" {r.seconds:.1f} s from the first stop to the last restart settled",
        f"  acknowledged moves   {r.acknowledged} (seen acknowledged by the seat that made"
        " them, over the whole run)",
        f"  lost acknowledged    {r.lost} (missing from the event log or logged otherwise;"
        " must be 0)",
        f"  errors               {sum(r.errors.values())} other than reconnects, from the first"
        f" stop on ({errors}; must be 0); during the warm-up: {warmup}",
        f"  reconnects           {r.reconnects} sockets told 1012 and connected again;"
        f" {r.refused_restarting} acts refused by a stopping process and sent again",
        f"  longest stall        {r.longest_stall_ms:.0f} ms (a move's first send to every seat"
        f" of its room seeing it; p99 {r.p99_ms:.0f} ms, moves sent from the first stop on);"
        f" moves sent during the warm-up: {r.longest_before_ms:.0f} ms",
        f"  stops                {exits}",
    ]
