"""The copies this process keeps of rooms that another process referees.

With several processes (app/cluster/), a room's owner publishes a notice after every
committed change: the room's description (seats, status, host, options, chat settings and
the owner's absence stamps: :func:`room_description`), its turn clocks and the action just
committed. A :class:`Follower` applies each notice to this process's copy — the action
through the referee's ``follow``, so hidden cards are still cut only by the rules' ``view``
— and a copy that missed a notice restores itself from the log. The cluster only carries
the notices; every change to the copy is made here.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import asdict
from typing import Any

from app.rooms.notifier import Notifier
from app.rooms.records import LiveRoom, RematchOffer, SeatHolder
from app.rooms.referee import begin, follow, set_turn_clocks
from app.rooms.registry import RoomRegistry
from app.rooms.turn_clocks import TurnClocks
from app.store.outage import log_failure

log = logging.getLogger("parlour.rooms")
RESTORE_ATTEMPTS = 5


def room_description(room: LiveRoom) -> dict[str, Any]:
    """What a notice says about ``room`` besides its match's state and clocks."""
    return {
        "seats": [
            None if h is None else [h.user_id, h.bot, h.name, h.stand_in_for, h.stand_in_name]
            for h in room.seats
        ],
        "status": room.status,
        "closed_by": room.closed_by,
        "code": room.code,  # freed when the room ends
        "host_id": room.host_id,
        "options": room.options,
        "visibility": room.visibility,
        "rated": room.rated,
        "match_id": room.match_id,
        # The seed is secret until the match ends; it travels only between processes, so
        # that a copy starts the match without reading the log.
        "seed": None if room.seed is None else str(room.seed),
        "seed_hash": room.seed_hash,
        "rematch_id": room.rematch_id,
        "clock": room.time_control,
        # Stamped by the owner (app/rooms/away.py): every copy shows the same times.
        "away_since": room.away_since,
        "vacant_since": room.vacant_since,
        "watchers_chat": room.watchers_chat,
        "muted": room.muted,
        "mute_marks": room.mute_marks,
        "rematch_offer": None if room.rematch_offer is None else asdict(room.rematch_offer),
    }


# The room's fields a description sets, by the description's key.
_DESCRIBED = {
    "status": "status",
    "closed_by": "closed_by",
    "code": "code",
    "host_id": "host_id",
    "options": "options",
    "visibility": "visibility",
    "rated": "rated",
    "match_id": "match_id",
    "seed_hash": "seed_hash",
    "rematch_id": "rematch_id",
    "clock": "time_control",
    "away_since": "away_since",
    "vacant_since": "vacant_since",
    "watchers_chat": "watchers_chat",
    "muted": "muted",
    "mute_marks": "mute_marks",
}


def take_description(room: LiveRoom, description: dict[str, Any]) -> bool:
    """Take a notice's description of a room (not its match's state); True if it changed."""
    changed = False
    seats = [None if s is None else SeatHolder(*s) for s in description["seats"]]
    if seats != room.seats:
        room.seats = seats
        changed = True
    for key, name in _DESCRIBED.items():
        if getattr(room, name) != description[key]:
            setattr(room, name, description[key])
            changed = True
    offered = description.get("rematch_offer")
    offer = None if offered is None else RematchOffer(**offered)
    if offer != room.rematch_offer:
        room.rematch_offer = offer
        changed = True
    return changed


def take_notice(
    room: LiveRoom,
    *,
    description: dict[str, Any],
    version: int,
    event: list[Any] | None,
    clocks: dict[str, Any] | None,
) -> bool:
    """Apply an owner's notice to this process's copy of ``room``: its description, the
    match's first state if it just started, its turn clocks and the action that led to
    ``version``. False when the copy cannot follow on (a notice was missed): it must then
    be restored from the log."""
    if take_description(room, description):
        room.described()
    if room.match_id is not None and room.state is None:
        # The match started: its first state comes from the seed.
        seed = int(description["seed"])
        begin(room, match_id=room.match_id, seed=seed, seed_hash=description["seed_hash"])
    turn_clocks = TurnClocks.from_json(clocks)
    if turn_clocks != room.turn_clocks:
        set_turn_clocks(room, turn_clocks)
        if version == room.version:
            room.described()  # the clocks changed at the same version
    if version == room.version:
        return True
    return event is not None and follow(room, *event) and room.version == version


class Follower:
    """Keeps this process's copies of other processes' rooms in step with their owners."""

    def __init__(self, registry: RoomRegistry, local: Notifier) -> None:
        self.registry = registry
        # This process's connections: told once a copy has moved.
        self.local = local
        # Per room being restored: the newest version noticed meanwhile, and how many
        # notices came meanwhile (a notice may change the description at the same version).
        self._restoring: dict[str, int] = {}
        self._heard: dict[str, int] = {}

    def noticed(
        self,
        room: LiveRoom,
        *,
        description: dict[str, Any],
        version: int,
        event: list[Any] | None,
        clocks: dict[str, Any] | None,
    ) -> None:
        """An owner's notice for ``room``, a copy held here."""
        if room.id in self._restoring:
            self._restoring[room.id] = max(self._restoring[room.id], version)
            self._heard[room.id] = self._heard.get(room.id, 0) + 1
            return
        if not take_notice(
            room, description=description, version=version, event=event, clocks=clocks
        ):
            self.restore(room, version)
            return
        self.local.room_changed(room)

    def restore(self, room: LiveRoom, version: int) -> None:
        """Bring a copy that missed notices up to ``version`` (at least) from the log."""
        self._restoring[room.id] = max(version, self._restoring.get(room.id, version))
        asyncio.get_running_loop().create_task(self._restore(room))

    async def _restore(self, room: LiveRoom) -> None:
        try:
            # Notices that arrive meanwhile raise the version wanted; each reload reads
            # everything committed so far, so this ends as soon as the log is read whole.
            # A notice that came during a reload may tell of a change that reload did not
            # read (a seat taken changes the description, not the version): read again.
            for _ in range(RESTORE_ATTEMPTS):
                heard = self._heard.get(room.id, 0)
                async with room.lock:
                    await self.registry.reload(room)
                caught_up = room.version >= self._restoring[room.id]
                if caught_up and self._heard.get(room.id, 0) == heard:
                    break
        except Exception:
            log_failure(log, "could not catch room %s up from the log", room.id)
        finally:
            self._restoring.pop(room.id, None)
            self._heard.pop(room.id, None)
        self.local.room_changed(room)
