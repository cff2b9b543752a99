""" "Your tables": a person's unfinished tables, those awaiting them first, then by deadline.

Read from the database (app/store/turn_based.py), never by loading the tables: a
turn-based table's awaited seats are those with a deadline in its stored clocks. A live
table's are read from the room this process holds (every open live table is held by some
process; one held elsewhere shows its clocked seats, or none). What each entry says is in
docs/protocol.md, "Your tables".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.models import Room, iso
from app.rooms.pace import TURN_BASED
from app.rooms.records import LiveRoom
from app.rooms.time_source import iso_at


def awaited_seats(row: Room, room: LiveRoom | None) -> list[int]:
    """The seats the table awaits now."""
    if row.status != "playing":
        return []
    if room is not None and room.state is not None:
        if room.status != "playing" or room.rules.is_over(room.state):
            return []
        return list(room.rules.to_act(room.state))
    deadlines = (row.clock_state or {}).get("deadlines", [])
    return [seat for seat, deadline in enumerate(deadlines) if deadline is not None]


def table_entry(row: Room, room: LiveRoom | None, user_id: str) -> dict[str, Any]:
    """One of the caller's tables, as ``GET /api/me/tables`` lists it."""
    awaited = awaited_seats(row, room)
    holders = {seat.seat: seat for seat in row.seats}
    mine = [seat for seat, holder in holders.items() if holder.user_id == user_id]
    your_turn = any(seat in awaited for seat in mine)
    deadline = None
    if row.pace == TURN_BASED and awaited:
        deadlines = (row.clock_state or {}).get("deadlines", [])
        own = [deadlines[seat] for seat in mine if seat in awaited and deadlines[seat] is not None]
        deadline = iso_at(min(own)) if own else iso(row.deadline)
    return {
        "room_id": row.id,
        "game": row.game,
        "status": row.status,
        "pace": row.pace,
        "days_per_move": row.days_per_move,
        "your_turn": your_turn,
        "deadline": deadline,
        "to_act": awaited,
        "seats": [
            {
                "seat": seat,
                "name": holder.name if holder else None,
                "user_id": holder.user_id if holder else None,
                "bot": holder.bot if holder else None,
                "stand_in_for": holder.stand_in_for if holder else None,
                "you": holder is not None and user_id in (holder.user_id, holder.stand_in_for),
            }
            for seat in range(row.seat_count)
            for holder in [holders.get(seat)]
        ],
    }


def your_tables(
    rows: list[Room], user_id: str, held: Callable[[str], LiveRoom | None]
) -> list[dict[str, Any]]:
    """The entries of ``rows`` (newest first), those awaiting ``user_id`` first, then by
    deadline (soonest first; none last)."""
    entries = [table_entry(row, held(row.id), user_id) for row in rows]
    return sorted(
        entries,
        key=lambda entry: (
            not entry["your_turn"],
            entry["deadline"] is None,
            entry["deadline"] or "",
        ),
    )


def awaiting_count(tables: list[dict[str, Any]]) -> int:
    """How many of the tables await their person (the header's count)."""
    return sum(1 for table in tables if table["your_turn"])
