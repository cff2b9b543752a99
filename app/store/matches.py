"""Matches: starting, finishing and abandoning them, their event logs, and the history
of finished matches (filtered, paged, and private ones kept to their players)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    bindparam,
    exists,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session

from app.models import (
    Match,
    MatchEvent,
    MatchPlayer,
    Room,
    Seat,
    table,
    utcnow,
)
from app.store import social
from app.store.credit import seat_records
from app.store.rooms import insert_room_rows, row_values

# The statements of every match's start and end, built once: a statement built anew for
# each call costs more of the writing thread's time than running it (its construction, and
# the lookup of its compiled form by a key made from it).
_MATCHES, _PLAYERS, _ROOMS = table(Match), table(MatchPlayer), table(Room)
_INSERT_MATCH = insert(_MATCHES)
_INSERT_PLAYERS = insert(_PLAYERS)
_ROOM_PLAYING = (
    update(_ROOMS)
    .where(_ROOMS.c.id == bindparam("room"))
    .values(status="playing", match_id=bindparam("match"), clock_state=bindparam("clocks"))
)
# One row per seat a computer stands in for now (one row with no seat when none is), each
# with the match's seats as written at its start, and whether any of its moves was made by
# a computer or by the clock: only then does who played which move need the whole log. The
# seats as they are now: a stand-in and a seat taken back are written under the room's
# lock, which whatever ends the match holds until this commits.
_PLAYERS_IRREGULAR_STOOD_IN = (
    select(
        Match.players,
        exists().where(
            MatchEvent.match_id == Match.id,
            or_(
                MatchEvent.timeout.is_(True),
                MatchEvent.played_by["bot"].as_string().is_not(None),
            ),
        ),
        Seat.seat,
    )
    .select_from(Match)
    .outerjoin(Seat, and_(Seat.room_id == Match.room_id, Seat.stand_in_for.is_not(None)))
    .where(Match.id == bindparam("match"))
)
_MOVES = select(MatchEvent.seq, MatchEvent.seat, MatchEvent.played_by, MatchEvent.timeout).where(
    MatchEvent.match_id == bindparam("match")
)
_END = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("match"))
    .values(
        status=bindparam("new_status"),
        scores=bindparam("new_scores"),
        winners=bindparam("new_winners"),
        players=bindparam("new_players"),
        finished_at=bindparam("new_finished_at"),
    )
)


def start_match(
    *,
    session: Session,
    room_id: str,
    match: Match,
    user_ids: Sequence[str | None],
    clock_state: dict[str, Any] | None,
    room_changes: dict[str, Any] | None = None,
) -> None:
    """Create the match, who sat where, and mark the room playing: one transaction.
    ``room_changes``: more of the room's columns (a turn-based table's deadline)."""
    connection = session.connection()
    _insert_match(connection, match, user_ids)
    connection.execute(_ROOM_PLAYING, {"room": room_id, "match": match.id, "clocks": clock_state})
    if room_changes:
        connection.execute(update(_ROOMS).where(_ROOMS.c.id == room_id).values(**room_changes))
    social.expire_invitations(session=session, room_id=room_id)
    session.commit()


def open_begun_rematch(
    *,
    session: Session,
    room: Room,
    rematch_of: str,
    match: Match,
    user_ids: Sequence[str | None],
) -> None:
    """A rematch room stored with its match begun (``room`` playing ``match`` already),
    its seats, who sat where, and the link from the room it rematches: one transaction.
    Nobody can have been invited to a room that did not exist: no invitation expires."""
    connection = session.connection()
    _insert_match(connection, match, user_ids)  # first: the room's row names it
    insert_room_rows(connection, room, rematch_of)
    session.commit()


def _insert_match(connection: Connection, match: Match, user_ids: Sequence[str | None]) -> None:
    connection.execute(_INSERT_MATCH, [row_values(match)])
    connection.execute(
        _INSERT_PLAYERS,
        [{"match_id": match.id, "seat": seat, "user_id": uid} for seat, uid in enumerate(user_ids)],
    )


def end_match(
    *,
    connection: Connection,
    match_id: str,
    status: str,
    scores: list[int],
    winners: list[int],
    finished_at: datetime | None = None,
    ran_out: Collection[int] = (),
) -> None:
    """Record a match's end, with who played which moves of each seat and whose seat a
    computer was standing in for at the end (app/store/credit.py). ``ran_out``: the seats
    whose person's time ran out at a turn-based table whose match was claimed; they left
    it too, as someone replaced by a computer did.

    Runs in the caller's transaction: the event log's, with the last event.
    """
    rows = connection.execute(_PLAYERS_IRREGULAR_STOOD_IN, {"match": match_id}).all()
    players, irregular = rows[0][0], rows[0][1]
    stood_in = {seat for _, _, seat in rows if seat is not None}
    # Moves all made by the seats' own people, none by the clock, credit nobody else: the
    # log is read only when one was not.
    moves = (
        [tuple(row) for row in connection.execute(_MOVES, {"match": match_id})] if irregular else []
    )
    connection.execute(
        _END,
        {
            "match": match_id,
            "new_status": status,
            "new_scores": scores,
            "new_winners": winners,
            "new_players": seat_records(players, moves, stood_in | set(ran_out)),
            "new_finished_at": finished_at or utcnow(),
        },
    )


def abandon_match(
    *,
    session: Session,
    room_id: str,
    match_id: str,
    scores: list[int],
    clock_state: dict[str, Any] | None,
    closed_by: str | None = None,
) -> None:
    """End a match nobody stayed for (or a moderator stopped: ``closed_by``): kept with its
    log, marked ``abandoned``."""
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
        .values(status="abandoned", code=None, clock_state=clock_state, closed_by=closed_by)
    )
    session.commit()


def load_match(*, session: Session, match_id: str) -> Match | None:
    return session.get(Match, match_id)


def load_event(*, session: Session, match_id: str, seq: int) -> MatchEvent | None:
    """The match's event at ``seq``, if it has one."""
    return session.scalars(
        select(MatchEvent).where(MatchEvent.match_id == match_id, MatchEvent.seq == seq)
    ).first()


