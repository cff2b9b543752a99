"""Notification settings over HTTP: an account's channels and events, and the push
subscriptions of any browser (an account's or a guest's).

The delivery itself is app/notifications/; these routes only read and change what it
reads.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, status
from sqlalchemy.orm import Session

from app.http.deps import AppSettings, CurrentUser
from app.http.schemas import NotificationsIn, PushEndpointIn, PushSubscriptionIn
from app.i18n.marks import N_
from app.i18n.requests import request_language
from app.notifications import preferences
from app.notifications.addresses import UnsafeUrl, check_reachable
from app.notifications.outbox import Notifications
from app.people.sessions import Identity
from app.refusal import Refusal
from app.rooms.time_source import stamp
from app.store import notification_settings as settings_store
from app.store import push_subscriptions as push_store

router = APIRouter(prefix="/api")


async def get_notifications(request: Request) -> Notifications:
    notifications: Notifications = request.app.state.notifications
    return notifications


Notified = Annotated[Notifications, Depends(get_notifications)]

ACCOUNTS_ONLY = N_(
    "E-mail and webhook notifications are for accounts: create one or log in first. "
    "A guest can still turn on push notifications in this browser."
)


def _account(user: Identity) -> Identity:
    if not user.is_account:
        raise Refusal("not_an_account", ACCOUNTS_ONLY, 403)
    return user


@router.get("/me/notifications")
async def read_settings(
    user: CurrentUser, notifications: Notified, settings: AppSettings
) -> dict[str, Any]:
    """The account's notification settings."""
    account = _account(user)
    row = await notifications.database.call(
        settings_store.notification_settings, user_id=account.id
    )
    return preferences.describe(
        row,
        confirmation=settings.email_confirmation == "on",
        email_available=notifications.email_available,
    )


@router.put("/me/notifications")
async def change_settings(
    body: NotificationsIn, user: CurrentUser, notifications: Notified, settings: AppSettings
) -> dict[str, Any]:
    """Change the account's notification settings (the fields given)."""
    account = _account(user)
    fields = body.model_dump(exclude_unset=True)
    if fields.get("email") is not None:
        try:
            fields["email"] = preferences.clean_email(fields["email"])
        except preferences.BadEmail as error:
            raise Refusal("bad_email", error.message_id, 422, **error.params) from None
    if fields.get("webhook_url") is not None:
        try:
            fields["webhook_url"] = await check_reachable(
                fields["webhook_url"], allow_private=settings.notify_private_addresses
            )
        except UnsafeUrl as error:
            raise Refusal("bad_webhook_url", error.message_id, 422, **error.params) from None
    now = stamp(notifications.time_source.now())
    described = await notifications.database.run(
        lambda session: preferences.change(
            session,
            user_id=account.id,
            fields=fields,
            now=now,
            confirmation=settings.email_confirmation == "on",
            email_available=notifications.email_available,
        )
    )
    notifications.wake()  # a confirmation link may be waiting
    return described


@router.get("/push/key")
async def push_key(notifications: Notified) -> dict[str, str]:
    """The server's VAPID public key, which browsers subscribe with."""
    return {"public_key": notifications.public_key()}


@router.post("/me/push-subscriptions", status_code=status.HTTP_201_CREATED)
async def subscribe(
    request: Request,
    body: PushSubscriptionIn,
    user: CurrentUser,
    notifications: Notified,
    settings: AppSettings,
) -> dict[str, Any]:
    """Keep this browser's push subscription for the caller (a guest or an account)."""
    try:
        endpoint = await check_reachable(
            body.endpoint, allow_private=settings.notify_private_addresses
        )
    except UnsafeUrl as error:
        raise Refusal("bad_push_endpoint", error.message_id, 422, **error.params) from None

    # A guest's notifications speak the language the site was read in when subscribing.
    language = request_language(request, account=user.language)

    def save(session: Session) -> None:
        push_store.save_push_subscription(
            session=session,
            user_id=user.id,
            endpoint=endpoint,
            p256dh=body.keys.p256dh,
            auth=body.keys.auth,
            language=language,
        )
        session.commit()

    await notifications.database.run(save)
    return {"subscribed": True}


@router.delete("/me/push-subscriptions")
async def unsubscribe(
    body: PushEndpointIn, user: CurrentUser, notifications: Notified
) -> dict[str, Any]:
    """Forget this browser's push subscription."""

    def remove(session: Session) -> bool:
        removed = push_store.remove_push_subscription(
            session=session, user_id=user.id, endpoint=body.endpoint
        )
        session.commit()
        return removed

    return {"removed": await notifications.database.run(remove)}
