"""Presence over every process: who is connected to a room, wherever they connected.

Each process knows its own connections (the hub) and tells the others of changes on the
room's channel; it also keeps them in a Redis hash per room, so a process that starts
watching a room learns who is already there. Entries of a process that stopped renewing
its heartbeat are dropped.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.cluster.bus import RedisBus
from app.cluster.channels import Channels
from app.connections.hub import Hub


@dataclass(frozen=True)
class Here:
    """One process's connections to one room: the people (user ids) connected, and how
    many connections. Which seats they hold is the room's to say (app/rooms/render.py)."""

    users: frozenset[str]
    watchers: int

    def data(self) -> dict[str, object]:
        """As the presence message and the hash carry it (``of`` reads it back)."""
        return {"users": sorted(self.users), "watchers": self.watchers}

    def payload(self) -> bytes:
        return orjson.dumps(self.data())

    @staticmethod
    def parse(payload: bytes | str) -> Here:
        return Here.of(orjson.loads(payload))

    @staticmethod
    def of(data: dict[str, object]) -> Here:
        users, watchers = data["users"], data["watchers"]
        assert isinstance(users, list) and isinstance(watchers, int)
        return Here(frozenset(str(u) for u in users), watchers)


class ClusterPresence:
    """The rooms' presence (app/rooms/notifier.py) over every process."""

    def __init__(
        self, hub: Hub, process_id: str, redis: Redis, bus: RedisBus, channels: Channels
    ) -> None:
        self.hub = hub
        self.process_id = process_id
        self._redis = redis
        self._bus = bus
        self._channels = channels
        self._remote: dict[str, dict[str, Here]] = {}
        self._shared: dict[str, Here] = {}  # what the others were last told, per room

    def share(self, room_id: str, *, again: bool = False) -> None:
        """Tell the other processes who is connected to a room here, if that changed
        since they were last told (``again``: whether or not)."""
        here = self.here(room_id)
        if not again and self._shared.get(room_id) == here:
            return
        self._shared[room_id] = here
        data = here.data()
        message = {"kind": "presence", "proc": self.process_id, "here": data}
        # Kept for a process that starts holding the room later, which subscribes to the
        # room's presence channel and then reads the hash (``learn``). Written before the
        # message, in the same batch: a process that read the hash before the write hears
        # the message, and one that subscribed after the message reads the write.
        key = self._channels.presence_key(room_id)
        self._bus.store(key, self.process_id, orjson.dumps(data) if here.watchers else None)
        self._bus.publish(self._channels.presence(room_id), orjson.dumps(message))

    async def learn(self, room_id: str) -> None:
        """Read who is connected to a room through the other processes (on first holding
        it, or after Redis was away)."""
        with contextlib.suppress(RedisError, OSError):
            entries = await self._redis.hgetall(self._channels.presence_key(room_id))
            for process, payload in entries.items():
                name = process.decode() if isinstance(process, bytes) else process
                self.set_remote(room_id, name, Here.parse(payload))

    def here(self, room_id: str) -> Here:
        return Here(
            frozenset(self.hub.connected_users(room_id)), self.hub.local_watcher_count(room_id)
        )

    def set_remote(self, room_id: str, process_id: str, here: Here) -> bool:
        """Record another process's connections to a room; True when something changed."""
        if process_id == self.process_id:
            return False
        entries = self._remote.setdefault(room_id, {})
        if entries.get(process_id) == here:
            return False
        if here.watchers == 0:
            entries.pop(process_id, None)
        else:
            entries[process_id] = here
        if not entries:
            del self._remote[room_id]
        return True

    def elsewhere(self, room_id: str) -> bool:
        """Whether another process has connections to the room."""
        return room_id in self._remote

    def processes(self) -> set[str]:
        return {p for entries in self._remote.values() for p in entries}

    def drop_process(self, process_id: str) -> list[str]:
        """Forget a process that is gone; returns the rooms whose presence changed."""
        changed = []
        for room_id, entries in list(self._remote.items()):
            if entries.pop(process_id, None) is not None:
                changed.append(room_id)
                if not entries:
                    del self._remote[room_id]
        return changed

    def forget_room(self, room_id: str) -> None:
        self._remote.pop(room_id, None)
        self._shared.pop(room_id, None)

    # --- the Presence interface ---------------------------------------------------------

    def connected_users(self, room_id: str) -> set[str]:
        users = self.hub.connected_users(room_id)
        for here in self._remote.get(room_id, {}).values():
            users |= here.users
        return users

    def watcher_count(self, room_id: str) -> int:
        remote = sum(h.watchers for h in self._remote.get(room_id, {}).values())
        return self.hub.local_watcher_count(room_id) + remote

    def local_watcher_count(self, room_id: str) -> int:
        return self.hub.local_watcher_count(room_id)
