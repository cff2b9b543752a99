"""Where searching computer players think: a pool of worker processes, off the event loop.

A search (games.bots.search) keeps a core busy for up to a second. Run on the event loop, it
would hold up every other room of the process; run in a thread, it would still hold the
interpreter. So ``Thinkers`` sends each search to a process pool sized from the machine (one
worker per core this process may use, unless told otherwise), started on first use and shut
down with the app. The wall time a level may think is decided here, where there is a clock,
and handed to the search as ``out_of_time``.

How long a computer takes must not tell the table what it holds: a search with one legal
action returns at once, one with a real choice thinks its whole time. So every move of a
kind comes the same fixed ``think_time`` after its turn began (app/rooms/bot_driver.py
waits out the rest), and the search is cut ``REPLY_MARGIN`` before that, so that its answer
is back from the worker in time.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import games
from games.bots import choose

# Seconds each searching level may think per move (its simulation budget may end it sooner).
THINKING_SECONDS = {"normal": 0.2, "strong": 0.85}
# Seconds between a search's cut and its move going out: the answer's way back from the
# worker (and the last simulation, begun before the cut), which must not show in the time.
REPLY_MARGIN = 0.1


def think_time(kind: str, delay: float) -> float:
    """Seconds from a computer's turn beginning to its move, whatever it holds: the pause
    (``delay``), then for a searching kind its thinking time and the reply margin."""
    if kind not in THINKING_SECONDS:
        return delay
    return delay + THINKING_SECONDS[kind] + REPLY_MARGIN


def machine_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not every platform says which cores a process may use
        return max(1, os.cpu_count() or 1)


def think(
    game: str, state: Any, seat: int, seed: str, kind: str, deadline: float
) -> dict[str, Any]:
    """The move a computer player of ``kind`` makes (run in a worker process), its search
    cut at ``deadline`` on the monotonic clock, which every process of the machine shares
    (so the time the search waited for a free worker counts too) and which, unlike the
    wall clock, is never set back or forward."""
    return choose(
        games.get(game), state, seat, seed, kind, out_of_time=lambda: time.monotonic() >= deadline
    )


class Thinkers:
    """The process pool that searching computer players think in."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers or machine_workers()
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _submit(self, *work: Any) -> Future[dict[str, Any]]:
        """Hand ``think(*work)`` to the pool, starting it first if need be.

        Starting workers takes a while, so this runs in a thread, not on the event loop.
        forkserver: the workers are not forked from this process, whose threads (the event
        log's writer, say) might hold locks at the moment of a fork.
        """
        with self._lock:
            if self._pool is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["app.rooms.thinking"])
                self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
            return self._pool.submit(think, *work)

    async def move(
        self, game: str, state: Any, seat: int, seed: str, kind: str, seconds: float
    ) -> dict[str, Any]:
        """The move, thought out in a worker process while the event loop goes on, the
        search cut ``seconds`` from now."""
        deadline = time.monotonic() + seconds
        work = (game, state, seat, seed, kind, deadline)
        loop = asyncio.get_running_loop()
        future = await loop.run_in_executor(None, self._submit, *work)
        return await asyncio.wrap_future(future)

    def shutdown(self) -> None:
        """Stop the workers (the app is shutting down); searches under way are dropped."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
