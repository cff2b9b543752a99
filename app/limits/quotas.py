"""How often a person, an account or an address may do something: counters in windows.

A :class:`Quota` allows ``limit`` uses per key (an account, a person, an address) in each
fixed window of ``seconds``. A use is charged against one or more quotas at once, all or
nothing: if any is at its limit the use is refused, counted by none of them, and the answer
names the quota and how long until its window ends. A refused use counting nowhere is what
keeps one caller from spending a quota it shares with others (an address locked out of an
account must not use up the account's ceiling for everyone). Uses are counted when they
start, so a burst of parallel guesses cannot slip through before their outcomes are known;
a use that turns out well (a right password) can be given back.

The site's quotas (:class:`SiteQuotas`, from the settings):
- failed logins, per account (its username's confusable key, so "ann" and "ANN" share one)
  from one address, per address over every account, and per account from every address
  (a higher ceiling, over a longer window, that stops a guesser spread over many
  addresses): a login counts until its password proves right;
- rooms opened, per person and per address;
- rooms looked up by short code, per address (codes are short enough to guess at, ids are
  not);
- sign-ups per address (each costs a password hash, and makes a name nobody else may
  take) and guests started per address (each is a row and a session, and every
  per-person limit would otherwise be a per-throwaway-identity one);
- friend asks per account and invitations per host (each reaches another person's
  pages at once, or their e-mail, push or webhook), and the notices of one invitation:
  an invitation renewed to the same person at the same table reaches their notification
  channels once per window (never refused: the invitation is still made and shown on
  their open pages).

With several processes (REDIS_URL) the counters live in Redis, shared by every process
(a script checks and counts every key of a use at once, each key expiring with its window);
one process alone keeps them in memory.
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
from app.i18n.marks import N_, Mark
from app.observability.metrics import REDIS_ERRORS
from app.refusal import Refusal, unavailable


@dataclass(frozen=True)
class Quota:
    """At most ``limit`` uses per key in each window of ``seconds``; past it, a 429 with
    ``code`` and a message that starts with ``what``."""

    name: str
    limit: int
    seconds: float
    code: str
    what: str


# A quota and the key a use is counted against.
Charge = tuple[Quota, str]


@dataclass(frozen=True)
class Over:
    """A refused use: the quota at its limit, and the seconds until its window ends."""

    quota: Quota
    seconds: float


# The refusals of the tables' and the codes' quotas: a code and the start of a message.
ROOMS = ("too_many_rooms", Mark(N_("Too many new tables")))
LOOKUPS = ("too_many_lookups", Mark(N_("Too many room codes tried")))


@dataclass(frozen=True)
class SiteQuotas:
    login_per_account_address: Quota
    login_per_address: Quota
    login_per_account: Quota
    rooms_per_person: Quota
    rooms_per_address: Quota
    lookups_per_address: Quota
    signups_per_address: Quota
    guests_per_address: Quota
    friend_requests_per_person: Quota
    invitations_per_person: Quota
    invitation_notices: Quota

    @classmethod
    def from_settings(cls, settings: Settings) -> SiteQuotas:
        login, hour, minute = settings.login_window_seconds, 3600.0, 60.0
        return cls(
            Quota(
                "login-account-address",
                settings.login_attempts_per_account_address,
                login,
                "too_many_attempts",
                Mark(N_("Too many failed logins to this account from your address")),
            ),
            Quota(
                "login-address",
                settings.login_attempts_per_address,
                login,
                "too_many_address_attempts",
                Mark(N_("Too many failed logins from your address")),
            ),
            Quota(
                "login-account",
                settings.login_attempts_per_account,
                settings.login_account_window_seconds,
                "too_many_account_attempts",
                Mark(N_("Too many failed logins to this account from everywhere")),
            ),
            Quota("rooms-person", settings.rooms_per_hour_per_person, hour, *ROOMS),
            Quota("rooms-address", settings.rooms_per_hour_per_address, hour, *ROOMS),
            Quota("lookups-address", settings.code_lookups_per_minute, minute, *LOOKUPS),
            Quota(
                "signups-address",
                settings.signups_per_hour_per_address,
                hour,
                "too_many_signups",
                Mark(N_("Too many new accounts from your address")),
            ),
            Quota(
                "guests-address",
                settings.guests_per_hour_per_address,
                hour,
                "too_many_guests",
                Mark(N_("Too many new guests from your address")),
            ),
            Quota(
                "friend-requests-person",
                settings.friend_requests_per_hour,
                hour,
                "too_many_friend_requests",
                Mark(N_("Too many friend requests")),
            ),
            Quota(
                "invitations-person",
                settings.invitations_per_hour,
                hour,
                "too_many_invitations",
                Mark(N_("Too many invitations")),
            ),
            # One notice per invitee and table in each window; it refuses no request, so
            # its code and words are never shown.
            Quota("invitation-notices", 1, settings.invitation_notice_seconds, "", ""),
        )


class Quotas(Protocol):
    async def use(self, *charges: Charge) -> Over | None:
        """Count one use against every charge if each quota allows it (None); else count
        nothing and say which quota refuses it, for longest."""
        ...

    async def give_back(self, *charges: Charge) -> None:
        """Uncount a use counted by ``use`` (in windows that have not ended since)."""
        ...


class MemoryQuotas:
    """Counters in this process's memory (one process alone)."""

    forget_above = 10_000  # windows kept before the ended ones are forgotten

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        # (quota name, key) -> (when its window ends, uses in it)
        self._windows: dict[tuple[str, str], tuple[float, int]] = {}

    def _window(self, quota: Quota, key: str, now: float) -> tuple[float, int]:
        ends, count = self._windows.get((quota.name, key), (0.0, 0))
        return (now + quota.seconds, 0) if now >= ends else (ends, count)

    async def use(self, *charges: Charge) -> Over | None:
        now = self.clock()
        windows = [self._window(quota, key, now) for quota, key in charges]
        over = [
            Over(quota, ends - now)
            for (quota, _key), (ends, count) in zip(charges, windows, strict=True)
            if count >= quota.limit
        ]
        if over:
            return max(over, key=lambda refusal: refusal.seconds)
        for (quota, key), (ends, count) in zip(charges, windows, strict=True):
            self._windows[(quota.name, key)] = (ends, count + 1)
        if len(self._windows) > self.forget_above:
            self._windows = {k: v for k, v in self._windows.items() if v[0] > now}
        return None

    async def give_back(self, *charges: Charge) -> None:
        now = self.clock()
        for quota, key in charges:
            ends, count = self._windows.get((quota.name, key), (0.0, 0))
            if now < ends and count > 0:
                self._windows[(quota.name, key)] = (ends, count - 1)


