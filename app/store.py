"""Database reads and writes: every function is keyword-only and takes the session.

The rooms (app/rooms/) decide and call these through their storage
(app/rooms/storage.py); the routes read through them too. These functions only persist and
load. Events are appended by the event log (app/rooms/event_log.py), which groups them. Appending
an event relies on the unique ``(match_id, seq)`` constraint, so a concurrent double
submit or a second process acting on the same match fails cleanly with IntegrityError.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session, selectinload

from app.credit import seat_records
from app.models import (
    AuthSession,
    Base,
    ChatMessage,
    Match,
    MatchEvent,
    MatchPlayer,
    Rating,
    RatingChange,
    Room,
    Seat,
    User,
    utcnow,
)


def get_user(*, session: Session, user_id: str) -> User | None:
    return session.get(User, user_id)


def user_by_username_key(*, session: Session, key: str) -> User | None:
    return session.scalars(select(User).where(User.username_key == key)).first()


def users_by_id(*, session: Session, user_ids: set[str]) -> dict[str, User]:
    if not user_ids:
        return {}
    return {u.id: u for u in session.scalars(select(User).where(User.id.in_(user_ids)))}


# --- sessions: a signed-in browser each ----------------------------------------------------


def open_session(*, session: Session, session_id: str, user_id: str, expires_at: datetime) -> None:
    session.execute(
        insert(AuthSession),
        [{"id": session_id, "user_id": user_id, "expires_at": expires_at}],
    )


def session_user(
    *, session: Session, session_id: str, now: datetime
) -> tuple[AuthSession, User] | None:
    """The unexpired session ``session_id`` and its user."""
    row = session.execute(
        select(AuthSession, User)
        .join(User, User.id == AuthSession.user_id)
        .where(AuthSession.id == session_id, AuthSession.expires_at > now)
    ).first()
    return None if row is None else (row[0], row[1])


def extend_session(*, session: Session, session_id: str, expires_at: datetime) -> None:
    session.execute(
        update(AuthSession).where(AuthSession.id == session_id).values(expires_at=expires_at)
    )
    session.commit()


def close_session(*, session: Session, session_id: str) -> None:
    session.execute(delete(AuthSession).where(AuthSession.id == session_id))


def close_user_sessions(*, session: Session, user_id: str) -> int:
    """End every session of a user; how many there were."""
    ended = session.execute(delete(AuthSession).where(AuthSession.user_id == user_id))
    return int(ended.rowcount)  # type: ignore[attr-defined]


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
    unrate_match_id: str | None = None,
) -> None:
    """Give a seat to a user or a computer player (taking it, or replacing its holder).

    ``holder`` has ``user_id``, ``bot``, ``name`` and, for a computer standing in for a
    person, ``stand_in_for`` and ``stand_in_name``. ``room_changes`` (the host, the clocks)
    are written to the room in the same transaction; with ``unrate_match_id`` (a computer
    taking over a rated match) the match stops being rated too.
    """
    holder = {"stand_in_for": None, "stand_in_name": None, **holder}
    changed = session.execute(
        update(Seat).where(Seat.room_id == room_id, Seat.seat == seat).values(**holder)
    )
    if changed.rowcount == 0:  # type: ignore[attr-defined]
        session.execute(insert(Seat), [{"room_id": room_id, "seat": seat, **holder}])
    if room_changes:
        session.execute(update(Room).where(Room.id == room_id).values(**room_changes))
    if unrate_match_id is not None:
        session.execute(update(Match).where(Match.id == unrate_match_id).values(rated=False))
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
        update(Room)
        .where(Room.id == room_id)
        .values(status="abandoned", code=None, clock_state=clock_state)
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


@dataclass(frozen=True)
class MatchFilters:
    """What a history list asks for; ``result`` (won/lost) is of ``user_id``'s seat."""

    game: str | None = None
    user_id: str | None = None
    result: str | None = None
    since: datetime | None = None
    before: datetime | None = None


def match_visible_to(*, session: Session, match_id: str, viewer_id: str | None) -> bool:
    """Whether a match may be shown to ``viewer_id``: a public room's to anyone, a private
    room's only to the people who played it (never by comparing with a missing id, which
    would match the computers' seats)."""
    room = session.scalar(select(Room.visibility).where(Room.match_id == match_id))
    if room != "private":
        return True
    if viewer_id is None:
        return False
    played = select(MatchPlayer.match_id).where(
        MatchPlayer.match_id == match_id, MatchPlayer.user_id == viewer_id
    )
    return session.scalar(played) is not None


