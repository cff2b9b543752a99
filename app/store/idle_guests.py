"""Idle guests removed: guests nobody has used for a long time and who left no record.

A guest is idle when none of its sessions has been used since ``idle_since`` (and it was
made before then). It is removed only if nothing worth keeping names it: it played no
match (the match records, ratings and histories name their players), and it has been at
no table but closed ones — tables that never started, hence have no match, no review and
no one at them any more. Removing it removes its sessions, its seats and chat lines at
those closed tables, and the closed tables it hosted (with their seats and lines), since a
table cannot be without its host.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, exists, or_, select, update
from sqlalchemy.orm import Session

from app.models import AuthSession, ChatMessage, MatchPlayer, Rating, RatingChange, Room, Seat, User

CLOSED = "closed"  # a table that never started and has no one at it (app/rooms/lobby.py)


def idle_guest_ids(*, session: Session, idle_since: datetime, limit: int) -> list[str]:
    """Up to ``limit`` guests that may be removed (see the module's docstring)."""
    used = select(AuthSession.id).where(
        AuthSession.user_id == User.id, AuthSession.used_at >= idle_since
    )
    played = select(MatchPlayer.id).where(MatchPlayer.user_id == User.id)
    rated = select(RatingChange.id).where(RatingChange.user_id == User.id)
    has_rating = select(Rating.game).where(Rating.user_id == User.id)
    hosts = select(Room.id).where(Room.host_id == User.id, Room.status != CLOSED)
    sits = (
        select(Seat.id)
        .join(Room, Room.id == Seat.room_id)
        .where(or_(Seat.user_id == User.id, Seat.stand_in_for == User.id), Room.status != CLOSED)
    )
    spoke = (
        select(ChatMessage.id)
        .join(Room, Room.id == ChatMessage.room_id)
        .where(ChatMessage.user_id == User.id, Room.status != CLOSED)
    )
    kept = [used, played, rated, has_rating, hosts, sits, spoke]
    query = (
        select(User.id)
        .where(User.username.is_(None), User.created_at < idle_since)
        .where(*(~exists(reason) for reason in kept))
        .order_by(User.created_at)
        .limit(limit)
    )
    return list(session.scalars(query))


def remove_guests(*, session: Session, user_ids: list[str]) -> int:
    """Remove the guests ``user_ids`` (from ``idle_guest_ids``) and what only they need;
    one transaction. How many were removed."""
    if not user_ids:
        return 0
    hosted = list(
        session.scalars(select(Room.id).where(Room.host_id.in_(user_ids), Room.status == CLOSED))
    )
    if hosted:
        # A finished table may offer its rematch at one of these: it offers none now.
        session.execute(update(Room).where(Room.rematch_id.in_(hosted)).values(rematch_id=None))
        session.execute(delete(ChatMessage).where(ChatMessage.room_id.in_(hosted)))
        session.execute(delete(Seat).where(Seat.room_id.in_(hosted)))
        session.execute(delete(Room).where(Room.id.in_(hosted)))
    session.execute(
        delete(Seat).where(or_(Seat.user_id.in_(user_ids), Seat.stand_in_for.in_(user_ids)))
    )
    session.execute(delete(ChatMessage).where(ChatMessage.user_id.in_(user_ids)))
    session.execute(delete(AuthSession).where(AuthSession.user_id.in_(user_ids)))
    removed = session.execute(delete(User).where(User.id.in_(user_ids)))
    session.commit()
    return int(removed.rowcount)  # type: ignore[attr-defined]
