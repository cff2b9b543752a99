"""Browsers' Web Push subscriptions, an account's or a guest's."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.models import PushSubscription


def save_push_subscription(
    *,
    session: Session,
    user_id: str,
    endpoint: str,
    p256dh: str,
    auth: str,
    language: str | None = None,
) -> None:
    """Keep the subscription for ``user_id``: a browser subscribing again (or another
    person signing in on it) replaces what its endpoint had. ``language``: the one the
    browser read the site in (a guest's notifications speak it)."""
    row = session.scalars(select(PushSubscription).where(PushSubscription.endpoint == endpoint))
    existing = row.first()
    if existing is None:
        session.add(
            PushSubscription(
                user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth, language=language
            )
        )
    else:
        existing.user_id, existing.p256dh, existing.auth = user_id, p256dh, auth
        existing.language = language
    session.flush()


def remove_push_subscription(*, session: Session, user_id: str, endpoint: str) -> bool:
    result = session.execute(
        delete(PushSubscription).where(
            PushSubscription.user_id == user_id, PushSubscription.endpoint == endpoint
        )
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def push_subscriptions_of(*, session: Session, user_ids: set[str]) -> list[PushSubscription]:
    if not user_ids:
        return []
    query = select(PushSubscription).where(PushSubscription.user_id.in_(user_ids))
    return list(session.scalars(query.order_by(PushSubscription.id)))


def push_subscription(*, session: Session, subscription_id: int) -> PushSubscription | None:
    return session.get(PushSubscription, subscription_id)


def forget_push_subscription(*, session: Session, subscription_id: int) -> None:
    """The push service said the subscription is gone (404 or 410)."""
    session.execute(delete(PushSubscription).where(PushSubscription.id == subscription_id))