# KEYS: the counters; ARGV: each one's limit and window in milliseconds, in turn. Answers
# {0, 0} when every counter was below its limit and is now one higher, else {n, ms}: the
# n-th counter (1-based) refuses for the longest, for ms more, and nothing was counted.
USE_SCRIPT = """
local refusing, wait = 0, -1
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[2 * i - 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl > wait then refusing, wait = i, ttl end
  end
end
if refusing > 0 then return {refusing, wait} end
for i, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('PEXPIRE', key, ARGV[2 * i], 'NX')
end
return {0, 0}
"""

# Only counters still in their window are uncounted: a DECR on an expired key would leave a
# key without a window, counting for ever.
GIVE_BACK_SCRIPT = """
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 0
"""


class RedisQuotas:
    """Counters in Redis, shared by every process."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._use = redis.register_script(USE_SCRIPT)
        self._give_back = redis.register_script(GIVE_BACK_SCRIPT)

    def _key(self, quota: Quota, key: str) -> str:
        return f"{self.prefix}:quota:{quota.name}:{key}"

    async def use(self, *charges: Charge) -> Over | None:
        keys = [self._key(quota, key) for quota, key in charges]
        args: list[int] = []
        for quota, _key in charges:
            args += [quota.limit, math.ceil(quota.seconds * 1000)]
        try:
            refusing, wait_ms = await self._use(keys=keys, args=args)
        except (RedisError, OSError):
            REDIS_ERRORS.labels(operation="quota").inc()
            # Nothing was counted, so nothing is let through: the request may be sent again.
            raise unavailable() from None
        if int(refusing) == 0:
            return None
        return Over(charges[int(refusing) - 1][0], max(int(wait_ms), 0) / 1000)

    async def give_back(self, *charges: Charge) -> None:
        keys = [self._key(quota, key) for quota, key in charges]
        try:
            await self._give_back(keys=keys, args=[])
        except (RedisError, OSError):
            REDIS_ERRORS.labels(operation="quota").inc()
            # The use stays counted, as if it had failed: it lapses with its window.
            return


ROOM_ID_LENGTH = 16  # hex digits: 64 random bits (app/rooms/lobby.py)


def is_room_id(key: str) -> bool:
    """Whether a room key is an id rather than a short code."""
    return len(key) == ROOM_ID_LENGTH and all(c in "0123456789abcdef" for c in key)


class Limiter:
    """The site's quotas, charged where people use them; a refusal is a Refusal (429)
    whose code names the quota and whose message says when to try again."""

    def __init__(self, quotas: Quotas, site: SiteQuotas) -> None:
        self.quotas = quotas
        self.site = site

    def _login_charges(self, account_key: str, address: str) -> tuple[Charge, ...]:
        # The length first, so that no address and account pair spells another's key.
        pair = f"{len(address)}:{address}:{account_key}"
        return (
            (self.site.login_per_account_address, pair),
            (self.site.login_per_address, address),
            (self.site.login_per_account, account_key),
        )

    async def login(self, account_key: str, address: str) -> None:
        """Count a login attempt before its password is checked (refused past a limit);
        :meth:`logged_in` gives it back when the password was right."""
        _refuse_if(await self.quotas.use(*self._login_charges(account_key, address)))

    async def logged_in(self, account_key: str, address: str) -> None:
        """A right password: its attempt is held against no one."""
        await self.quotas.give_back(*self._login_charges(account_key, address))

    async def open_room(self, person: str, address: str) -> None:
        _refuse_if(
            await self.quotas.use(
                (self.site.rooms_per_person, person), (self.site.rooms_per_address, address)
            )
        )

    async def look_up(self, room_key: str, address: str) -> None:
        """Count a room reached by its short code (reaching one by its id is free)."""
        if is_room_id(room_key):
            return
        _refuse_if(await self.quotas.use((self.site.lookups_per_address, address)))

    async def sign_up(self, address: str) -> None:
        """Count a new account made from ``address``."""
        _refuse_if(await self.quotas.use((self.site.signups_per_address, address)))

    async def new_guest(self, address: str) -> None:
        """Count a new guest started from ``address``."""
        _refuse_if(await self.quotas.use((self.site.guests_per_address, address)))

    async def ask_friend(self, person: str) -> None:
        """Count a friend ask by the account ``person`` (whatever its answer)."""
        _refuse_if(await self.quotas.use((self.site.friend_requests_per_person, person)))

    async def invite(self, person: str) -> None:
        """Count an invitation sent (or renewed) by ``person`` (whatever its answer)."""
        _refuse_if(await self.quotas.use((self.site.invitations_per_person, person)))

    async def first_notice(self, invitee: str, room_id: str) -> bool:
        """Whether an invitation of ``invitee`` to ``room_id`` may reach their notification
        channels: not if one did within the notice window."""
        try:
            over = await self.quotas.use((self.site.invitation_notices, f"{room_id}:{invitee}"))
        except Refusal:  # Redis cannot count it: better told twice than not at all
            return True
        return over is None


def _refuse_if(over: Over | None) -> None:
    if over is not None:
        seconds = max(1, math.ceil(over.seconds))
        raise Refusal(
            over.quota.code,
            N_("{what}; try again in {seconds} s."),
            429,
            what=over.quota.what,
            seconds=seconds,
        )