def finished_matches(
    *,
    session: Session,
    filters: MatchFilters,
    viewer_id: str | None,
    after: tuple[datetime, str] | None,
    limit: int,
) -> list[Match]:
    """Finished (and abandoned) matches, newest first (then by id): from public rooms, plus
    the viewer's own.

    With ``filters.user_id``, only that user's matches (the private ones only if the viewer
    is them). ``after`` is the (finished_at, id) of the last match of the previous page.
    """
    query = select(Match).where(Match.status.in_(("finished", "abandoned")))
    if filters.game:
        query = query.where(Match.game == filters.game)
    if filters.since is not None:
        query = query.where(Match.finished_at >= filters.since)
    if filters.before is not None:
        query = query.where(Match.finished_at < filters.before)
    public = select(Room.match_id).where(Room.visibility == "public", Room.match_id.is_not(None))
    if filters.user_id:
        theirs = select(MatchPlayer.match_id).where(MatchPlayer.user_id == filters.user_id)
        if filters.result is not None:
            theirs = theirs.where(MatchPlayer.won.is_(filters.result == "won"))
        query = query.where(Match.id.in_(theirs))
        if filters.user_id != viewer_id:
            query = query.where(Match.id.in_(public))
    elif viewer_id is None:
        # Nobody's own: a visitor without a session sees public matches only (comparing
        # with a missing id would match the computers' seats, whose user is NULL).
        query = query.where(Match.id.in_(public))
    else:
        mine = select(MatchPlayer.match_id).where(MatchPlayer.user_id == viewer_id)
        query = query.where(or_(Match.id.in_(mine), Match.id.in_(public)))
    if after is not None:
        at, match_id = after
        query = query.where(
            or_(Match.finished_at < at, and_(Match.finished_at == at, Match.id > match_id))
        )
    query = query.order_by(Match.finished_at.desc(), Match.id).limit(limit)
    return list(session.scalars(query))


def rating_changes_of(*, session: Session, match_ids: Sequence[str]) -> list[RatingChange]:
    if not match_ids:
        return []
    return list(
        session.scalars(
            select(RatingChange)
            .where(RatingChange.match_id.in_(match_ids))
            .order_by(RatingChange.match_id, RatingChange.seat)
        )
    )


def results_by_game(*, session: Session, user_id: str) -> list[tuple[str, int, int]]:
    """(game, finished matches played, won) for one user, every match counted."""
    rows = session.execute(
        select(Match.game, func.count(), func.count().filter(MatchPlayer.won.is_(True)))
        .join(MatchPlayer, MatchPlayer.match_id == Match.id)
        .where(MatchPlayer.user_id == user_id, Match.status == "finished")
        .group_by(Match.game)
        .order_by(Match.game)
    ).all()
    return [(game, int(played), int(won)) for game, played, won in rows]


def ratings_of(*, session: Session, user_id: str) -> list[Rating]:
    return list(
        session.scalars(select(Rating).where(Rating.user_id == user_id).order_by(Rating.game))
    )


def rating_history(*, session: Session, user_id: str) -> list[RatingChange]:
    return list(
        session.scalars(
            select(RatingChange)
            .where(RatingChange.user_id == user_id)
            .order_by(RatingChange.at, RatingChange.id)
        )
    )


def leaderboard(*, session: Session, game: str, limit: int) -> list[tuple[Rating, str]]:
    """The best rated accounts in ``game``: (rating row, username), best first."""
    rows = session.execute(
        select(Rating, User.username)
        .join(User, User.id == Rating.user_id)
        .where(Rating.game == game, Rating.matches > 0, User.username.is_not(None))
        .order_by(Rating.rating.desc(), Rating.mu.desc(), User.username)
        .limit(limit)
    ).all()
    return [(rating, str(username)) for rating, username in rows]


# --- table talk -------------------------------------------------------------------------


def add_chat(*, session: Session, message: ChatMessage) -> ChatMessage | None:
    """Store a chat line. A watcher's line (no ``name``) is signed with the speaker's name
    as it is now; None when the speaker is unknown (nothing is written then)."""
    if not message.name:
        user = session.get(User, message.user_id)
        if user is None:
            return None
        message.name = user.name
    session.add(message)
    session.commit()
    return message


def recent_chat(*, session: Session, room_id: str, channel: str, limit: int) -> list[ChatMessage]:
    """A channel's last ``limit`` lines in a room, oldest first."""
    newest = session.scalars(
        select(ChatMessage)
        .where(ChatMessage.room_id == room_id, ChatMessage.channel == channel)
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    )
    return list(reversed(list(newest)))


def match_chat(*, session: Session, match_id: str) -> list[ChatMessage]:
    """Everything said while a match was on and after it, in order (its review)."""
    return list(
        session.scalars(
            select(ChatMessage).where(ChatMessage.match_id == match_id).order_by(ChatMessage.id)
        )
    )


def set_muted(*, session: Session, room_id: str, muted: list[str], person: str) -> bool:
    """The room's muted people become ``muted``, which names ``person`` or not; False (and
    nothing written) when no such person exists."""
    if session.get(User, person) is None:
        return False
    session.execute(update(Room).where(Room.id == room_id).values(muted=muted))
    session.commit()
    return True


def set_watchers_chat(*, session: Session, room_id: str, on: bool) -> None:
    session.execute(update(Room).where(Room.id == room_id).values(watchers_chat=on))
    session.commit()
