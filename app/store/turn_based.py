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


def claim_reminders(*, session: Session, until: datetime, limit: int = 500) -> list[Reminder]:
    """The awaited people at turn-based tables whose deadline comes by ``until`` and whose
    reminder was not sent yet. Each table's reminder is claimed (``reminded_deadline`` set
    to its deadline, only if the deadline is still that one) in this transaction, so that
    it is sent once however many processes sweep."""
    rows = session.scalars(
        select(Room)
        .options(selectinload(Room.seats))
        .where(
            Room.deadline.is_not(None),
            Room.deadline <= until,
            Room.pace == TURN_BASED,
            Room.status == "playing",
            or_(Room.reminded_deadline.is_(None), Room.reminded_deadline != Room.deadline),
        )
        .order_by(Room.deadline)
        .limit(limit)
    ).all()
    reminders: list[Reminder] = []
    for row in rows:
        claimed = session.execute(
            update(Room)
            .where(Room.id == row.id, Room.deadline == row.deadline)
            .values(reminded_deadline=row.deadline)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            continue  # a move came meanwhile: its deadline is another
        reminders.extend(_awaited(row, until))
    session.commit()
    return reminders


def _awaited(row: Room, until: datetime) -> list[Reminder]:
    deadlines: list[float | None] = (row.clock_state or {}).get("deadlines", [])
    limit = _epoch(until)
    found = []
    for seat in row.seats:
        deadline = deadlines[seat.seat] if seat.seat < len(deadlines) else None
        if seat.user_id is not None and deadline is not None and deadline <= limit:
            found.append(Reminder(seat.user_id, row.id, row.game, deadline))
    return found


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
