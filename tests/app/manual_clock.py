"""A time source the tests move by hand (app/rooms/time_source.py's TimeSource): nothing in the
rooms waits for real time under it, and no test sleeps to let time pass."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from app.rooms.time_source import Timer

START = 1_900_000_000.0  # 2030-03-17: any fixed moment will do


@dataclass(order=True)
class ManualTimer:
    when: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """Wall time that moves only when ``advance`` is called (on the app's event loop)."""

    def __init__(self, start: float = START) -> None:
        self._now = start
        self._timers: list[ManualTimer] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        if when <= self._now:  # already due: soon, as the event loop's own timers do
            return asyncio.get_running_loop().call_soon(callback)
        timer = ManualTimer(when, next(self._order), callback)
        heapq.heappush(self._timers, timer)
        return timer

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.call_at(self._now + seconds, lambda: done.done() or done.set_result(None))
        await done

    def next_due(self) -> float | None:
        """When the earliest timer still set is due (None: nothing waits on the clock)."""
        return min((t.when for t in self._timers if not t.cancelled), default=None)

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, running every timer due on the way, in order."""
        target = self._now + seconds
        while self._timers and self._timers[0].when <= target:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._now = max(self._now, timer.when)
            timer.callback()
        self._now = target