def load_events(*, session: Session, match_id: str) -> list[MatchEvent]:
    return list(
        session.scalars(
            select(MatchEvent).where(MatchEvent.match_id == match_id).order_by(MatchEvent.seq)
        )
    )


@dataclass(frozen=True)
class MatchFilters:
    """What a history list asks for; ``result`` (won/lost) is of ``user_id``'s seat."""

    game: str | None = None
    user_id: str | None = None
    result: str | None = None
    since: datetime | None = None
    before: datetime | None = None


def visible_to(viewer_id: str | None) -> ColumnElement[bool]:
    """The one rule for who may see a match, as a condition on ``Match.id``: a match is
    shown to anyone unless its room is private, and a private room's only to the people
    who played it (never by comparing with a missing id, which would match the computers'
    seats, whose user is NULL). Every listing and every single match follows it."""
    private = select(Room.match_id).where(Room.visibility == "private", Room.match_id.is_not(None))
    shown = Match.id.not_in(private)
    if viewer_id is None:
        return shown
    played = select(MatchPlayer.match_id).where(MatchPlayer.user_id == viewer_id)
    return or_(shown, Match.id.in_(played))


def match_visible_to(*, session: Session, match_id: str, viewer_id: str | None) -> bool:
    """Whether the match ``match_id`` may be shown to ``viewer_id`` (``visible_to``)."""
    found = select(Match.id).where(Match.id == match_id, visible_to(viewer_id))
    return session.scalar(found) is not None


def finished_matches(
    *,
    session: Session,
    filters: MatchFilters,
    viewer_id: str | None,
    after: tuple[datetime, str] | None,
    limit: int,
) -> list[Match]:
    """Finished (and abandoned) matches the viewer may see (``visible_to``), newest first
    (then by id).

    With ``filters.user_id``, only that user's matches (a private one only if the viewer
    played it too). ``after`` is the (finished_at, id) of the last match of the previous
    page.
    """
    query = select(Match).where(Match.status.in_(("finished", "abandoned")))
    if filters.game:
        query = query.where(Match.game == filters.game)
    if filters.since is not None:
        query = query.where(Match.finished_at >= filters.since)
    if filters.before is not None:
        query = query.where(Match.finished_at < filters.before)
    if filters.user_id:
        theirs = select(MatchPlayer.match_id).where(MatchPlayer.user_id == filters.user_id)
        if filters.result is not None:
            theirs = theirs.where(MatchPlayer.won.is_(filters.result == "won"))
        query = query.where(Match.id.in_(theirs))
    query = query.where(visible_to(viewer_id))
    if after is not None:
        at, match_id = after
        query = query.where(
            or_(Match.finished_at < at, and_(Match.finished_at == at, Match.id > match_id))
        )
    query = query.order_by(Match.finished_at.desc(), Match.id).limit(limit)
    return list(session.scalars(query))
