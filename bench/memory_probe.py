"""Where the server's memory goes: a wrapper around the app for the load benchmark.

The server's memory per connection is a figure the crowd run gives as a whole (its RSS);
this wrapper (an app factory for ``bench.load --runs memory``) says what makes it up.
``tracemalloc`` follows every allocation of the server process once its app is made, keeping
``MEMORY_PROBE_DEPTH`` frames of each; two requests the wrapper answers itself take a
snapshot:

- ``GET /_memory_probe/before``: the heap as it is (before the tables are opened);
- ``GET /_memory_probe/after``: what the heap holds now beyond that first snapshot, as
  JSON, the largest first, grouped twice: by where it was allocated (the innermost frame,
  and the innermost of the project's own code when that is another), and by whose it is
  (the innermost line of the project's own code, or else the library that allocated it).

Both block the event loop while the heap is walked (seconds with ten thousand sockets), so
the run they serve measures memory, never latency. The app it wraps is named by
``MEMORY_PROBE_APP`` (``module:factory``).
"""

from __future__ import annotations

import os
import tracemalloc
from collections import defaultdict
from typing import Any

import orjson

from bench.stall_probe import OWN_CODE, ASGIApp, Scope, frame_name, where_in, wrapped_app

PREFIX = "/_memory_probe/"
DEPTH = int(os.environ.get("MEMORY_PROBE_DEPTH", "8"))
KEPT = 60  # places in the report; the rest are added up as one


def place(traceback: tracemalloc.Traceback) -> str:
    """Where an allocation was made: its innermost frame, and the innermost frame of the
    project's own code when that is another."""
    return where_in([(f.filename, frame_name(f.filename, f.lineno)) for f in traceback])


def owner(traceback: tracemalloc.Traceback) -> str:
    """Whose allocation it was: the innermost line of the project's own code, or else the
    library (or standard module) of the innermost frame, on behalf of nothing of ours —
    the server's libraries serving a socket before or beside the app."""
    own = next((f for f in reversed(traceback) if f.filename.startswith(OWN_CODE)), None)
    if own is not None:
        return frame_name(own.filename, own.lineno)
    inner = traceback[-1]
    top = frame_name(inner.filename, inner.lineno).split("/")[0]  # uvicorn, asyncio, ...
    return "library: " + top.rsplit(":", 1)[0]


def ranked(sizes: dict[str, list[int]], kept: int) -> dict[str, Any]:
    """The ``kept`` largest entries of {where: [bytes, blocks]}, and the rest added up."""
    order = sorted(sizes.items(), key=lambda item: -item[1][0])
    rest = order[kept:]
    return {
        "places": [{"where": w, "bytes": b, "blocks": n} for w, (b, n) in order[:kept]],
        "rest": {"bytes": sum(b for _, (b, _n) in rest), "places": len(rest)},
    }


class MemoryProbe:
    """The first snapshot, and what the heap held beyond it when asked."""

    def __init__(self) -> None:
        self.before: tracemalloc.Snapshot | None = None

    @staticmethod
    def snapshot() -> tracemalloc.Snapshot:
        # The probe's own bookkeeping is not the server's memory.
        return tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )

    def take_before(self) -> dict[str, Any]:
        self.before = self.snapshot()
        return {"traced_bytes": sum(s.size for s in self.before.statistics("filename"))}

    def added(self) -> dict[str, Any]:
        """What the heap holds beyond the first snapshot, by place, the largest first."""
        if self.before is None:
            return {"error": "no snapshot before: GET /_memory_probe/before first"}
        by_place: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        by_owner: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for diff in self.snapshot().compare_to(self.before, "traceback"):
            for entry in (by_place[place(diff.traceback)], by_owner[owner(diff.traceback)]):
                entry[0] += diff.size_diff
                entry[1] += diff.count_diff
        return {
            "added_bytes": sum(b for b, _ in by_place.values()),
            "by_place": ranked(by_place, KEPT),
            "by_owner": ranked(by_owner, KEPT // 2),
        }


async def answer(send: Any, body: dict[str, Any]) -> None:
    payload = orjson.dumps(body)
    headers = [(b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def create_app() -> ASGIApp:
    app = wrapped_app("MEMORY_PROBE_APP")
    # Traced from here: the imports and the app's making, traced, would take the server
    # past the benchmark's wait for it, and what they hold is in the first snapshot anyway.
    tracemalloc.start(DEPTH)
    probe = MemoryProbe()

    async def probed(scope: Scope, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path == PREFIX + "before":
            await answer(send, probe.take_before())
        elif scope["type"] == "http" and path == PREFIX + "after":
            await answer(send, probe.added())
        else:
            await app(scope, receive, send)

    return probed
