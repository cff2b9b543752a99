"""How many login attempts an account, and an address, may make in a window of time.

Each attempt counts against two keys — the account's (its username's confusable key, so
"ann" and "ANN" share one) and the caller's address — in fixed windows of
``window_seconds``; once either key is over its limit the attempt is refused before any
password is checked, and the answer says when the window ends. Counting every attempt,
not only failures, keeps a burst of parallel guesses from slipping through before the
failures are counted.

With several processes (REDIS_URL) the counters live in Redis, shared by every process
(INCR on a key that expires with its window); one process alone keeps them in memory.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from redis.asyncio import Redis


@dataclass(frozen=True)
class LoginRules:
    per_account: int
    per_address: int
    window_seconds: float

    def keys(self, account_key: str, address: str) -> list[tuple[str, int]]:
        return [
            (f"account:{account_key}", self.per_account),
            (f"address:{address}", self.per_address),
        ]


class LoginLimits(Protocol):
    async def attempt(self, account_key: str, address: str) -> float | None:
        """Count one attempt; None if allowed, else the seconds until it may be tried again."""
        ...


class MemoryLoginLimits:
    """Counters in this process's memory (one process alone)."""

    def __init__(self, rules: LoginRules, clock: Callable[[], float] = time.monotonic) -> None:
        self.rules = rules
        self.clock = clock
        self._windows: dict[str, tuple[float, int]] = {}  # key -> (window start, attempts)

    async def attempt(self, account_key: str, address: str) -> float | None:
        now = self.clock()
        wait: float | None = None
        for key, limit in self.rules.keys(account_key, address):
            started, count = self._windows.get(key, (now, 0))
            if now - started >= self.rules.window_seconds:
                started, count = now, 0
            self._windows[key] = (started, count + 1)
            if count + 1 > limit:
                left = self.rules.window_seconds - (now - started)
                wait = max(wait or 0.0, left)
        self._forget_old(now)
        return wait

    def _forget_old(self, now: float) -> None:
        if len(self._windows) > 10_000:
            window = self.rules.window_seconds
            self._windows = {k: v for k, v in self._windows.items() if now - v[0] < window}


class RedisLoginLimits:
    """Counters in Redis, shared by every process."""

    def __init__(self, redis: Redis, rules: LoginRules, prefix: str) -> None:
        self.redis = redis
        self.rules = rules
        self.prefix = prefix

    async def attempt(self, account_key: str, address: str) -> float | None:
        window_ms = math.ceil(self.rules.window_seconds * 1000)
        keys = self.rules.keys(account_key, address)
        async with self.redis.pipeline(transaction=True) as pipe:
            for key, _limit in keys:
                name = f"{self.prefix}:login:{key}"
                pipe.incr(name)
                pipe.pexpire(name, window_ms, nx=True)
                pipe.pttl(name)
            results = await pipe.execute()
        wait: float | None = None
        for index, (_key, limit) in enumerate(keys):
            count, ttl_ms = int(results[3 * index]), int(results[3 * index + 2])
            if count > limit:
                wait = max(wait or 0.0, max(ttl_ms, 0) / 1000)
        return wait
