"""The hashing pool: password hashing on a few threads of its own, with a short queue.

An argon2id hash holds 64 MiB and a core for a tenth of a second or more. Run on the
shared worker threads, a burst of sign-ups or logins took hundreds of MiB and slowed every
other request that needs a thread. Here at most ``workers`` hashes run at once (so at most
64 MiB times ``workers``); up to ``queue`` more wait their turn, and past that a request is
refused at once (503 ``busy``) rather than piling up memory and latency.

Every admission is counted on the event loop (the only place ``run`` is called from), so
the count needs no lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

from app.i18n.marks import N_
from app.people.passwords import hash_password, verify
from app.refusal import Refusal

P = ParamSpec("P")
T = TypeVar("T")


def busy() -> Refusal:
    return Refusal(
        "busy", N_("The server is checking too many passwords at once; try again in a moment."), 503
    )


class HashingPool:
    """At most ``workers`` hashes at once, ``queue`` more waiting; the rest are refused."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = max(1, workers)
        self.queue = max(0, queue)
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="hashing")
        self._admitted = 0  # running or waiting

    @property
    def admitted(self) -> int:
        return self._admitted

    async def run(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(*args, **kwargs)`` on one of the pool's threads; ``busy`` when full."""
        if self._admitted >= self.workers + self.queue:
            raise busy()
        self._admitted += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, partial(work, *args, **kwargs))
        finally:
            self._admitted -= 1

    async def hash(self, password: str) -> str:
        return await self.run(hash_password, password)

    async def verify(self, password: str, stored: str | None) -> tuple[bool, str | None]:
        return await self.run(verify, password, stored)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
