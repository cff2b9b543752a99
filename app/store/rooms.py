"""Rooms and their seats: creating, loading (by id or open code), seating, and the rooms a
process must hold, and the open tables' list."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    bindparam,
    delete,
    false,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session, selectinload

from app.models import (
    Base,
    Room,
    Seat,
    table,
)
from app.store import social


def load_room(*, session: Session, room_id: str) -> Room | None:
    return session.scalars(
        select(Room).options(selectinload(Room.seats)).where(Room.id == room_id)
    ).first()


def find_room(*, session: Session, key: str) -> Room | None:
    """The room with id ``key`` or, failing that, with that open short code (any case)."""
    found = load_room(session=session, room_id=key)
    if found is None:
        by_code = select(Room).options(selectinload(Room.seats))
        found = session.scalars(by_code.where(Room.code == key.strip().upper())).first()
    return found


def code_exists(*, session: Session, code: str) -> bool:
    return session.scalars(select(Room.id).where(Room.code == code)).first() is not None


def row_values(row: Base) -> dict[str, Any]:
    """A new (unsaved) row's column values, for a Core insert."""
    return {
        column.key: getattr(row, column.key)
        for column in row.__table__.columns
        if getattr(row, column.key) is not None
    }


# Run for every table opened (a rematch for every match played): built once
# (app/store/matches.py says why).
_ROOMS = table(Room)
_INSERT_ROOM = insert(_ROOMS)
_INSERT_SEATS = insert(table(Seat))
_REMATCHED = (
    update(_ROOMS).where(_ROOMS.c.id == bindparam("room")).values(rematch_id=bindparam("by"))
)


def insert_room(*, session: Session, room: Room, rematch_of: str | None = None) -> None:
    """A new room with its first seat holders, ``room.seats`` (and the link from the room
    it rematches). One transaction: a room never exists half-seated."""
    insert_room_rows(session.connection(), room, rematch_of)
    session.commit()


def insert_room_rows(connection: Connection, room: Room, rematch_of: str | None) -> None:
    """``insert_room``'s statements, in the caller's transaction."""
    connection.execute(_INSERT_ROOM, [row_values(room)])
    if room.seats:
        # Every row with every column: one statement takes them all alike.
        seats = [
            {
                "room_id": room.id,
                "seat": seat.seat,
                "user_id": seat.user_id,
                "bot": seat.bot,
                "name": seat.name,
                "stand_in_for": seat.stand_in_for,
                "stand_in_name": seat.stand_in_name,
            }
            for seat in room.seats
        ]
        connection.execute(_INSERT_SEATS, seats)
    if rematch_of is not None:
        connection.execute(_REMATCHED, {"room": rematch_of, "by": room.id})


def put_seat(
    *,
    session: Session,
    room_id: str,
    seat: int,
    holder: dict[str, Any],
    room_changes: dict[str, Any] | None = None,
) -> None:
    """Give a seat to a user or a computer player (taking it, or replacing its holder).

    ``holder`` has ``user_id``, ``bot``, ``name`` and, for a computer standing in for a
    person, ``stand_in_for`` and ``stand_in_name``. ``room_changes`` (the host, the clocks)
    are written to the room in the same transaction.
    """
    holder = {"stand_in_for": None, "stand_in_name": None, **holder}
    changed = session.execute(
        update(Seat).where(Seat.room_id == room_id, Seat.seat == seat).values(**holder)
    )
    if changed.rowcount == 0:  # type: ignore[attr-defined]
        session.execute(insert(Seat), [{"room_id": room_id, "seat": seat, **holder}])
    if room_changes:
        session.execute(update(Room).where(Room.id == room_id).values(**room_changes))
    session.commit()


def free_seat(*, session: Session, room_id: str, seat: int, new_host_id: str | None = None) -> None:
    """Free a seat; with ``new_host_id`` the host role passes on in the same transaction."""
    session.execute(delete(Seat).where(Seat.room_id == room_id, Seat.seat == seat))
    if new_host_id is not None:
        session.execute(update(Room).where(Room.id == room_id).values(host_id=new_host_id))
    session.commit()


def update_room(*, session: Session, room_id: str, changes: dict[str, Any]) -> None:
    """Change a room's own columns (its host, status or clocks)."""
    session.execute(update(Room).where(Room.id == room_id).values(**changes))
    if changes.get("status", "waiting") != "waiting":
        social.expire_invitations(session=session, room_id=room_id)
    session.commit()


def open_room_ids(*, session: Session) -> list[str]:
    """Rooms whose table is not over (waiting or playing) that a process must hold: every
    live one, and a turn-based one only while a computer is to move — no person awaited
    (its ``deadline`` is unset). The others are loaded when someone comes to them."""
    live = Room.pace != "turn_based"
    computer_to_move = and_(Room.status == "playing", Room.deadline.is_(None))
    return list(
        session.scalars(
            select(Room.id).where(
                Room.status.in_(("waiting", "playing")), or_(live, computer_to_move)
            )
        )
    )


def listed_room_ids(
    *, session: Session, viewer_id: str | None, game: str | None = None, limit: int = 100
) -> list[str]:
    """The open tables' candidates, newest first: public live rooms waiting or playing,
    public turn-based rooms waiting, and public turn-based rooms playing at which
    ``viewer_id`` sits (only ``game``'s, when given)."""
    turn_based_mine: ColumnElement[bool] = false()
    if viewer_id is not None:
        theirs = or_(Seat.user_id == viewer_id, Seat.stand_in_for == viewer_id)
        turn_based_mine = Room.id.in_(select(Seat.room_id).where(theirs))
    query = select(Room.id).where(
        Room.visibility == "public",
        or_(
            Room.pace != "turn_based",
            Room.status == "waiting",
            turn_based_mine,
        ),
        Room.status.in_(("waiting", "playing")),
    )
    if game:
        query = query.where(Room.game == game)
    return list(session.scalars(query.order_by(Room.created_at.desc()).limit(limit)))
