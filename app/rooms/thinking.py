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

The same workers judge the decisions of finished matches (games.bots.analysis, queued by
app/records/analysis.py), at a lower priority than the live moves: a judgement goes to the
pool only while a worker is left for live moves (one worker's machine: only while no live
move is being thought), and it is small (one decision, about a second), so a live move
arriving after it waits for at most one.

The workers also run at a lower scheduling priority than the server (``WORKER_NICENESS``):
the event loop serves every table of the process and a worker one search or one judgement,
so when the machine is short of cores the loop goes first. A search cut by the clock then
gets fewer simulations; no table waits longer for it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import games
from games import describe
from games.bots import choose
from games.bots.analysis import judge

# Seconds each searching level may think per move (its simulation budget may end it sooner).
THINKING_SECONDS = {"normal": 0.2, "strong": 0.85}
# How much lower the workers' scheduling priority is than the server's (steps of nice(2):
# at ten, a busy worker gets about a tenth of the CPU time of a busy server on one core).
WORKER_NICENESS = 10
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


def yield_to_the_server() -> None:
    """Run in each worker as it starts: lower its scheduling priority (see the module's
    docstring). A worker may always lower its own priority, so this never fails for want
    of a privilege."""
    os.nice(WORKER_NICENESS)


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
    """The process pool that searching computer players think in, and the analysis of
    finished matches is done in when they leave room."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers or machine_workers()
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        # On the event loop: live moves and judgements in the pool now, and the condition
        # a judgement waits on for room (made on first use, on the running loop).
        self._live = 0
        self._judging = 0
        self._room: asyncio.Condition | None = None

    @property
    def thinking(self) -> int:
        """Computers' moves handed to the pool and not yet back."""
        return self._live

    def _submit(self, work: Callable[..., dict[str, Any]], *args: Any) -> Future[dict[str, Any]]:
        """Hand ``work(*args)`` to the pool, starting it first if need be.

        Starting workers takes a while, so this runs in a thread, not on the event loop.
        forkserver: the workers are not forked from this process, whose threads (the event
        log's writer, say) might hold locks at the moment of a fork.
        """
        with self._lock:
            if self._pool is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["app.rooms.thinking"])
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=context, initializer=yield_to_the_server
                )
            return self._pool.submit(work, *args)

    async def move(
        self, game: str, state: Any, seat: int, seed: str, kind: str, seconds: float
    ) -> dict[str, Any]:
        """The move, thought out in a worker process while the event loop goes on, the
        search cut ``seconds`` from now."""
        deadline = time.monotonic() + seconds
        work = (think, game, state, seat, seed, kind, deadline)
        self._live += 1
        try:
            return await self._run(*work)
        finally:
            self._live -= 1
            await self._changed()

    async def judge(
        self, game: str, state: Any, seat: int, played: dict[str, Any], seq: int, seed: str
    ) -> dict[str, Any]:
        """One decision of a finished match judged in a worker process, once a worker is
        free that live moves leave (see the module's docstring)."""
        room = self._condition()
        async with room:
            await room.wait_for(self._room_to_judge)
            self._judging += 1
        try:
            return await self._run(judge_decision, game, state, seat, played, seq, seed)
        finally:
            self._judging -= 1
            await self._changed()

    def _room_to_judge(self) -> bool:
        """Whether a judgement may go to the pool: a worker is free, and one stays free
        for live moves (with one worker: no live move is being thought)."""
        most = max(1, self.workers - 1)
        return self._judging < most and self._live + self._judging < self.workers

    def _condition(self) -> asyncio.Condition:
        if self._room is None:
            self._room = asyncio.Condition()
        return self._room

    async def _changed(self) -> None:
        """A worker was freed: the judgements waiting look again."""
        room = self._condition()
        async with room:
            room.notify_all()

    async def _run(self, work: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        future = await loop.run_in_executor(None, self._submit, work, *args)
        return await asyncio.wrap_future(future)

    def shutdown(self) -> None:
        """Stop the workers (the app is shutting down): work not yet begun is dropped, and
        the search or judgement under way (a second at most) is waited for, so that the
        workers have ended before the process does. A process may end with no exit hook
        run — uvicorn's command line ends it by the signal it was sent — and workers not
        waited for then outlive it."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None
