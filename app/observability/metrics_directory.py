"""Where the processes of one ``python -m app.serve`` keep their metrics.

prometheus_client's multiprocess mode: each process writes its samples into files of its
own in ``PROMETHEUS_MULTIPROC_DIR``, and ``/metrics`` of any process adds up every file
there, so the figures are those of the whole group whichever process is asked. The
variable must be set before prometheus_client is first imported in a process (it picks its
storage then), which is why this module does not import it at the top, and why
app/serve.py sets the directory up before it imports the app.

A directory that ``app.serve`` makes is its own: empty at start (samples of an earlier run
would count again) and removed at exit. One given in the environment is used as it is —
the processes of ``--processes N`` are handed their parent's this way — and whoever gave
it keeps it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


@contextmanager
def metrics_directory() -> Iterator[str]:
    """The directory this process's metrics go to (in ``PROMETHEUS_MULTIPROC_DIR`` while
    the block runs): the one given, or a fresh one removed at the end."""
    given = os.environ.get(VARIABLE)
    if given:
        os.makedirs(given, exist_ok=True)
        yield given
        return
    made = tempfile.mkdtemp(prefix="parlour-metrics-")
    os.environ[VARIABLE] = made
    try:
        yield made
    finally:
        os.environ.pop(VARIABLE, None)
        shutil.rmtree(made, ignore_errors=True)


def process_exited(pid: int) -> None:
    """Forget the live gauges (connections, rooms held) of a process that exited: its
    counters and histograms keep counting in the group's totals."""
    if not os.environ.get(VARIABLE):
        return
    from prometheus_client import multiprocess  # only once the directory is set

    multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
