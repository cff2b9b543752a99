"""The names of what the processes share in Redis: pub/sub channels and keys.

Every name starts with the cluster's prefix, so that several deployments (or test runs) can
share one Redis without hearing each other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Channels:
    prefix: str

    def room(self, room_id: str) -> str:
        """A room's notices: its owner publishes, the processes holding copies listen."""
        return f"{self.prefix}:room:{room_id}"

    def presence(self, room_id: str) -> str:
        """Who is connected to a room, per process: every process holding it listens."""
        return f"{self.prefix}:here:{room_id}"

    def talk(self, room_id: str) -> str:
        """A room's chat lines and reactions: every process holding it listens."""
        return f"{self.prefix}:talk:{room_id}"

    def inbox(self, process_id: str) -> str:
        """A process's own channel: verbs asked of it, and the answers to what it asked."""
        return f"{self.prefix}:proc:{process_id}"

    @property
    def sessions(self) -> str:
        """Users whose sessions ended or changed, for every process to forget."""
        return f"{self.prefix}:sessions"

    @property
    def handovers(self) -> str:
        """Rooms a stopping process let go of, for the others to take over at once."""
        return f"{self.prefix}:handovers"

    def alive_key(self, process_id: str) -> str:
        """A process's heartbeat: it expires when the process stops renewing it."""
        return f"{self.prefix}:alive:{process_id}"

    def presence_key(self, room_id: str) -> str:
        """Who is connected to a room through each process, for a process joining late."""
        return f"{self.prefix}:presence:{room_id}"

    @property
    def people(self) -> str:
        """Word for people wherever their pages are connected: what the live channel tells
        them (app/social/live.py), and whose talk they hide after a block."""
        return f"{self.prefix}:people"

    def online_key(self, user_id: str) -> str:
        """The processes through which a person has a live socket open (a hash)."""
        return f"{self.prefix}:online:{user_id}"
