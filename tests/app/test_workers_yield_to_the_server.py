"""The worker processes computers think in (and finished matches are judged in) run at a
lower scheduling priority than the server, so that a machine short of cores serves the
tables' event loop first: after a computer's move, the one worker of a one-worker pool is
nicer than this process by WORKER_NICENESS, and the pool's other processes (the forkserver
that starts workers) are not."""

from __future__ import annotations

import asyncio

import psutil

import games
from app.rooms.thinking import WORKER_NICENESS, Thinkers


def test_the_worker_that_thinks_runs_at_a_lower_priority_than_the_server() -> None:
    server = psutil.Process()
    base = server.nice()
    before = {child.pid for child in server.children(recursive=True)}
    thinkers = Thinkers(1)
    try:
        state = games.get("cupid").new_game(2, "niceness", {"dealer": 1})
        move = asyncio.run(thinkers.move("cupid", state, 1, "niceness:0:1", "normal", 0.2))
        assert move["type"]
        started = [c for c in server.children(recursive=True) if c.pid not in before]
        niceness = sorted(child.nice() for child in started)
    finally:
        thinkers.shutdown()
    # The forkserver (and its resource tracker) keep the server's priority; the worker
    # that thought the move runs WORKER_NICENESS lower.
    assert niceness.count(base + WORKER_NICENESS) == 1, niceness
    assert set(niceness) == {base, base + WORKER_NICENESS}, niceness
