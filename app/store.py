"""Database reads and writes: every function is keyword-only and takes the session.

The rooms (app/rooms/) decide and call these through their storage
(app/rooms/storage.py); the routes read through them too. These functions only persist and
load. Events are appended by the event log (app/rooms/event_log.py), which groups them. Appending
an event relies on the unique ``(match_id, seq)`` constraint, so a concurrent double
submit or a second process acting on the same match fails cleanly with IntegrityError.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, insert, or_, select, update
from sqlalchemy.orm import Session, selectinload

from app.credit import seat_records
from app.models import Base, Match, MatchEvent, MatchPlayer, Room, Seat, User, utcnow


def get_user(*, session: Session, user_id: str) -> User | None:
    return session.get(User, user_id)


def save_user(*, session: Session, user_id: str, name: str) -> User:
    user = session.get(User, user_id)
    if user is None:
        user = User(id=user_id, name=name)
        session.add(user)
    else:
        user.name = name
    session.commit()
    return user


def load_room(*, session: Session, room_id: str) -> Room | None:
    return session.scalars(
        select(Room).options(selectinload(Room.seats)).where(Room.id == room_id)
    ).first()


def find_room_id_by_code(*, session: Session, code: str) -> str | None:
    return session.scalars(select(Room.id).where(Room.code == code.upper())).first()


def code_exists(*, session: Session, code: str) -> bool:
    return session.scalars(select(Room.id).where(Room.code == code)).first() is not None


def _values(row: Base) -> dict[str, Any]:
    """A new (unsaved) row's column values, for a Core insert."""
    return {
        column.key: getattr(row, column.key)
        for column in row.__table__.columns
        if getattr(row, column.key) is not None
    }


# The writes below use Core statements in the session's transaction, not the ORM's unit of
# work: a new room or match is written once per match, and the ORM's bookkeeping cost
# several times the statements themselves.


def insert_room(*, session: Session, room: Room, rematch_of: str | None = None) -> None:
    """A new room with its first seat holders, ``room.seats`` (and the link from the room
    it rematches). One transaction: a room never exists half-seated."""
    session.execute(insert(Room), [_values(room)])
    if room.seats:
        seats = [{**_values(seat), "room_id": room.id} for seat in room.seats]
        session.execute(insert(Seat), seats)
    if rematch_of is not None:
        session.execute(update(Room).where(Room.id == rematch_of).values(rematch_id=room.id))
    session.commit()


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
    session.commit()


def start_match(
    *,
    session: Session,
    room_id: str,
    match: Match,
    user_ids: Sequence[str | None],
    clock_state: dict[str, Any] | None,
) -> None:
    """Create the match, who sat where, and mark the room playing: one transaction."""
    session.execute(insert(Match), [_values(match)])
    session.execute(
        insert(MatchPlayer),
        [{"match_id": match.id, "seat": seat, "user_id": uid} for seat, uid in enumerate(user_ids)],
    )
    session.execute(
        update(Room)
        .where(Room.id == room_id)
        .values(status="playing", match_id=match.id, clock_state=clock_state)
    )
    session.commit()


def end_match(
    *,
    connection: Connection,
    match_id: str,
    status: str,
    scores: list[int],
    winners: list[int],
    finished_at: datetime | None = None,
) -> None:
    """Record a match's end, with who played which moves of each seat (app/credit.py).

    Runs in the caller's transaction: the event log's, with the last event.
    """
    players = connection.execute(select(Match.players).where(Match.id == match_id)).scalar_one()
    moves = connection.execute(
        select(MatchEvent.seq, MatchEvent.seat, MatchEvent.played_by, MatchEvent.timeout).where(
            MatchEvent.match_id == match_id
        )
    )
    connection.execute(
        update(Match)
        .where(Match.id == match_id)
        .values(
            status=status,
            scores=scores,
            winners=winners,
            players=seat_records(players, [tuple(row) for row in moves]),
            finished_at=finished_at or utcnow(),
        )
    )


def abandon_match(
    *,
    session: Session,
    room_id: str,
    match_id: str,
    scores: list[int],
    clock_state: dict[str, Any] | None,
) -> None:
    """End a match nobody stayed for: kept with its log, marked ``abandoned``."""
    end_match(
        connection=session.connection(),
        match_id=match_id,
        status="abandoned",
        scores=scores,
        winners=[],
    )
    session.execute(
        update(Room).where(Room.id == room_id).values(status="abandoned", clock_state=clock_state)
    )
    session.commit()


def load_match(*, session: Session, match_id: str) -> Match | None:
    return session.get(Match, match_id)


def load_events(*, session: Session, match_id: str) -> list[MatchEvent]:
    return list(
        session.scalars(
            select(MatchEvent).where(MatchEvent.match_id == match_id).order_by(MatchEvent.seq)
        )
    )


def open_room_ids(*, session: Session) -> list[str]:
    """Rooms whose table is not over: waiting or playing."""
    return list(session.scalars(select(Room.id).where(Room.status.in_(("waiting", "playing")))))


def public_room_ids(*, session: Session, game: str | None = None, limit: int = 100) -> list[str]:
    """Public rooms waiting or playing, newest first (of one game, with ``game``)."""
    query = select(Room.id).where(
        Room.visibility == "public", Room.status.in_(("waiting", "playing"))
    )
    if game:
        query = query.where(Room.game == game)
    return list(session.scalars(query.order_by(Room.created_at.desc()).limit(limit)))


def finished_matches(
    *,
    session: Session,
    game: str | None,
    user_id: str | None,
    viewer_id: str | None,
    limit: int,
) -> list[Match]:
    """Finished (and abandoned) matches, newest first: from public rooms, plus the
    viewer's own.

    With ``user_id``, only that user's matches (the private ones only if the viewer is them).
    """
    query = select(Match).where(Match.status.in_(("finished", "abandoned")))
    if game:
        query = query.where(Match.game == game)
    mine = select(MatchPlayer.match_id).where(MatchPlayer.user_id == viewer_id)
    public = select(Room.match_id).where(Room.visibility == "public", Room.match_id.is_not(None))
    if user_id:
        theirs = select(MatchPlayer.match_id).where(MatchPlayer.user_id == user_id)
        query = query.where(Match.id.in_(theirs))
        if user_id != viewer_id:
            query = query.where(Match.id.in_(public))
    else:
        query = query.where(or_(Match.id.in_(public), Match.id.in_(mine)))
    query = query.order_by(Match.finished_at.desc(), Match.id).limit(limit)
    return list(session.scalars(query))
