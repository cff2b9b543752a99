"""Leases: which process referees which room.

A room's lease is a Redis key holding its owner's process id, with a time limit. The owner
renews its leases every third of that limit. It counts a lease as its own only until the
limit has passed since it last *sent* a successful renewal — never longer than Redis keeps
the key — so a process cut off from Redis stops refereeing before any other process can
claim the room. After a Redis restart (the keys are gone) an owner takes its leases back on
its next renewal unless another process claimed them first.
"""

from __future__ import annotations

import time

from redis.asyncio import Redis

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
    """This process's leases on rooms, kept in Redis under ``prefix``."""

    def __init__(self, redis: Redis, process_id: str, seconds: float, prefix: str) -> None:
        self.redis = redis
        self.process_id = process_id
        self.seconds = seconds
        self.prefix = prefix
        self._ms = int(seconds * 1000)
        self._valid_until: dict[str, float] = {}
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)

    def key(self, room_id: str) -> str:
        return f"{self.prefix}:lease:{room_id}"

    def holds(self, room_id: str) -> bool:
        """Whether this process may referee the room now, by its own clock."""
        return self._valid_until.get(room_id, 0.0) > time.monotonic()

    def held(self) -> list[str]:
        return list(self._valid_until)

    async def claim(self, room_id: str) -> bool:
        """Take the room's lease if it is free (or already ours)."""
        sent = time.monotonic()
        taken = await self._renew(keys=[self.key(room_id)], args=[self.process_id, self._ms])
        if taken:
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

    async def renew(self) -> list[str]:
        """Renew every lease held; returns the rooms whose lease another process now has."""
        rooms = self.held()
        if not rooms:
            return []
        sent = time.monotonic()
        pipe = self.redis.pipeline(transaction=False)
        for room_id in rooms:
            await self._renew(
                keys=[self.key(room_id)], args=[self.process_id, self._ms], client=pipe
            )
        results = await pipe.execute()
        lost = []
        for room_id, kept in zip(rooms, results, strict=True):
            if kept:
                self._valid_until[room_id] = sent + self.seconds
            else:
                self._valid_until.pop(room_id, None)
                lost.append(room_id)
        return lost

    def expired(self) -> list[str]:
        """Leases whose time ran out without a renewal (Redis unreachable): dropped."""
        now = time.monotonic()
        gone = [room_id for room_id, until in self._valid_until.items() if until <= now]
        for room_id in gone:
            del self._valid_until[room_id]
        return gone

    def forget(self, room_id: str) -> None:
        """Stop counting a lease as ours (another process has it)."""
        self._valid_until.pop(room_id, None)

    async def release(self, room_id: str) -> None:
        self._valid_until.pop(room_id, None)
        await self._release(keys=[self.key(room_id)], args=[self.process_id])
