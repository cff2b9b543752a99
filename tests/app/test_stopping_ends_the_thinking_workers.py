"""A server told to stop (SIGTERM) while its workers judge a finished match's decisions
ends those worker processes: none outlives it, however its process ends. Started by
uvicorn's own command line (as the benchmarks start it), the process ends by the signal it
was sent, which uvicorn raises again once the server has shut down, so no exit hook of
the interpreter runs."""

from __future__ import annotations

import random
from pathlib import Path

import psutil

from tests.app.helpers import eventually
from tests.app.live_clients import UNLIMITED, open_room, play
from tests.conftest import LiveServer, migrated_sqlite


class UvicornServer(LiveServer):
    """The app started by ``python -m uvicorn`` rather than ``python -m app.serve``."""

    module = "uvicorn"
    arguments = ("app.main:create_app", "--factory")


def judging(workers: list[psutil.Process]) -> bool:
    """Whether a worker process has started judging (it has spent CPU time)."""
    busy = 0.0
    for worker in workers:
        try:
            busy = max(busy, worker.cpu_times().user)
        except psutil.NoSuchProcess:
            continue
    return busy > 0.3


def test_a_server_stopped_mid_analysis_leaves_no_worker_behind(
    tmp_path: Path, sqlite_template: Path
) -> None:
    database = migrated_sqlite(sqlite_template, tmp_path / "parlour.db")
    server = UvicornServer(database, tmp_path, ANALYSIS_POLL_SECONDS="0.1", **UNLIMITED)
    server.start()
    try:
        room_id, seats = open_room(server, "cupid", ["Ann", "Bob"], {"target": 10})
        for seat in seats:
            seat.connect(room_id)
        play(seats, [], 0, random.Random(7), None)
        # The match's analysis judges every decision of both people, one after another
        # (about a second each): a worker is busy with one when the server is stopped.
        assert server.process is not None
        parent = psutil.Process(server.process.pid)
        eventually(lambda: judging(parent.children(recursive=True)), "a judgement under way")
        workers = parent.children(recursive=True)
    finally:
        server.stop()
    _, alive = psutil.wait_procs(workers, timeout=15)
    assert not alive, f"outlived the server: {[p.cmdline()[:3] for p in alive]}"
