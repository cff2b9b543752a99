"""The part of a room that its owner's notices carry besides the match's state and clocks.

Seats, status, host, options, chat settings and the owner's absence stamps travel as one
JSON object; a process holding a copy takes it whole.
"""

from __future__ import annotations

from typing import Any

from app.rooms import LiveRoom
from app.rooms.records import SeatHolder


def room_description(room: LiveRoom) -> dict[str, Any]:
    """What a notice says about ``room`` besides its match's state and clocks."""
    return {
        "seats": [
            None if h is None else [h.user_id, h.bot, h.name, h.stand_in_for, h.stand_in_name]
            for h in room.seats
        ],
        "status": room.status,
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
    }


def take_description(room: LiveRoom, description: dict[str, Any]) -> bool:
    """Take a notice's description of a room (not its match's state); True if it changed."""
    seats = [None if s is None else SeatHolder(*s) for s in description["seats"]]
    fields = {**description, "seats": seats}
    del fields["seed"]
    changed = False
    for name, value in fields.items():
        if getattr(room, name) != value:
            setattr(room, name, value)
            changed = True
    return changed
