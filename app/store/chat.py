"""Table talk: chat lines kept per room and match, and the host's chat settings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.models import (
    ChatMessage,
    Room,
    User,
)
from app.store.people import origins_mark


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


def recent_messages(
    *, session: Session, room_id: str, channels: Sequence[str], limit: int
) -> list[ChatMessage]:
    """The last ``limit`` lines of each of a room's ``channels``."""
    return [
        message
        for channel in channels
        for message in recent_chat(session=session, room_id=room_id, channel=channel, limit=limit)
    ]


def match_chat(*, session: Session, match_id: str) -> list[ChatMessage]:
    """Everything said while a match was on and after it, in order (its review)."""
    return list(
        session.scalars(
            select(ChatMessage).where(ChatMessage.match_id == match_id).order_by(ChatMessage.id)
        )
    )


def set_muted(
    *,
    session: Session,
    room_id: str,
    muted: list[str],
    person: str,
    marks: dict[str, Any],
    at: datetime | None,
) -> dict[str, Any] | None:
    """The room's muted people become ``muted``, which names ``person`` or not, and its
    mute marks become ``marks`` plus, when ``person`` is muted ``at`` that time, where
    their sessions were opened. The marks written; None (and nothing written) when no
    such person exists."""
    if session.get(User, person) is None:
        return None
    marks = {user_id: mark for user_id, mark in marks.items() if user_id != person}
    if at is not None:
        marks[person] = origins_mark(session=session, user_id=person, at=at)
    session.execute(update(Room).where(Room.id == room_id).values(muted=muted, mute_marks=marks))
    session.commit()
    return marks


def set_watchers_chat(*, session: Session, room_id: str, on: bool) -> None:
    session.execute(update(Room).where(Room.id == room_id).values(watchers_chat=on))
    session.commit()
