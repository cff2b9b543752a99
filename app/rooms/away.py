"""Who is away from a table, and since when — stamped by the room's owner.

A seat's person (its holder, or the person its computer stands in for) is *away* while
they have no open connection to the room, through any process. The room's owner stamps
``away_since`` for a seat when its person goes away and clears it when they come back, and
``vacant_since`` while no seat's person is connected at all. The stamps travel to the
other processes in the owner's notices (app/cluster/cluster.py), so every process
describes the same times.

What follows from them: a person's seat may be given to a computer once they have been
away for the absence grace (app/rooms/stand_ins.py); the host role passes on when the host
has been away for the grace; a table nobody sits at closes, or its match is abandoned,
once it has been vacant for the stale time (app/rooms/timers.py runs both).
"""

from __future__ import annotations

from app.rooms.notifier import Presence
from app.rooms.records import LiveRoom
from app.rooms.time_source import TimeSource


class AwayKeeper:
    """Told of every change of a room before anyone else, so that what they see — the
    description, the timers — has up-to-date stamps. Only the room's owner stamps."""

    def __init__(self, presence: Presence, time_source: TimeSource) -> None:
        self.presence = presence
        self.time_source = time_source

    def room_changed(self, room: LiveRoom) -> None:
        if not room.owned or room.ended:
            return
        if refresh(room, self.presence.connected_users(room.id), self.time_source.now()):
            room.described()


def refresh(room: LiveRoom, here: set[str], now: float) -> bool:
    """Stamp who went away (and clear who came back) given the people connected now;
    True when a stamp changed."""
    away: list[float | None] = []
    present = False
    for seat, holder in enumerate(room.seats):
        person = None if holder is None else holder.person
        if person is None or person in here:
            away.append(None)
            present = present or person is not None
        else:
            since = room.away_since[seat]
            away.append(now if since is None else since)
    vacant = None if present else (now if room.vacant_since is None else room.vacant_since)
    changed = away != room.away_since or vacant != room.vacant_since
    room.away_since, room.vacant_since = away, vacant
    return changed


def people_here(room: LiveRoom, here: set[str]) -> bool:
    """Whether any seat's person is connected (the open-tables list shows only these)."""
    return any(holder is not None and holder.person in here for holder in room.seats)


def host_seat(room: LiveRoom) -> int | None:
    """The seat of the host (or the seat a computer plays for the host)."""
    for seat, holder in enumerate(room.seats):
        if holder is not None and holder.person == room.host_id:
            return seat
    return None


def host_successor(room: LiveRoom, here: set[str]) -> str | None:
    """Who becomes host when the host has been away for the grace: the next seated person
    after the host's seat, going round the table, who is connected now."""
    start = host_seat(room)
    if start is None:
        return None
    for step in range(1, room.seat_count):
        holder = room.seats[(start + step) % room.seat_count]
        if holder is not None and holder.user_id is not None and holder.user_id in here:
            return holder.user_id
    return None


def host_away_since(room: LiveRoom) -> float | None:
    seat = host_seat(room)
    return None if seat is None else room.away_since[seat]
