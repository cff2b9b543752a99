"""A table's pace: live (everyone at the table at once) or turn-based (a match over days).

A turn-based table gives every move ``days_per_move`` days (1, 2, 3, 5, 7 or 14). Its clock
is the move's *deadline*: when a seat becomes awaited its deadline is then plus the days
per move. The deadlines are kept as the room's turn clocks (app/rooms/turn_clocks.py, with
a turn of that many days and no bank), so they are stored with each move and survive a
restart unchanged — unlike a live clock, a turn-based one is never restarted, and going
away never makes it run out (the absence and stale-table rules of app/rooms/timers.py do
not apply). When a person's deadline has passed, the others may claim the match
(``Referee.claim``) or let a computer play the seat until the person takes it back
(``StandIns.after_deadline``).

The room's row also keeps its earliest awaited person's deadline (``deadline_columns``):
the periodic sweep (app/rooms/turn_sweep.py) finds deadlines by that indexed column
instead of holding every table in memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.i18n.marks import N_
from app.refusal import Refusal
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.time_source import stamp
from app.rooms.turn_clocks import TurnClocks

LIVE = "live"
TURN_BASED = "turn_based"
PACES = (LIVE, TURN_BASED)
DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)
DAY = 86_400


def pace_setting(pace: str, days_per_move: int | None) -> tuple[str, int | None]:
    """A table's pace as asked for at creation, checked: ``bad_pace`` says what is wrong."""
    choices = ", ".join(str(days) for days in DAYS_PER_MOVE)
    if pace == TURN_BASED:
        if days_per_move is None:
            raise Refusal(
                "bad_pace",
                N_("A turn-based table needs days_per_move: one of {choices}."),
                422,
                choices=choices,
            )
        if days_per_move not in DAYS_PER_MOVE:
            raise Refusal(
                "bad_pace",
                N_("days_per_move must be one of {choices}; {days_per_move} is not."),
                422,
                choices=choices,
                days_per_move=days_per_move,
            )
        return pace, days_per_move
    if days_per_move is not None:
        raise Refusal("bad_pace", N_("days_per_move is only for a turn-based table."), 422)
    return LIVE, None


def is_turn_based(room: LiveRoom) -> bool:
    return room.pace == TURN_BASED


def move_clock(room: LiveRoom) -> dict[str, int] | None:
    """The setting the room's turn clocks run by: a live table's chosen clock (or none),
    a turn-based table's days per move as a turn with no bank."""
    if is_turn_based(room) and room.days_per_move is not None:
        return {"turn": room.days_per_move * DAY, "bank": 0}
    return room.time_control


def awaited_people(
    room: LiveRoom, state: Any, seats: Sequence[SeatHolder | None] | None = None
) -> list[int]:
    """The awaited seats a person holds (a computer's are not timed by a deadline), with
    the room's seats or ``seats``."""
    holders = room.seats if seats is None else seats
    if state is None or room.rules.is_over(state):
        return []
    return [
        seat
        for seat in room.rules.to_act(state)
        if (holder := holders[seat]) is not None and holder.user_id is not None
    ]


def next_deadline(
    room: LiveRoom,
    clocks: TurnClocks | None,
    state: Any,
    seats: Sequence[SeatHolder | None] | None = None,
) -> float | None:
    """The earliest deadline of an awaited person (None: no person is awaited)."""
    if clocks is None:
        return None
    awaited = awaited_people(room, state, seats)
    return min((d for s in awaited if (d := clocks.deadlines[s]) is not None), default=None)


def deadline_columns(
    room: LiveRoom,
    clocks: TurnClocks | None,
    state: Any,
    seats: Sequence[SeatHolder | None] | None = None,
) -> dict[str, Any]:
    """The room row's ``deadline`` once ``clocks``, ``state`` (and ``seats``) are the
    room's, to write in the same transaction as the change; nothing for a live table."""
    if not is_turn_based(room):
        return {}
    deadline = next_deadline(room, clocks, state, seats)
    return {"deadline": None if deadline is None else stamp(deadline)}


def out_of_time(room: LiveRoom, now: float) -> list[int]:
    """The awaited people's seats whose deadline has passed at a turn-based table."""
    clocks = room.turn_clocks
    if not is_turn_based(room) or room.status != "playing" or clocks is None:
        return []
    return [s for s in awaited_people(room, room.state) if clocks.expired(s, now)]
