"""One measured run: the generator plays its tables on the servers, and after a warm-up the
window is measured (throughput, latency, CPU and memory); or, for idle connections, the
server's memory with and without them."""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from app.heap import YOUNG_EVERY, collector_paced
from bench.load.generator import Generator, ProtocolFactory, Table
from bench.load.measure import (
    Processes,
    busy_seconds,
    database_cpu,
    percentile,
    wait_for_quiet,
)
from bench.load.servers import Server


class RssDrift(NamedTuple):
    """How the server's memory moved over a run (MB, and MB a minute)."""

    first: float
    last: float
    peak: float
    per_minute: float


@dataclass
class Result:
    label: str
    mode: str
    rooms: int
    connections: int
    seconds: float
    actions: int
    actions_per_s: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    errors: dict[str, int]
    server_cpu_pct: float
    server_cpu_us_per_action: float
    # The servers' main threads (the event loops) alone; the rest is their other threads.
    server_main_thread_cpu_pct: float
    server_rss_mb: float
    server_rss_kb_per_conn: float
    generator_cpu_pct: float
    db_cpu_pct: float
    messages_per_action: float
    other_cpu_pct: float
    mean_state_bytes: float
    matches_finished: int
    rematches: int
    rss_samples: list[tuple[float, float]] = field(default_factory=list)  # (s, MB)
    # The server's RSS before the first table was opened: what its connections added is
    # the difference.
    server_rss_start_mb: float = 0.0
    window: tuple[float, float] = (0.0, 0.0)  # the measured window, in wall-clock time

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def added_kb_per_conn(self) -> float:
        """The server's memory per connection beyond what it held before the tables."""
        return (self.server_rss_mb - self.server_rss_start_mb) * 1024 / self.connections

    def rss_drift(self) -> RssDrift | None:
        """The server's memory over the run; None with too few samples to tell."""
        if len(self.rss_samples) <= 2:
            return None
        first, last = self.rss_samples[0][1], self.rss_samples[-1][1]
        minutes = max(1e-9, self.rss_samples[-1][0] / 60)
        peak = max(s for _, s in self.rss_samples)
        return RssDrift(first, last, peak, (last - first) / minutes)


async def start_tables(
    gen: Generator, tables: list[tuple[str, int]], label: str, then: str
) -> list[asyncio.Future[Any]]:
    """Start playing every table; return once each is set up and connected once (or
    failed), bounded in time, and say how many play and what comes ``then``."""
    runners = [
        asyncio.ensure_future(Table(gen, i, game, seats).run())
        for i, (game, seats) in enumerate(tables)
    ]
    # Setting a table up takes a handful of HTTP calls and two handshakes: thousands of
    # tables (the crowd run) need minutes.
    deadline = time.monotonic() + 120 + 0.1 * len(tables)
    while gen.started_tables + gen.failed_tables < len(tables) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    print(
        f"  {label}: {gen.started_tables}/{len(tables)} tables playing; {then}",
        file=sys.stderr,
        flush=True,
    )
    return runners


