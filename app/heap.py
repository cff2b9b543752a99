"""The garbage collector kept out of the event loop's way.

Two things make the collector's pauses long on a busy server, and each has its answer here:

- The heap loaded at start-up lives as long as the process: :func:`collector_paced`
  collects once and freezes it, so no later collection looks at it again.
- CPython 3.11 starts a young collection when the allocations of tracked objects minus
  their deallocations pass the first threshold. On a server whose old objects die as fast
  as new ones are made — a room's state replaced at every move, a connection's last
  message at every change — that difference hardly grows, so the young generation swells
  to hundreds of thousands of objects before it is collected, and with ten thousand
  sockets its collection stopped the event loop for up to a third of a second
  (docs/benchmarks.md, "Ten thousand sockets on one process"). :class:`YoungCollections`
  collects the young generation on a timer from the event loop, whatever the count says,
  so it is never large; once ``threshold1`` young collections have been made since the
  middle generation's last, the next collects the middle generation too (with the
  threshold of 2, every third collection on the timer). Full collections are left to the
  collector (its thresholds make them rare).
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from contextlib import contextmanager

# The collector's thresholds once the start-up heap is frozen: young collections less
# eager than the default 700 (the timer below bounds the young generation anyway); the
# middle generation collected after every 2 young collections rather than 10 (every third
# collection on the timer, not every eleventh), as a collection takes time in proportion
# to the objects it looks at: a socket's pending receive and what the last move left
# (they live until the seat's next move, seconds) outlive the young collections and fill
# the middle generation, whose pauses after 10 took 2.3 ms at 500 paced tables and 10 ms
# at 5,000, and after 2, 0.6 and 2.6 ms, about the same time in all (docs/benchmarks.md,
# "The middle generation"); and full collections rare (each looks at every live object):
# after 5,000 middle collections, 15,000 collections on the timer, where 1,000 after 10
# were 11,000.
THRESHOLDS = (7000, 2, 5000)
# Seconds between the young collections made on the timer, unless configured otherwise
# (GC_YOUNG_EVERY): with ten thousand sockets, each then takes about a millisecond.
YOUNG_EVERY = 0.05


@contextmanager
def collector_paced(loop: asyncio.AbstractEventLoop, young_every: float) -> Iterator[None]:
    """While inside: the heap as it is now frozen out of the collector's sight (what is
    loaded by then lives as long as the process; under load, full collections of the
    start-up heap were the main cause of latency spikes), the thresholds above, and the
    young generation collected every ``young_every`` seconds (0: by the collector alone).
    The collector is as it was afterwards."""
    gc.collect()
    gc.freeze()
    before = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    young = YoungCollections(young_every)
    young.start(loop)
    try:
        yield
    finally:
        young.stop()
        gc.set_threshold(*before)
        gc.unfreeze()


class YoungCollections:
    """Collects the young generation every ``every`` seconds on the event loop (and the
    middle one when its turn has come), so that neither is ever large."""

    def __init__(self, every: float) -> None:
        self.every = every
        self._timer: asyncio.TimerHandle | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.every > 0:
            self._timer = loop.call_later(self.every, self._collect, loop)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _collect(self, loop: asyncio.AbstractEventLoop) -> None:
        # The middle generation counts the young collections since its own last one, the
        # timer's among them: its turn comes as it would have without the timer.
        middle_due = gc.get_count()[1] >= gc.get_threshold()[1]
        gc.collect(1 if middle_due else 0)
        self._timer = loop.call_later(self.every, self._collect, loop)
