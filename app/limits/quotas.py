"""How often a person, an account or an address may do something: counters in windows.

A :class:`Quota` allows ``limit`` uses per key (an account, a person, an address) in each
fixed window of ``seconds``. A use is charged against one or more quotas at once; if any
is over its limit the use is refused and the answer says how long until its window ends.
Every use counts, not only failures, so a burst of parallel guesses cannot slip through
before the failures are counted.

The site's quotas (:class:`SiteQuotas`, from the settings):
- login attempts, per account (its username's confusable key, so "ann" and "ANN" share
  one) and per address;
- rooms opened, per person and per address;
- rooms looked up by short code, per address (codes are short enough to guess at, ids are
  not);
- sign-ups per address (each costs a password hash, and makes a name nobody else may
  take) and guests started per address (each is a row and a session, and every
  per-person limit would otherwise be a per-throwaway-identity one).

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
from redis.exceptions import RedisError

from app.config import Settings
from app.refusal import Refusal, unavailable


@dataclass(frozen=True)
class Quota:
    """At most ``limit`` uses per key in each window of ``seconds``."""

    name: str
    limit: int
    seconds: float


# A quota and the key a use is counted against.
Charge = tuple[Quota, str]


@dataclass(frozen=True)
class SiteQuotas:
    login_per_account: Quota
    login_per_address: Quota
    rooms_per_person: Quota
    rooms_per_address: Quota
    lookups_per_address: Quota
    signups_per_address: Quota
    guests_per_address: Quota

    @classmethod
    def from_settings(cls, settings: Settings) -> SiteQuotas:
        login, hour, minute = settings.login_window_seconds, 3600.0, 60.0
        return cls(
            Quota("login-account", settings.login_attempts_per_account, login),
            Quota("login-address", settings.login_attempts_per_address, login),
            Quota("rooms-person", settings.rooms_per_hour_per_person, hour),
            Quota("rooms-address", settings.rooms_per_hour_per_address, hour),
            Quota("lookups-address", settings.code_lookups_per_minute, minute),
            Quota("signups-address", settings.signups_per_hour_per_address, hour),
            Quota("guests-address", settings.guests_per_hour_per_address, hour),
        )


class Quotas(Protocol):
    async def use(self, *charges: Charge) -> float | None:
        """Count one use against each charge; None if every quota allows it, else the
        seconds until the one that refuses it opens again."""
        ...


class MemoryQuotas:
    """Counters in this process's memory (one process alone)."""

    forget_above = 10_000  # windows kept before the ended ones are forgotten

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        # (quota name, key) -> (when its window ends, uses in it)
        self._windows: dict[tuple[str, str], tuple[float, int]] = {}

    async def use(self, *charges: Charge) -> float | None:
        now = self.clock()
        wait: float | None = None
        for quota, key in charges:
            ends, count = self._windows.get((quota.name, key), (0.0, 0))
            if now >= ends:
                ends, count = now + quota.seconds, 0
            self._windows[(quota.name, key)] = (ends, count + 1)
            if count + 1 > quota.limit:
                wait = max(wait or 0.0, ends - now)
        if len(self._windows) > self.forget_above:
            self._windows = {k: v for k, v in self._windows.items() if v[0] > now}
        return wait


class RedisQuotas:
    """Counters in Redis, shared by every process."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    async def use(self, *charges: Charge) -> float | None:
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                for quota, key in charges:
                    name = f"{self.prefix}:quota:{quota.name}:{key}"
                    pipe.incr(name)
                    pipe.pexpire(name, math.ceil(quota.seconds * 1000), nx=True)
                    pipe.pttl(name)
                results = await pipe.execute()
        except (RedisError, OSError):
            # Nothing was counted, so nothing is let through: the request may be sent again.
            raise unavailable() from None
        wait: float | None = None
        for index, (quota, _key) in enumerate(charges):
            count, ttl_ms = int(results[3 * index]), int(results[3 * index + 2])
            if count > quota.limit:
                wait = max(wait or 0.0, max(ttl_ms, 0) / 1000)
        return wait


ROOM_ID_LENGTH = 16  # hex digits: 64 random bits (app/rooms/lobby.py)


def is_room_id(key: str) -> bool:
    """Whether a room key is an id rather than a short code."""
    return len(key) == ROOM_ID_LENGTH and all(c in "0123456789abcdef" for c in key)


class Limiter:
    """The site's quotas, charged where people use them; a refusal is a Refusal (429)
    whose message says when to try again."""

    def __init__(self, quotas: Quotas, site: SiteQuotas) -> None:
        self.quotas = quotas
        self.site = site

    async def login(self, account_key: str, address: str) -> None:
        wait = await self.quotas.use(
            (self.site.login_per_account, account_key), (self.site.login_per_address, address)
        )
        _refuse_if(wait, "too_many_attempts", "Too many login attempts")

    async def open_room(self, person: str, address: str) -> None:
        wait = await self.quotas.use(
            (self.site.rooms_per_person, person), (self.site.rooms_per_address, address)
        )
        _refuse_if(wait, "too_many_rooms", "Too many new tables")

    async def look_up(self, room_key: str, address: str) -> None:
        """Count a room reached by its short code (reaching one by its id is free)."""
        if is_room_id(room_key):
            return
        wait = await self.quotas.use((self.site.lookups_per_address, address))
        _refuse_if(wait, "too_many_lookups", "Too many room codes tried")

    async def sign_up(self, address: str) -> None:
        wait = await self.quotas.use((self.site.signups_per_address, address))
        _refuse_if(wait, "too_many_signups", "Too many new accounts from your address")

    async def new_guest(self, address: str) -> None:
        wait = await self.quotas.use((self.site.guests_per_address, address))
        _refuse_if(wait, "too_many_guests", "Too many new guests from your address")


def _refuse_if(wait: float | None, code: str, what: str) -> None:
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise Refusal(code, f"{what}; try again in {seconds} s.", 429)
