"""What each process does every third of a lease: take over the rooms of dead processes,
and notice the processes that stopped. (The leases and the heartbeat themselves are renewed
by a thread of their own: app/cluster/leases.py.)

- leases that ran out unrenewed (Redis unreachable) or that another process now holds are
  given up: the room is followed as a copy from then on;
- copies whose owner is gone are claimed and their logs replayed, so a dead owner's tables
  play on within its lease time plus a second;
- processes that stopped renewing their heartbeat have their connections forgotten;
- about every two seconds, open rooms that no process holds (their owner died before
  anyone loaded them elsewhere) are claimed, so their timers and computer players run again;
- and at once, not on a tick: the rooms a stopping process hands over (``take_over``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from redis.exceptions import RedisError

from app import store
from app.cluster.leases import Leases
from app.cluster.presence import ClusterPresence
from app.observability.metrics import REDIS_ERRORS
from app.rooms import LiveRoom, Rooms
from app.rooms.ownership import set_owned

log = logging.getLogger("parlour.cluster")
SWEEP_SECONDS = 2.0


class Holder(Protocol):
    """What the upkeep asks of the process's part in the cluster (app/cluster/cluster.py)."""

    async def claim(self, room: LiveRoom) -> bool:
        """Take the room's lease if nobody holds it; True if this process owns it now."""
        ...

    def claiming(self) -> AbstractAsyncContextManager[None]:
        """Around a claim and the replay that makes its room this process's."""
        ...

    async def follow_owner(self, room: LiveRoom) -> None:
        """Listen to the room's owner's notices, catching up with what was missed."""
        ...

    async def is_alive(self, process_id: str) -> bool:
        """Whether a process still renews its heartbeat."""
        ...

    def described(self, room_id: str) -> None:
        """Who is connected to the room changed through another process."""
        ...


class Upkeep:
    def __init__(
        self,
        holder: Holder,
        leases: Leases,
        presence: ClusterPresence,
        rooms: Rooms,
        process_id: str,
    ) -> None:
        self.holder = holder
        self.leases = leases
        self.presence = presence
        self.rooms = rooms
        self.process_id = process_id

    async def run(self) -> None:
        """Tick until cancelled; a failed tick is logged and the next one tries again."""
        period = self.leases.seconds / 3
        sweep_every = max(1, round(SWEEP_SECONDS / period))
        rounds = 0
        while True:
            try:
                await self.tick(sweep=rounds % sweep_every == 0)
            except (RedisError, OSError) as error:
                REDIS_ERRORS.labels(operation="upkeep").inc()
                log.debug("cluster upkeep: Redis unreachable (%s)", error)
            except Exception:
                log.exception("cluster upkeep failed")
            rounds += 1
            await asyncio.sleep(period)

    async def tick(self, *, sweep: bool) -> None:
        leases, registry = self.leases, self.rooms.registry
        for room_id in leases.lost():
            self.give_up(room_id)
        await self.claim_free([room for room in registry.rooms() if not room.owned])
        for process in self.presence.processes():
            if not await self.holder.is_alive(process):
                for room_id in self.presence.drop_process(process):
                    self.holder.described(room_id)
        if sweep:
            await self.sweep_orphans()
        for room in registry.rooms():
            registry.release_if_idle(room)

    async def claim_free(self, copies: list[LiveRoom]) -> None:
        """Claim the copies held here whose lease nobody holds, and bring each up to date
        from the log."""
        owners = await self.leases.owners([room.id for room in copies])
        free = [room for room, owner in zip(copies, owners, strict=True) if owner is None]
        # All at once: a stopping process hands over every room it had, and each waits
        # for its log to be read.
        done = await asyncio.gather(*(self._take(room) for room in free), return_exceptions=True)
        for outcome in done:
            if isinstance(outcome, BaseException):
                raise outcome

    async def _take(self, room: LiveRoom) -> None:
        async with self.holder.claiming():
            if await self.holder.claim(room):
                log.info("took over room %s", room.id)
                await self.rooms.became_owner(room)

    async def take_over(self, room_ids: list[str]) -> None:
        """A stopping process handed these rooms over (it released their leases): claim
        them now, as for a dead owner's rooms but without waiting for a lease to lapse —
        the copies held here first, then the rooms nobody here holds (loaded and claimed,
        unless another process was first)."""
        try:
            registry = self.rooms.registry
            held = [room for room_id in room_ids if (room := registry.held(room_id))]
            await self.claim_free([room for room in held if not room.owned])
            await self.sweep_orphans([i for i in room_ids if registry.held(i) is None])
        except (RedisError, OSError) as error:
            # The upkeep's next rounds claim them instead.
            log.warning("could not take over handed rooms: Redis unreachable (%s)", error)
        except Exception:
            log.exception("could not take over handed rooms")

    async def check_owner(self, room: LiveRoom) -> None:
        """Another process says it referees a room this one owns: Redis's lease decides."""
        with contextlib.suppress(RedisError, OSError):
            if await self.leases.owner(room.id) not in (None, self.process_id):
                self.give_up(room.id)

    def give_up(self, room_id: str) -> None:
        self.leases.forget(room_id)
        room = self.rooms.registry.held(room_id)
        if room is not None and room.owned:
            log.warning("lost the lease on room %s; following its new owner", room_id)
            set_owned(room, False)
            asyncio.get_running_loop().create_task(self.holder.follow_owner(room))

    async def sweep_orphans(self, candidates: list[str] | None = None) -> None:
        """Open rooms that no process holds (their owner died), or those of ``candidates``
        nobody holds: claim them, resuming their matches, so that their timers and
        computer players run again."""
        rooms = self.rooms
        if candidates is None:
            ids = await rooms.storage.call(store.open_room_ids)
            held = {room.id for room in rooms.registry.rooms()}
            candidates = [room_id for room_id in ids if room_id not in held]
        owners = await self.leases.owners(candidates)
        free = [room_id for room_id, owner in zip(candidates, owners, strict=True) if not owner]
        # Read side by side, as for the copies above.
        loaded = await asyncio.gather(
            *(rooms.get(room_id) for room_id in free), return_exceptions=True
        )
        for room in loaded:
            if isinstance(room, BaseException):
                raise room
            if room.owned:
                log.info("resumed room %s, which no process held", room.id)