async def drive(
    servers: list[Server],
    *,
    label: str,
    protocol: ProtocolFactory,
    tables: list[tuple[str, int]],
    pace: float | None,
    warmup: float,
    duration: float,
    sample_every: float = 5.0,
    quiet_wait: float = 0.0,
    measuring: asyncio.Event | None = None,
    seats_at_referee: bool = False,
) -> Result:
    """Play ``tables`` (game, seats) on ``servers``; measure ``duration`` s after ``warmup``.

    With several server processes, their CPU and memory are added up, and a room's seats
    connect one to each (every move crosses between them) or, ``seats_at_referee``, all to
    the room's referee. ``measuring`` is set as the measured window opens (the profile run
    starts its profiler then)."""
    gen = Generator(servers, pace, protocol, seats_at_referee=seats_at_referee)
    seats = ", seats at the referee" if seats_at_referee else ", seats split"
    proc = Processes([server.pid for server in servers])
    rss_start = proc.rss()
    runners = await start_tables(
        gen, tables, label, f"warm-up {warmup:g} s, then {duration:g} s measured"
    )
    want = sum(seats for _, seats in tables)
    # The generator holds every table's sockets too: its own collector's pauses, long on
    # a heap this size (app/heap.py says why), would be counted as the server's latency,
    # so it paces its collector as the server does by default.
    with collector_paced(asyncio.get_running_loop(), YOUNG_EVERY):
        await asyncio.sleep(warmup)
        if quiet_wait:
            await wait_for_quiet(proc, quiet_wait)
        cpu0, gen0, t0 = proc.cpu(), time.process_time(), time.perf_counter()
        main0 = proc.main_thread_cpu()
        if measuring is not None:
            measuring.set()
        wall0 = time.time()
        all0, db0 = busy_seconds(), database_cpu()
        received0, finished0 = gen.stats.received, gen.stats.matches_finished
        start_mono = time.monotonic()
        samples: list[tuple[float, float]] = [(0.0, proc.rss() / 2**20)]
        while (elapsed := time.perf_counter() - t0) < duration:
            await asyncio.sleep(min(sample_every, duration - elapsed))
            samples.append((time.monotonic() - start_mono, proc.rss() / 2**20))
        cpu1, gen1, t1 = proc.cpu(), time.process_time(), time.perf_counter()
        main1 = proc.main_thread_cpu()
        wall1 = time.time()
        all1, db1 = busy_seconds(), database_cpu()
        received1, finished1 = gen.stats.received, gen.stats.matches_finished
        rss = proc.rss()
    gen.stop()
    await asyncio.wait(runners, timeout=30)
    for runner in runners:
        runner.cancel()
    await gen.close()
    stats = gen.stats
    window = [lat for at, lat in stats.done if t0 <= at <= t1]
    seconds = t1 - t0
    actions = len(window)
    lat_ms = [x * 1000 for x in window]
    return Result(
        label=label if len(servers) == 1 else f"{label}, {len(servers)} processes{seats}",
        mode="saturated" if pace is None else f"paced {pace:g} s",
        rooms=len(tables),
        connections=want,
        seconds=seconds,
        actions=actions,
        actions_per_s=actions / seconds,
        p50_ms=percentile(lat_ms, 50),
        p95_ms=percentile(lat_ms, 95),
        p99_ms=percentile(lat_ms, 99),
        max_ms=max(lat_ms) if lat_ms else float("nan"),
        errors=dict(stats.errors),
        server_cpu_pct=100 * (cpu1 - cpu0) / seconds,
        server_cpu_us_per_action=1e6 * (cpu1 - cpu0) / actions if actions else float("nan"),
        server_main_thread_cpu_pct=100 * (main1 - main0) / seconds,
        server_rss_mb=rss / 2**20,
        server_rss_kb_per_conn=rss / 1024 / want,
        generator_cpu_pct=100 * (gen1 - gen0) / seconds,
        db_cpu_pct=100 * (db1 - db0) / seconds,
        messages_per_action=(
            (received1 - received0) / (actions * (want / len(tables))) if actions else 0.0
        ),
        other_cpu_pct=100 * ((all1 - all0) - (cpu1 - cpu0) - (gen1 - gen0) - (db1 - db0)) / seconds,
        mean_state_bytes=stats.state_bytes / stats.state_messages if stats.state_messages else 0,
        matches_finished=finished1 - finished0,
        rematches=stats.rematches,
        rss_samples=samples,
        window=(wall0, wall1),
        server_rss_start_mb=rss_start / 2**20,
    )


@dataclass
class IdleResult:
    label: str
    connections: int
    rss_before_mb: float
    rss_after_mb: float
    kb_per_connection: float
    errors: dict[str, int]


async def measure_idle(
    server: Server,
    label: str,
    protocol: ProtocolFactory,
    tables: list[tuple[str, int]],
    *,
    greeted: bool,
) -> IdleResult:
    """Open one WebSocket per seat of ``tables`` that never acts; the server's RSS delta.

    ``greeted``: the server sends each connection its state on connect (wait for it).
    """
    gen = Generator([server], 3600.0, protocol)  # paced so slowly nobody acts
    proc = Processes([server.pid])
    idle = [Table(gen, i, game, seats) for i, (game, seats) in enumerate(tables)]
    sem = asyncio.Semaphore(16)

    async def setup(table: Table) -> None:
        async with sem:
            await gen.protocol.setup(table)

    await asyncio.gather(*(setup(t) for t in idle))
    await asyncio.sleep(1.0)
    before = proc.rss()
    all_tasks = await asyncio.gather(*(t.connect_all() for t in idle))
    want = sum(t.seat_count for t in idle)
    deadline = time.monotonic() + 60
    while greeted and time.monotonic() < deadline:
        if sum(s >= 0 for t in idle for s in t.seen) >= want:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(2.0)
    after = proc.rss()
    gen.stop()
    await asyncio.gather(*(t.close_all(k) for t, k in zip(idle, all_tasks, strict=True)))
    await gen.close()
    return IdleResult(
        label=label,
        connections=want,
        rss_before_mb=before / 2**20,
        rss_after_mb=after / 2**20,
        kb_per_connection=(after - before) / 1024 / want,
        errors=dict(gen.stats.errors),
    )
