"""Reports, moderators, site-wide sanctions and the moderators' audit log: their SQL.

Used as a module by app/moderation/ (and the routes and checks that ask whether someone
is banned or muted). Times are naive UTC, as everywhere in the database.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, delete, func, or_, select, update
from sqlalchemy.orm import Session

from app.models import (
    ChatMessage,
    Match,
    MatchPlayer,
    ModerationEntry,
    Moderator,
    Report,
    Sanction,
    User,
)

# --- moderators --------------------------------------------------------------------------


def is_moderator(*, session: Session, user_id: str) -> bool:
    return session.get(Moderator, user_id) is not None


def grant_moderator(*, session: Session, user_id: str, at: datetime) -> bool:
    """Make the account a moderator; False when it already was (nothing written)."""
    if session.get(Moderator, user_id) is not None:
        return False
    session.add(Moderator(user_id=user_id, granted_at=at))
    return True


def revoke_moderator(*, session: Session, user_id: str) -> bool:
    """The account is a moderator no more; False when it was not one."""
    ended = session.execute(delete(Moderator).where(Moderator.user_id == user_id))
    return bool(ended.rowcount)  # type: ignore[attr-defined]


# --- sanctions -----------------------------------------------------------------------------


def _in_force(now: datetime) -> ColumnElement[bool]:
    return or_(Sanction.until.is_(None), Sanction.until > now)


def sanction_of(*, session: Session, user_id: str, kind: str, now: datetime) -> Sanction | None:
    """The person's ban or site-wide mute in force now (None: none)."""
    return session.scalars(
        select(Sanction).where(Sanction.user_id == user_id, Sanction.kind == kind, _in_force(now))
    ).first()


def sanctions_of(*, session: Session, user_id: str, now: datetime) -> list[Sanction]:
    """Every sanction of the person in force now."""
    return list(
        session.scalars(
            select(Sanction)
            .where(Sanction.user_id == user_id, _in_force(now))
            .order_by(Sanction.kind)
        )
    )


def bans_in_force(*, session: Session, now: datetime) -> list[Sanction]:
    """Every ban in force now (a new guest is checked against their marks)."""
    return list(session.scalars(select(Sanction).where(Sanction.kind == "ban", _in_force(now))))


def bans_among(*, session: Session, user_ids: set[str], now: datetime) -> list[Sanction]:
    """The bans in force now of these people."""
    if not user_ids:
        return []
    found = select(Sanction).where(
        Sanction.kind == "ban", Sanction.user_id.in_(user_ids), _in_force(now)
    )
    return list(session.scalars(found))


def put_sanction(*, session: Session, sanction: Sanction) -> None:
    """Set the person's sanction of that kind (replacing the one before)."""
    session.merge(sanction)


def lift_sanction(*, session: Session, user_id: str, kind: str) -> bool:
    """End the person's sanction of that kind; False when there was none."""
    ended = session.execute(
        delete(Sanction).where(Sanction.user_id == user_id, Sanction.kind == kind)
    )
    return bool(ended.rowcount)  # type: ignore[attr-defined]


# --- reports -------------------------------------------------------------------------------


def reports_since(*, session: Session, reporter_id: str, since: datetime) -> int:
    """How many reports the person sent since then (the flood limit)."""
    counted = select(func.count(Report.id)).where(
        Report.reporter_id == reporter_id, Report.created_at >= since
    )
    return int(session.scalar(counted) or 0)


def report_queue(*, session: Session, status: str, limit: int) -> list[Report]:
    """Reports of a status, oldest first (the queue is worked from its oldest)."""
    return list(
        session.scalars(
            select(Report).where(Report.status == status).order_by(Report.id).limit(limit)
        )
    )


def reports_about(*, session: Session, user_id: str, limit: int) -> list[Report]:
    """The latest reports about a person, newest first."""
    return list(
        session.scalars(
            select(Report)
            .where(Report.reported_id == user_id)
            .order_by(Report.id.desc())
            .limit(limit)
        )
    )


def existing_lines(*, session: Session, chat_ids: set[int]) -> set[int]:
    """Which of these chat lines are still stored (not deleted by a moderator)."""
    if not chat_ids:
        return set()
    found = session.scalars(select(ChatMessage.id).where(ChatMessage.id.in_(chat_ids)))
    return set(found)


def handle_reports(
    *, session: Session, report_ids: list[int], status: str, by: str, at: datetime
) -> int:
    """Close open reports as ``resolved`` or ``dismissed``; how many were open."""
    if not report_ids:
        return 0
    done = session.execute(
        update(Report)
        .where(Report.id.in_(report_ids), Report.status == "open")
        .values(status=status, handled_by=by, handled_at=at)
    )
    return int(done.rowcount)  # type: ignore[attr-defined]


# --- what a person said and played --------------------------------------------------------


def chat_line(*, session: Session, chat_id: int) -> ChatMessage | None:
    return session.get(ChatMessage, chat_id)


def lines_of(
    *, session: Session, user_id: str, limit: int, room_id: str | None = None
) -> list[ChatMessage]:
    """A person's latest chat lines (at one room, or anywhere), newest first."""
    query = select(ChatMessage).where(ChatMessage.user_id == user_id)
    if room_id is not None:
        query = query.where(ChatMessage.room_id == room_id)
    return list(session.scalars(query.order_by(ChatMessage.id.desc()).limit(limit)))


def delete_chat_line(*, session: Session, chat_id: int) -> None:
    session.execute(delete(ChatMessage).where(ChatMessage.id == chat_id))


def matches_of(*, session: Session, user_id: str, limit: int) -> list[Match]:
    """A person's latest matches (finished or not), newest first."""
    played = select(MatchPlayer.match_id).where(MatchPlayer.user_id == user_id)
    return list(
        session.scalars(
            select(Match)
            .where(Match.id.in_(played))
            .order_by(Match.created_at.desc(), Match.id)
            .limit(limit)
        )
    )


# --- the audit log -------------------------------------------------------------------------


def record(*, session: Session, entry: ModerationEntry) -> None:
    """Add an action to the audit log (in the action's own transaction)."""
    session.add(entry)


def log_entries(
    *, session: Session, limit: int, before: int | None = None, target_id: str | None = None
) -> list[ModerationEntry]:
    """The audit log, newest first; ``before`` an entry id, for the next page."""
    query = select(ModerationEntry)
    if before is not None:
        query = query.where(ModerationEntry.id < before)
    if target_id is not None:
        query = query.where(ModerationEntry.target_id == target_id)
    return list(session.scalars(query.order_by(ModerationEntry.id.desc()).limit(limit)))


def names_of(*, session: Session, user_ids: set[str]) -> dict[str, str]:
    """Each person's username (or, for a guest, name)."""
    ids = {i for i in user_ids if i}
    if not ids:
        return {}
    rows = session.execute(select(User.id, User.username, User.name).where(User.id.in_(ids)))
    return {user_id: username or name for user_id, username, name in rows}
