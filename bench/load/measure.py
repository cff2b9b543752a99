"""Measuring the machine a run shares: what the server processes, the local PostgreSQL and
everything else use (CPU seconds, memory), percentiles, and the machine's own line."""

from __future__ import annotations

import asyncio
import contextlib
import os
import platform
import sys
import time

import psutil

from bench.machine import cpu_model


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def cpu_seconds(process: psutil.Process) -> float:
    """CPU seconds ``process`` has spent, user and system."""
    times = process.cpu_times()
    return float(times.user + times.system)


def main_thread_seconds(process: psutil.Process) -> float:
    """CPU seconds ``process``'s main thread has spent (on Linux its thread id is the
    process id); 0 where threads cannot be read."""
    try:
        threads = process.threads()
    except psutil.AccessDenied:
        return 0.0
    for thread in threads:
        if thread.id == process.pid:
            return float(thread.user_time + thread.system_time)
    return 0.0


class Processes:
    """Several server processes measured as one: CPU times and memory added up."""

    def __init__(self, pids: list[int]) -> None:
        self.processes = [psutil.Process(pid) for pid in pids]

    def cpu(self) -> float:
        return sum(cpu_seconds(p) for p in self.processes)

    def main_thread_cpu(self) -> float:
        """CPU seconds of the processes' main threads, added up: the thread running the
        event loop (Python's, or Node.js's for boardgame.io). The rest of a process's CPU
        is its other threads' — in Parlour the event log's writer and the database work
        handed to worker threads, which take Python's interpreter lock in turn with the
        event loop."""
        return sum(main_thread_seconds(p) for p in self.processes)

    def rss(self) -> int:
        """Resident memory, in bytes."""
        return sum(int(p.memory_info().rss) for p in self.processes)


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy (every core, every process)."""
    times = psutil.cpu_times()
    return float(sum(times) - times.idle - getattr(times, "iowait", 0.0))


def database_cpu() -> float:
    """CPU seconds of the local PostgreSQL processes (the database's share of the work)."""
    total = 0.0
    for process in psutil.process_iter(["name"]):
        if (process.info["name"] or "").startswith("postgres"):
            with contextlib.suppress(psutil.Error):
                total += cpu_seconds(process)
    return total


async def wait_for_quiet(server: Processes, limit: float) -> None:
    """Wait (at most ``limit`` s) until other processes use under a quarter of a core."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        all0, own0, srv0, db0 = busy_seconds(), time.process_time(), server.cpu(), database_cpu()
        await asyncio.sleep(1.0)
        other = (busy_seconds() - all0) - (time.process_time() - own0) - (server.cpu() - srv0)
        if other - (database_cpu() - db0) < 0.25:
            return
    print("  (the machine stayed busy; measuring anyway)", file=sys.stderr, flush=True)


def machine() -> str:
    """CPU, cores, memory, OS and Python: the line each load entry starts with."""
    mem = psutil.virtual_memory().total / 2**30
    return (
        f"{cpu_model()}, {os.cpu_count()} cores, {mem:.0f} GiB, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}"
    )
