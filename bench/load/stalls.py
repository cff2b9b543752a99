"""What the stall probe (bench/stall_probe.py) saw in the servers during a run: the event
loop's lag, the garbage collector's pauses and where the loop was when it stalled."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson

from bench.load.measure import percentile

STALL_MS = 15  # the stall probe notes where the event loop was when it missed this long


def stall_report(paths: list[Path], window: tuple[float, float]) -> list[str]:
    """What the stall probe (bench/stall_probe.py) saw in the measured window, over every
    server process: the event loop's lag, the garbage collector's pauses and where the
    loop was whenever it stalled."""
    start, end = window
    lags: list[float] = []
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    stalls: list[dict[str, Any]] = []
    for path in paths:
        report = orjson.loads(path.read_bytes())
        lags += [late * 1000 for at, late in report["lags"] if start <= at <= end]
        for at, generation, took in report["pauses"]:
            if start <= at <= end:
                pauses[generation].append(took * 1000)
        stalls += [s for s in report["stalls"] if start <= s["at"] <= end]
    if not lags:
        return ["stall probe: no report (did the servers exit cleanly?)"]
    seconds = end - start
    out = [
        f"stall probe ({len(paths)} process(es), {seconds:.0f} s): event-loop lag"
        f" p50 {percentile(lags, 50):.2f} / p99 {percentile(lags, 99):.2f}"
        f" / p99.9 {percentile(lags, 99.9):.2f} / max {max(lags):.2f} ms;"
        f" {sum(x > 10 for x in lags)} wake-ups over 10 ms, {sum(x > 30 for x in lags)} over 30 ms",
    ]
    for generation, took in pauses.items():
        if took:
            out.append(
                f"  GC generation {generation}: {len(took)} pauses, p50 {percentile(took, 50):.2f}"
                f" / max {max(took):.2f} ms, {sum(took):.0f} ms in all"
            )
    in_gc = sum(s["in_gc"] for s in stalls)
    out.append(
        f"  stalls of {STALL_MS} ms or more: {len(stalls)} ({in_gc} during a GC);"
        " where the loop was:"
    )
    for where, count in Counter(s["where"] for s in stalls).most_common(10):
        out.append(f"    {count:4d}  {where}")
    return out
