"""Rendering: what a room looks like on the wire, and what a connection has yet to see.

Pure functions of a room (and who is connected): the room description (``describe``,
the ``room`` message) and one seat's ``state`` message, whose view comes from the game's
own ``view`` — the one place hidden information is cut. Rendered text is cached on the
room per (room description version, match version) and per seat, so ten spectators cost
one ``view`` and one JSON encoding. A connection keeps a :class:`Sent` record of what it
was last sent, and ``pending`` answers with what is new for it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import orjson

from app.rooms.notifier import Presence
from app.rooms.records import LiveRoom


@dataclass(frozen=True)
class Sent:
    """What one connection was last sent: room description, match version, as which seat."""

    meta_version: int = -1
    version: int = -1
    seat: int | None = None


def describe(room: LiveRoom, presence: Presence) -> dict[str, Any]:
    """The public description of a room (GET /api/rooms/{id}, the ``room`` message)."""
    connected = presence.connected_seats(room.id)
    return {
        "id": room.id,
        "code": room.code,
        "game": room.rules.name,
        "title": room.rules.title,
        "seat_count": room.seat_count,
        "seats": [
            {
                "seat": i,
                "name": h.name if h else None,
                "user_id": h.user_id if h else None,
                "bot": h.bot if h else None,
                "connected": (h is not None and h.bot is not None) or i in connected,
            }
            for i, h in enumerate(room.seats)
        ],
        "options": room.options,
        "visibility": room.visibility,
        "rated": room.rated,
        "status": room.status,
        "host_id": room.host_id,
        "match_id": room.match_id,
        "seed_hash": room.seed_hash,
        "version": room.version,
        "rematch_id": room.rematch_id,
        "created_at": room.created_at,
        "watchers": presence.watcher_count(room.id),
    }


def state_message(room: LiveRoom, seat: int | None) -> dict[str, Any]:
    """One seat's (or a spectator's) ``state`` message at the room's current version."""
    return {
        "type": "state",
        "version": room.version,
        "seat": seat,
        "view": room.rules.view(room.state, seat),
        "event": room.last_event,
    }


def _cached(room: LiveRoom, key: Hashable, build: Callable[[], dict[str, Any]]) -> str:
    stamp = (room.meta_version, room.version)
    if room.rendered_at != stamp:
        room.rendered.clear()
        room.rendered_at = stamp
    text = room.rendered.get(key)
    if text is None:
        text = orjson.dumps(build()).decode()
        room.rendered[key] = text
    return text


def pending(
    room: LiveRoom, presence: Presence, seat: int | None, sent: Sent
) -> tuple[list[tuple[str, str]], Sent]:
    """What a connection acting as ``seat`` has not seen, as (kind, text) pairs — kind
    ``room`` or ``state`` — and its new record."""
    out: list[tuple[str, str]] = []
    if sent.meta_version != room.meta_version:
        out.append(("room", _cached(room, "room", lambda: room_message(room, presence))))
    stale = sent.version != room.version or sent.seat != seat
    version = sent.version
    if room.state is not None and stale:
        out.append(("state", _cached(room, ("state", seat), lambda: state_message(room, seat))))
        version = room.version
    return out, Sent(room.meta_version, version, seat)


def room_message(room: LiveRoom, presence: Presence) -> dict[str, Any]:
    return {"type": "room", "room": describe(room, presence)}
