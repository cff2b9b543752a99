"""The rooms' time source: wall time for deadlines and stamps, and timers on it.

Everything in the rooms that depends on time — turn clocks, since when a player is away,
stale tables, a computer player's pause — asks an injected :class:`TimeSource` rather than the
system, so tests move time by hand instead of sleeping. :class:`SystemTime` is the real
one. Times are seconds since the epoch (floats): they are stored, compared across server
processes and sent to browsers as ISO 8601 (``iso_at``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class TimeSource(Protocol):
    def now(self) -> float:
        """Wall time, in seconds since the epoch."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` on the event loop once ``now()`` reaches ``when``."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait until ``now()`` has moved on by ``seconds``."""
        ...


class SystemTime:
    """The system's wall clock and the event loop's timers."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def stamp(epoch: float) -> datetime:
    """A time from the clock as the database stores times (naive UTC)."""
    return datetime.fromtimestamp(epoch, UTC).replace(tzinfo=None)


def iso_at(epoch: float | None) -> str | None:
    """A time from the clock on the wire: ISO 8601 in UTC with a Z."""
    return None if epoch is None else stamp(epoch).isoformat() + "Z"


class WireClock:
    """The server's time as every message carries it (``now``): ``iso_at`` to the
    millisecond, written once per millisecond however many rooms change in it — all the
    moves of one commit are told in the same turn of the event loop, and formatting a time
    costs more than looking it up."""

    __slots__ = ("_millisecond", "_text")

    def __init__(self) -> None:
        self._millisecond = -1
        self._text = ""

    def text(self, epoch: float) -> str:
        millisecond = int(epoch * 1000)
        if millisecond != self._millisecond:
            self._millisecond = millisecond
            self._text = iso_at(millisecond / 1000) or ""
        return self._text


WIRE_CLOCK = WireClock()
