"""An account's notification settings as the API shows and changes them.

Setting an address (a new one) makes it unconfirmed and queues its confirmation link;
until the link is followed nothing else is sent to it (EMAIL_CONFIRMATION=off, outside
production: confirmed at once). Saving a webhook URL — even the same one — turns a
disabled webhook back on and clears its count of failures; the first one saved gets the
secret its bodies are signed with.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.i18n.marks import N_, Worded
from app.models import NotificationSettings
from app.notifications.webhooks import new_secret
from app.notifications.wording import CONFIRM
from app.store import notification_settings as settings_store
from app.store import outbox as outbox_store

FLAGS = tuple(
    f"{channel}_{event}"
    for channel in ("email", "webhook", "push")
    for event in ("turns", "reminders", "endings")
)
MAX_EMAIL = 254
EMAIL_SHAPE = re.compile(r"[^@\s<>,;\"']+@[^@\s<>,;\"']+\.[^@\s<>,;\"'.][^@\s<>,;\"']*")


class BadEmail(Worded):
    pass


def clean_email(text: str) -> str:
    """The address, trimmed; BadEmail saying why it cannot be one."""
    email = text.strip()
    if not email:
        raise BadEmail(N_("Give an e-mail address, or null to remove it."))
    if len(email) > MAX_EMAIL:
        raise BadEmail(N_("An e-mail address has at most {most} characters."), most=MAX_EMAIL)
    if any(unicodedata.category(ch).startswith("C") for ch in email):
        raise BadEmail(N_("The e-mail address has characters that cannot be in one."))
    if not EMAIL_SHAPE.fullmatch(email):
        raise BadEmail(N_("That is not an e-mail address (name@example.org)."))
    return email


def describe(
    row: NotificationSettings | None, *, confirmation: bool, email_available: bool
) -> dict[str, Any]:
    """What ``GET /api/me/notifications`` answers."""
    row = row or NotificationSettings(user_id="")
    flags = {flag: getattr(row, flag) is not False for flag in FLAGS}
    return {
        "email": row.email,
        "email_confirmed": bool(row.email)
        and (row.email_confirmed_at is not None or not confirmation),
        "email_available": email_available,
        "webhook_url": row.webhook_url,
        "webhook_secret": row.webhook_secret if row.webhook_url else None,
        "webhook_disabled": row.webhook_disabled_note is not None,
        "webhook_note": row.webhook_disabled_note,
        **flags,
    }


def change(
    session: Session,
    *,
    user_id: str,
    fields: dict[str, Any],
    now: datetime,
    confirmation: bool,
    email_available: bool,
) -> dict[str, Any]:
    """Apply the fields given (already checked), queue a confirmation link for a new
    address, commit; the settings as described."""
    row = settings_store.notification_settings(session=session, user_id=user_id)
    changes: dict[str, Any] = {flag: fields[flag] for flag in FLAGS if fields.get(flag) is not None}
    if "email" in fields and fields["email"] != (row.email if row else None):
        email = fields["email"]
        changes.update(email=email, email_confirmed_at=None if confirmation else now)
        outbox_store.drop_pending(session=session, user_id=user_id, channel="email")
        if email and confirmation and email_available:
            outbox_store.add_outbox_items(
                session=session,
                items=[
                    {
                        "user_id": user_id,
                        "channel": "email",
                        "kind": CONFIRM,
                        "details": {"email": email},
                        "created_at": now,
                        "due_at": now,
                    }
                ],
            )
    if "webhook_url" in fields:
        url = fields["webhook_url"]
        if url != (row.webhook_url if row else None):
            outbox_store.drop_pending(session=session, user_id=user_id, channel="webhook")
        changes.update(webhook_url=url, webhook_failures=0, webhook_disabled_note=None)
        if url and (row is None or not row.webhook_secret):
            changes["webhook_secret"] = new_secret()
    saved = settings_store.save_notification_settings(
        session=session, user_id=user_id, changes=changes
    )
    session.commit()
    return describe(saved, confirmation=confirmation, email_available=email_available)
