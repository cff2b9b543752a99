"""Where the server's event loop stalls: a wrapper around the app for the load benchmark.

A latency tail is made of moments when the event loop does not run. This wrapper (an app
factory for ``bench.load --runs stalls``) measures them in the server process itself:

- a task on the loop that sleeps 2 ms at a time records how late each wake-up is (the
  loop's lag);
- a watchdog thread that, whenever the loop has not woken for ``STALL_MS``, takes the
  loop thread's stack once for that stall: where the loop was when it stopped running —
  in our code, in a library, or inside uvloop's C code (waiting for the GIL once the
  poll returns);
- the garbage collector's pauses, by generation (``gc.callbacks``).

Everything is kept with its wall-clock time and written as JSON to ``STALL_REPORT`` when
the process exits, so that the benchmark keeps only what fell in its measured window.
The app it wraps is named by ``STALL_PROBE_APP`` (``module:factory``); ``{pid}`` in
``STALL_REPORT`` becomes the process id.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import importlib
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]

TICK = 0.002  # seconds the lag task sleeps between wake-ups
STALL_MS = float(os.environ.get("STALL_MS", "15"))
STDLIB = os.path.dirname(os.__file__) + "/"  # asyncio/runners.py rather than its full path


class Probe:
    """The lag samples, stalls and GC pauses of one server process."""

    def __init__(self) -> None:
        self.lags: list[tuple[float, float]] = []  # (wall time, seconds late)
        self.stalls: list[dict[str, Any]] = []  # wall time, where, whether in a GC
        self.pauses: list[tuple[float, int, float]] = []  # (wall time, generation, seconds)
        self.last_tick = time.perf_counter()
        self.loop_thread: int | None = None
        self.gc_started: float | None = None

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.gc_started = time.perf_counter()
        elif self.gc_started is not None:
            took = time.perf_counter() - self.gc_started
            self.pauses.append((time.time(), info["generation"], took))
            self.gc_started = None

    async def tick(self) -> None:
        self.loop_thread = threading.get_ident()
        threading.Thread(target=self.watch, name="stall-watchdog", daemon=True).start()
        while True:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            self.last_tick = now = time.perf_counter()
            self.lags.append((time.time(), now - before - TICK))

    def watch(self) -> None:
        noted = None
        while True:
            time.sleep(0.003)
            last = self.last_tick
            if time.perf_counter() - last < STALL_MS / 1000 or noted == last:
                continue
            noted = last
            frame = sys._current_frames().get(self.loop_thread or 0)
            if frame is not None:
                self.stalls.append(
                    {
                        "at": time.time(),
                        "in_gc": self.gc_started is not None,
                        "where": where(traceback.extract_stack(frame)),
                    }
                )

    def write(self, path: str) -> None:
        report = {"lags": self.lags, "stalls": self.stalls, "pauses": self.pauses}
        with open(path, "w") as out:
            json.dump(report, out)


OWN_CODE = os.getcwd() + "/app/"


def frame_name(path: str, lineno: int | None) -> str:
    """A source line, its path cut to what says where it is (``asyncio/runners.py:118``
    rather than the full path of the standard library, a library or the project)."""
    for cut in ("site-packages/", STDLIB, os.getcwd() + "/"):
        if cut in path:
            path = path.split(cut, 1)[1]
    return f"{path}:{lineno}"


def where_in(frames: Sequence[tuple[str, str]]) -> str:
    """The innermost of ``frames`` — (path, what to call the frame), outermost first — and
    the innermost of the project's own code if that is another."""
    inner = frames[-1]
    own = next((f for f in reversed(frames) if f[0].startswith(OWN_CODE)), None)
    if own is None or own is inner:
        return inner[1]
    return f"{inner[1]} (in {own[1]})"


def where(stack: traceback.StackSummary) -> str:
    """Where a thread was: its innermost frame, and the innermost of our own code."""
    return where_in([(f.filename, f"{frame_name(f.filename, f.lineno)} {f.name}") for f in stack])


def wrapped_app(variable: str) -> ASGIApp:
    """The app a probe wraps, made by the factory the environment ``variable`` names
    (``module:factory``; the project's app by default)."""
    module, factory = os.environ.get(variable, "app.main:create_app").split(":")
    app: ASGIApp = getattr(importlib.import_module(module), factory)()
    return app


def create_app() -> ASGIApp:
    app = wrapped_app("STALL_PROBE_APP")
    probe = Probe()
    gc.callbacks.append(probe.on_gc)
    report = os.environ.get("STALL_REPORT", "stalls-{pid}.json").format(pid=os.getpid())
    atexit.register(probe.write, report)
    started: list[asyncio.Task[None]] = []

    async def probed(scope: Scope, receive: Any, send: Any) -> None:
        if not started:
            started.append(asyncio.get_running_loop().create_task(probe.tick()))
        await app(scope, receive, send)

    return probed
