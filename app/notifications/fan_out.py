"""From signals to outbox rows: which channels each signal goes out on, by the person's
settings — one row per channel (and per push subscription), so that each is delivered,
retried and given up on its own. Runs in the transaction that takes the signals in.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from app.models import NotificationSettings
from app.notifications.wording import ENDED, INVITED, REMINDER, TURN
from app.rooms.signals import DeadlineNear, Invited, MatchEnded, Signal, TurnAwaits
from app.store import notification_settings as settings_store
from app.store import outbox as outbox_store
from app.store import push_subscriptions as push_store

# The settings' per-event column suffix of each kind. An invitation is a seat waiting for
# the person, as a turn is: it goes out on the channels that tell turns.
EVENT_FLAGS = {TURN: "turns", REMINDER: "reminders", ENDED: "endings", INVITED: "turns"}


def kind_of(signal: Signal) -> str:
    if isinstance(signal, TurnAwaits):
        return TURN
    if isinstance(signal, DeadlineNear):
        return REMINDER
    if isinstance(signal, Invited):
        return INVITED
    return ENDED


def details_of(signal: Signal) -> dict[str, Any]:
    if isinstance(signal, MatchEnded):
        return {"summary": signal.summary, "summary_words": signal.worded}
    if isinstance(signal, Invited):
        return {"from": signal.by, "invitation": signal.invitation_id}
    return {"deadline": iso_utc(signal.deadline)}


def iso_utc(moment: datetime | None) -> str | None:
    """A deadline on the wire: ISO 8601 in UTC with a Z (a naive time is taken as UTC)."""
    if moment is None:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat() + "Z"


def wants(row: NotificationSettings | None, channel: str, kind: str) -> bool:
    """Whether the person asked for this kind of event on this channel (push: by default)."""
    if row is None:
        return channel == "push"
    return bool(getattr(row, f"{channel}_{EVENT_FLAGS[kind]}"))


def email_usable(row: NotificationSettings | None, *, confirmation: bool) -> bool:
    if row is None or not row.email:
        return False
    return row.email_confirmed_at is not None or not confirmation


def webhook_usable(row: NotificationSettings | None) -> bool:
    return row is not None and bool(row.webhook_url) and row.webhook_disabled_note is None


def fan_out(
    session: Session,
    *,
    signals: list[Signal],
    now: datetime,
    confirmation: bool,
    email: bool,
    turn_delay: timedelta = timedelta(0),
) -> int:
    """Write the outbox rows of ``signals`` and commit; how many. ``email``: whether this
    server sends e-mail at all (SMTP_HOST). A turn is due only ``turn_delay`` after it
    began: someone playing along moves before then, and is not told of a turn already
    taken (the worker drops a turn no longer awaited)."""
    users = {signal.user_id for signal in signals}
    settings = settings_store.settings_of(session=session, user_ids=users)
    subscriptions = push_store.push_subscriptions_of(session=session, user_ids=users)
    rows: list[dict[str, Any]] = []
    # One turn (and one reminder) told per person and table: a newer one, after the
    # person moved, replaces any earlier one not yet sent, in the outbox or in this batch.
    newest = {(s.user_id, s.room_id, kind_of(s)): s for s in signals}
    for signal in signals:
        kind, row = kind_of(signal), settings.get(signal.user_id)
        if kind in (TURN, REMINDER):
            if newest[(signal.user_id, signal.room_id, kind)] is not signal:
                continue
            outbox_store.drop_earlier(
                session=session, user_id=signal.user_id, room_id=signal.room_id, kind=kind
            )
        base = {
            "user_id": signal.user_id,
            "kind": kind,
            "room_id": signal.room_id,
            "game": signal.game,
            "created_at": now,
            "due_at": now + turn_delay if kind == TURN else now,
        }
        if email and email_usable(row, confirmation=confirmation) and wants(row, "email", kind):
            rows.append({**base, "channel": "email", "details": details_of(signal)})
        if webhook_usable(row) and wants(row, "webhook", kind):
            rows.append({**base, "channel": "webhook", "details": details_of(signal)})
        if wants(row, "push", kind):
            for subscription in subscriptions:
                if subscription.user_id == signal.user_id:
                    details = {**details_of(signal), "subscription": subscription.id}
                    rows.append({**base, "channel": "push", "details": details})
    written = outbox_store.add_outbox_items(session=session, items=rows)
    session.commit()
    return written
