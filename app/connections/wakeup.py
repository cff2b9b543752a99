"""What a send loop waits on while it has nothing to send, and the word that wakes it.

A connection is idle nearly all the time and there are thousands of them, so the wait is a
bare future made only while the loop waits — lighter than an ``asyncio.Event`` kept for
the connection's life (a deque of 760 bytes even when nobody waits). The play socket's
connection (app/connections/hub.py) and a page's live socket (app/social/live.py) use it.
"""

from __future__ import annotations

import asyncio


class Wakeup:
    """One waiter at a time: ``await wakeup.wait()``, until someone calls ``wake``. A wake
    with nobody waiting is not kept: the loop looks for work before it waits again."""

    __slots__ = ("_waiting",)

    def __init__(self) -> None:
        self._waiting: asyncio.Future[None] | None = None

    def wait(self) -> asyncio.Future[None]:
        """The future to await (a plain future, not a coroutine: no frame per wait)."""
        self._waiting = asyncio.get_running_loop().create_future()
        return self._waiting

    def wake(self) -> None:
        """Let the waiter, if any, run."""
        waiting, self._waiting = self._waiting, None
        if waiting is not None and not waiting.done():
            waiting.set_result(None)
