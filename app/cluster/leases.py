"""Leases: which process referees which room, kept alive by a thread of their own.

A room's lease is a Redis key holding its owner's process id, with a time limit. The owner
renews its leases, and its heartbeat (the key that says the process is alive), every third
of that limit. It counts a lease as its own only until the limit has passed since it last
*sent* a successful renewal — never longer than Redis keeps the key — so a process cut off
from Redis stops refereeing before any other process can claim the room. After a Redis
restart (the keys are gone) an owner takes its leases back on its next renewal unless
another process claimed them first.

The renewals run in a thread with a blocking Redis client of its own, not on the event
loop: a lease says "this process is alive", and a process whose event loop falls behind
under load is slow, not dead. Renewed from the loop, a backlog of a few seconds would count
every lease lost, the other processes would claim the rooms, and the copies' catching up
would lag the loops further — load would turn into a storm of takeovers. From the thread, a
lease lapses only when the process dies or cannot reach Redis.
"""

from __future__ import annotations

import logging
import threading
import time

from redis import Redis as BlockingRedis
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.observability.metrics import REDIS_ERRORS

log = logging.getLogger("parlour.cluster")

# KEYS[1] the lease, ARGV[1] this process, ARGV[2] the limit in ms. 1: still ours.
RENEW = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not owner then
  if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
end
return 0
"""
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Leases:
    """This process's leases on rooms, kept in Redis under ``prefix``.

    ``redis`` serves the event loop (claims, releases, owner look-ups); ``keeper`` is a
    blocking client used only by the renewal thread (``start``/``stop``).
    """

    def __init__(
        self,
        redis: Redis,
        keeper: BlockingRedis,
        process_id: str,
        seconds: float,
        prefix: str,
        alive_key: str,
        name: str = "",
    ) -> None:
        self.redis = redis
        self.process_id = process_id
        self.seconds = seconds
        self.prefix = prefix
        self._ms = int(seconds * 1000)
        self._alive_key = alive_key
        # The heartbeat holds the process's name, for the others to tell the proxy's way to
        # a room's referee (``Cluster.referee_name``).
        self._name = name.encode()
        # Room -> when (time.monotonic) this process stops counting the lease as its own.
        # Read on the event loop, written by both it and the renewal thread: under the lock.
        self._valid_until: dict[str, float] = {}
        self._lost: list[str] = []  # taken by another process, for the loop to give up
        self._lock = threading.Lock()
        self._keeper = keeper
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)
        self._renew_blocking = keeper.register_script(RENEW)
        self._release_blocking = keeper.register_script(RELEASE)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def key(self, room_id: str) -> str:
        return f"{self.prefix}:lease:{room_id}"

    def holds(self, room_id: str) -> bool:
        """Whether this process may referee the room now, by its own clock."""
        with self._lock:
            return self._valid_until.get(room_id, 0.0) > time.monotonic()

    def held(self) -> list[str]:
        with self._lock:
            return list(self._valid_until)

    async def claim(self, room_id: str) -> bool:
        """Take the room's lease if it is free (or already ours)."""
        sent = time.monotonic()
        taken = await self._renew(keys=[self.key(room_id)], args=[self.process_id, self._ms])
        if taken:
            with self._lock:
                self._valid_until[room_id] = sent + self.seconds
        return bool(taken)

    async def owner(self, room_id: str) -> str | None:
        value = await self.redis.get(self.key(room_id))
        return value.decode() if isinstance(value, bytes) else value

    async def owners(self, room_ids: list[str]) -> list[str | None]:
        if not room_ids:
            return []
        values = await self.redis.mget([self.key(room_id) for room_id in room_ids])
        return [v.decode() if isinstance(v, bytes) else v for v in values]

    # --- the renewal thread ------------------------------------------------------------------

    def start(self) -> None:
        """Renew the heartbeat and every lease held now, then every third of the limit."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._keep, name="parlour-leases", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.seconds)
            self._thread = None

    def close(self) -> None:
        """Close the renewal thread's connections (after ``stop``)."""
        self._keeper.close()

    def _keep(self) -> None:
        period = self.seconds / 3
        while True:
            try:
                self.renew()
            except (RedisError, OSError) as error:
                REDIS_ERRORS.labels(operation="renew_leases").inc()
                # Unrenewed leases run out by this process's own clock (``expired``).
                log.debug("lease renewal: Redis unreachable (%s)", error)
            except Exception:
                log.exception("lease renewal failed")
            if self._stop.wait(period):
                return

    def renew(self) -> None:
        """Renew the heartbeat and every lease held (blocking: the renewal thread's work).
        A lease another process holds now is dropped and left for ``lost`` to report."""
        rooms = self.held()
        sent = time.monotonic()
        pipe = self._keeper.pipeline(transaction=False)
        pipe.set(self._alive_key, self._name, px=self._ms)
        for room_id in rooms:
            self._renew_blocking(
                keys=[self.key(room_id)], args=[self.process_id, self._ms], client=pipe
            )
        results = pipe.execute()[1:]
        stray = []
        with self._lock:
            for room_id, kept in zip(rooms, results, strict=True):
                if room_id not in self._valid_until:
                    # Released while the renewal was under way, which may have taken the
                    # freed key again: free it once more.
                    if kept:
                        stray.append(room_id)
                elif kept:
                    self._valid_until[room_id] = sent + self.seconds
                else:
                    del self._valid_until[room_id]
                    self._lost.append(room_id)
        for room_id in stray:
            self._release_blocking(keys=[self.key(room_id)], args=[self.process_id])

    # --- what the event loop asks ------------------------------------------------------------

    def lost(self) -> list[str]:
        """Leases given up since last asked: another process holds them, or their time ran
        out without a renewal (Redis unreachable)."""
        now = time.monotonic()
        with self._lock:
            gone, self._lost = self._lost, []
            expired = [room_id for room_id, until in self._valid_until.items() if until <= now]
            for room_id in expired:
                del self._valid_until[room_id]
        return gone + expired

    def forget(self, room_id: str) -> None:
        """Stop counting a lease as ours (another process has it)."""
        with self._lock:
            self._valid_until.pop(room_id, None)

    async def release(self, room_id: str) -> None:
        self.forget(room_id)
        await self._release(keys=[self.key(room_id)], args=[self.process_id])

    async def release_all(self, room_ids: list[str]) -> None:
        """Give up these leases at once, in one round trip (this process is stopping)."""
        for room_id in room_ids:
            self.forget(room_id)
        pipe = self.redis.pipeline(transaction=False)
        for room_id in room_ids:
            await self._release(keys=[self.key(room_id)], args=[self.process_id], client=pipe)
        await pipe.execute()
