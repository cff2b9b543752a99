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

The decisions of finished matches are judged (games.bots.analysis, queued by
app/records/analysis.py) in a pool of their own whose workers run at the lowest CPU
priority the system has (``JUDGING_NICENESS``): a judgement uses only what the live tables
leave of the machine — the event loop, the event log's writer, the database, the searches of
computers at play — and never slows a table, however long the queue of matches to judge.
It leaves one core to the live work: one worker fewer than the live pool (at least one).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

import games
from games import describe
from games.bots import choose
from games.bots.analysis import judge

T = TypeVar("T")

# Seconds each searching level may think per move (its simulation budget may end it sooner).
THINKING_SECONDS = {"normal": 0.2, "strong": 0.85}
# The niceness of the workers that judge finished matches: the lowest priority (POSIX).
JUDGING_NICENESS = 19
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


def lower_priority() -> None:
    """Run this worker process at the lowest CPU priority (``JUDGING_NICENESS``)."""
    os.nice(JUDGING_NICENESS - os.nice(0))


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


def judge_decision(
    game: str, state: Any, seat: int, played: dict[str, Any], seq: int, seed: str
) -> dict[str, Any]:
    """One decision of a finished match judged (run in a worker process), in wire form,
    with the public account of the best move as it would have gone (``best_text``: the
    match is over, so what it would have shown is public too) in English, and as data
    (``best_says``: games.kit.account) for app/records/analysis.py to tell in each reader's
    language."""
    rules = games.get(game)
    judged = judge(rules, state, seat, played, seq, seed)
    after = rules.apply(state, seat, judged.best)
    account = describe(rules, state, seat, judged.best, after)
    return {**judged.as_json(), "best_text": account["text"], "best_says": account["says"]}


class Thinkers:
    """The process pool that searching computer players think in, and the pool at the
    lowest priority that judges the decisions of finished matches."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers or machine_workers()
        self.judging_workers = max(1, self.workers - 1)
        self._pool: ProcessPoolExecutor | None = None
        self._judging_pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _live_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=_context())
        return self._pool

    def _judges(self) -> ProcessPoolExecutor:
        if self._judging_pool is None:
            self._judging_pool = ProcessPoolExecutor(
                self.judging_workers, mp_context=_context(), initializer=lower_priority
            )
        return self._judging_pool

    def _submit(self, judging: bool, work: Callable[..., T], *args: Any) -> Future[T]:
        """Hand ``work(*args)`` to the live pool or the judging one, starting it first if
        need be. Starting workers takes a while, so this runs in a thread, not on the event
        loop."""
        with self._lock:
            pool = self._judges() if judging else self._live_pool()
            return pool.submit(work, *args)

    async def move(
        self, game: str, state: Any, seat: int, seed: str, kind: str, seconds: float
    ) -> dict[str, Any]:
        """The move, thought out in a worker process while the event loop goes on, the
        search cut ``seconds`` from now."""
        deadline = time.monotonic() + seconds
        return await self._run(False, think, game, state, seat, seed, kind, deadline)

    async def judge(
        self, game: str, state: Any, seat: int, played: dict[str, Any], seq: int, seed: str
    ) -> dict[str, Any]:
        """One decision of a finished match judged in a worker process at the lowest
        priority (see the module's docstring)."""
        return await self._run(True, judge_decision, game, state, seat, played, seq, seed)

    async def _run(self, judging: bool, work: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        future = await loop.run_in_executor(None, self._submit, judging, work, *args)
        return await asyncio.wrap_future(future)

    def shutdown(self) -> None:
        """Stop the workers (the app is shutting down); searches and judgements under way
        are dropped."""
        with self._lock:
            for pool in (self._pool, self._judging_pool):
                if pool is not None:
                    pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._judging_pool = None


def _context() -> multiprocessing.context.BaseContext:
    """forkserver: the workers are not forked from this process, whose threads (the event
    log's writer, say) might hold locks at the moment of a fork."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["app.rooms.thinking"])
    return context
