"""Turn-based tables in the database: the deadlines whose reminder is due (each claimed
once, whichever process sweeps first), and the unfinished tables a person plays at (live
ones too: "Your tables")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session, selectinload

from app.models import Room, Seat

TURN_BASED = "turn_based"


@dataclass(frozen=True)
class Reminder:
    """A person's deadline near at a turn-based table."""

    user_id: str
    room_id: str
    game: str
    deadline: float  # seconds since the epoch, as the room's clocks keep it


def claim_reminders(*, session: Session, until: datetime, limit: int = 1000) -> list[Reminder]:
    """The awaited people at turn-based tables whose deadline comes by ``until`` and whose
    reminder was not sent yet (at most ``limit`` tables' worth, soonest first).

    Each table's reminder is claimed by the one statement that finds it — its
    ``reminded_deadline`` set to its deadline — so it is sent once however many processes
    sweep at once: a second process's update finds the row claimed and skips it."""
    due = (
        select(Room.id)
        .where(
            Room.deadline.is_not(None),
            Room.deadline <= until,
            Room.pace == TURN_BASED,
            Room.status == "playing",
            or_(Room.reminded_deadline.is_(None), Room.reminded_deadline != Room.deadline),
        )
        .order_by(Room.deadline)
        .limit(limit)
    )
    claimed = session.execute(
        update(Room)
        .where(
            Room.id.in_(due.scalar_subquery()),
            or_(Room.reminded_deadline.is_(None), Room.reminded_deadline != Room.deadline),
        )
        .values(reminded_deadline=Room.deadline)
        .returning(Room.id, Room.game, Room.clock_state)
    ).all()
    seats = session.execute(
        select(Seat.room_id, Seat.seat, Seat.user_id).where(
            Seat.room_id.in_([row.id for row in claimed]), Seat.user_id.is_not(None)
        )
    ).all()
    session.commit()
    people: dict[str, list[tuple[int, str]]] = {}
    for room_id, seat, user_id in seats:
        people.setdefault(room_id, []).append((seat, str(user_id)))
    horizon = _epoch(until)
    reminders = []
    for room_id, game, clock_state in claimed:
        deadlines: list[float | None] = (clock_state or {}).get("deadlines", [])
        for seat, user_id in sorted(people.get(room_id, [])):
            deadline = deadlines[seat] if seat < len(deadlines) else None
            if deadline is not None and deadline <= horizon:
                reminders.append(Reminder(user_id, room_id, game, deadline))
    return reminders


def _epoch(naive_utc: datetime) -> float:
    return (naive_utc - datetime(1970, 1, 1)).total_seconds()


def unfinished_tables(*, session: Session, user_id: str) -> list[Room]:
    """The tables whose match has not ended (waiting or playing) at which ``user_id`` holds
    a seat, or has a computer standing in for them; with their seats."""
    mine = select(Seat.room_id).where(or_(Seat.user_id == user_id, Seat.stand_in_for == user_id))
    return list(
        session.scalars(
            select(Room)
            .options(selectinload(Room.seats))
            .where(Room.id.in_(mine), Room.status.in_(("waiting", "playing")))
            .order_by(Room.created_at.desc())
        )
    )
