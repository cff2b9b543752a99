"""Each account's notification settings: the channels, the events, and each channel's
state (an address's confirmation, the last e-mail's time, a webhook's failures)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from app.models import NotificationSettings

EMAIL_FLAGS = ("email_turns", "email_reminders", "email_endings")


def notification_settings(*, session: Session, user_id: str) -> NotificationSettings | None:
    return session.get(NotificationSettings, user_id)


def settings_of(*, session: Session, user_ids: set[str]) -> dict[str, NotificationSettings]:
    if not user_ids:
        return {}
    query = select(NotificationSettings).where(NotificationSettings.user_id.in_(user_ids))
    return {row.user_id: row for row in session.scalars(query)}


def save_notification_settings(
    *, session: Session, user_id: str, changes: dict[str, Any]
) -> NotificationSettings:
    """Set the given columns of the account's row (made with the defaults if it has none)."""
    row = session.get(NotificationSettings, user_id)
    if row is None:
        row = NotificationSettings(user_id=user_id)
        session.add(row)
    for name, value in changes.items():
        setattr(row, name, value)
    session.flush()
    return row


def confirm_email(*, session: Session, user_id: str, email: str, now: datetime) -> bool:
    """Mark the account's address confirmed, if it is still ``email``."""
    result = session.execute(
        update(NotificationSettings)
        .where(NotificationSettings.user_id == user_id, NotificationSettings.email == email)
        .values(email_confirmed_at=now)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def unsubscribe_email(*, session: Session, user_id: str, email: str) -> bool:
    """Turn every e-mail off for the account, if its address is still ``email``."""
    result = session.execute(
        update(NotificationSettings)
        .where(NotificationSettings.user_id == user_id, NotificationSettings.email == email)
        .values(**dict.fromkeys(EMAIL_FLAGS, False))
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def take_email_slot(
    *, session: Session, user_id: str, now: datetime, interval: timedelta
) -> tuple[bool, datetime | None]:
    """Claim the right to e-mail the person now: granted when their last e-mail is at least
    ``interval`` old (one compare-and-set, so two processes never both get it). Returns
    whether it was granted and when the last e-mail went (to give the slot back, or to say
    when the next one may go)."""
    row = session.get(NotificationSettings, user_id)
    last = row.email_sent_at if row is not None else None
    result = session.execute(
        update(NotificationSettings)
        .where(
            NotificationSettings.user_id == user_id,
            or_(
                NotificationSettings.email_sent_at.is_(None),
                NotificationSettings.email_sent_at <= now - interval,
            ),
        )
        .values(email_sent_at=now)
    )
    return bool(result.rowcount), last  # type: ignore[attr-defined]


def give_back_email_slot(
    *, session: Session, user_id: str, taken_at: datetime, last: datetime | None
) -> None:
    """Nothing was sent after all: the last e-mail is the one before again."""
    session.execute(
        update(NotificationSettings)
        .where(
            NotificationSettings.user_id == user_id,
            NotificationSettings.email_sent_at == taken_at,
        )
        .values(email_sent_at=last)
    )


def webhook_delivered(*, session: Session, user_id: str) -> None:
    session.execute(
        update(NotificationSettings)
        .where(NotificationSettings.user_id == user_id, NotificationSettings.webhook_failures > 0)
        .values(webhook_failures=0)
    )


def webhook_failed(*, session: Session, user_id: str, limit: int, note: str) -> bool:
    """Count a failed delivery; past ``limit`` in a row the webhook is disabled with
    ``note``. Returns whether it is disabled now."""
    row = session.get(NotificationSettings, user_id, with_for_update=True)
    if row is None:
        return True
    row.webhook_failures += 1
    if row.webhook_failures >= limit and row.webhook_disabled_note is None:
        row.webhook_disabled_note = note
    session.flush()
    return row.webhook_disabled_note is not None
