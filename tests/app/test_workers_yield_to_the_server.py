"""The worker processes computers think in (and finished matches are judged in) run at a
lower scheduling priority than the server, so that a machine short of cores serves the
tables' event loop first: after a computer's move, the one worker of a one-worker pool is
nicer than this process by WORKER_NICENESS, and the forkserver that started it (one per
process, perhaps started by an earlier test) is not."""

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
        workers = [c for c in started if c.nice() == base + WORKER_NICENESS]
        # The forkserver that started the worker: started by an earlier test of this
        # process already, or by this one (it serves every pool of the process).
        forkservers = [worker.parent() for worker in workers]
        niceness = {c.pid: c.nice() for c in started}
        forkserver_niceness = [f.nice() for f in forkservers if f is not None]
    finally:
        thinkers.shutdown()
    # The worker that thought the move runs WORKER_NICENESS lower; the forkserver keeps the
    # server's priority, and so does every other process the pool started.
    assert len(workers) == 1, niceness
    assert forkservers[0] is not None and forkservers[0].pid != server.pid
    assert forkserver_niceness == [base]
    assert set(niceness.values()) <= {base, base + WORKER_NICENESS}, niceness
