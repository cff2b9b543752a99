"""The notification pages: the settings page, the pages an e-mail's links open
(confirming an address, unsubscribing in one click) and the service worker that shows push
notifications.

An e-mail's link works without logging in: its signed token (app/notifications/tokens.py)
names the account and the address. Opening it only asks; the page's button (or a mail
program's one-click POST, RFC 8058) does it.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from app.i18n.marks import N_
from app.models import utcnow
from app.notifications.links import CONFIRM_PATH, UNSUBSCRIBE_PATH
from app.notifications.tokens import Addressee, EmailTokens
from app.routes.pages import Say, _page, say
from app.store import notification_settings as settings_store
from app.store import outbox as outbox_store

ROOT = Path(__file__).resolve().parents[2]
SERVICE_WORKER = ROOT / "static" / "sw.js"

router = APIRouter(include_in_schema=False)

DEAD_LINK = N_("This link does not work")
DEAD_LINK_TEXT = N_(
    "It may be mistyped, too old, or for an address the account no longer uses. "
    "Your notification settings are on the Notifications page."
)


@router.get("/notifications", response_class=HTMLResponse)
def settings_page(request: Request) -> Response:
    return _page(
        request,
        "notifications.html",
        {"page": "notifications"},
        title=say(N_("Notifications")),
        description=say(
            N_(
                "Choose how Parlour tells you that it is your turn, that your time to move is "
                "nearly out or that a match ended: e-mail, a webhook, or push on this device."
            )
        ),
    )


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the site's root so that its scope is the whole site."""
    return FileResponse(
        SERVICE_WORKER, media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )


def _tokens(request: Request) -> EmailTokens:
    tokens: EmailTokens = request.app.state.notifications.tokens
    return tokens


def _link_page(
    request: Request,
    heading: Say,
    text: Say,
    *,
    action: str | None = None,
    button: Say | None = None,
    status: int = 200,
) -> Response:
    return _page(
        request,
        "email_link.html",
        {"page": "message"},
        status=status,
        title=heading,
        heading=heading,
        text=text,
        action=action,
        button=button or "",
    )


def _dead_link(request: Request) -> Response:
    return _link_page(request, say(DEAD_LINK), say(DEAD_LINK_TEXT), status=404)


@router.get(CONFIRM_PATH, response_class=HTMLResponse)
def confirm_page(request: Request, token: str = "") -> Response:
    addressee = _tokens(request).read_confirmation(token)
    if addressee is None:
        return _dead_link(request)
    return _link_page(
        request,
        say(N_("Confirm your e-mail address")),
        say(N_("Send notifications about your tables to {email}?"), email=addressee.email),
        action=f"{CONFIRM_PATH}?token={quote(token, safe='')}",
        button=say(N_("Confirm the address")),
    )


@router.post(CONFIRM_PATH, response_class=HTMLResponse)
def confirm(request: Request, token: str = "") -> Response:
    addressee = _tokens(request).read_confirmation(token)
    if addressee is None or not _confirm(request, addressee):
        return _dead_link(request)
    return _link_page(
        request,
        say(N_("Address confirmed")),
        say(
            N_("Notifications about your tables will go to {email}, as your settings say."),
            email=addressee.email,
        ),
    )


def _confirm(request: Request, addressee: Addressee) -> bool:
    with request.app.state.sessions() as session:
        done = settings_store.confirm_email(
            session=session, user_id=addressee.user_id, email=addressee.email, now=utcnow()
        )
        session.commit()
    return done


@router.get(UNSUBSCRIBE_PATH, response_class=HTMLResponse)
def unsubscribe_page(request: Request, token: str = "") -> Response:
    addressee = _tokens(request).read_unsubscribe(token)
    if addressee is None:
        return _dead_link(request)
    return _link_page(
        request,
        say(N_("Unsubscribe")),
        say(N_("Stop every e-mail about your tables to {email}?"), email=addressee.email),
        action=f"{UNSUBSCRIBE_PATH}?token={quote(token, safe='')}",
        button=say(N_("Unsubscribe")),
    )


@router.post(UNSUBSCRIBE_PATH, response_class=HTMLResponse)
def unsubscribe(request: Request, token: str = "") -> Response:
    addressee = _tokens(request).read_unsubscribe(token)
    if addressee is None or not _unsubscribe(request, addressee):
        return _dead_link(request)
    return _link_page(
        request,
        say(N_("Unsubscribed")),
        say(
            N_(
                "No more e-mails about your tables will go to {email}. You can turn "
                "them on again on the Notifications page."
            ),
            email=addressee.email,
        ),
    )


def _unsubscribe(request: Request, addressee: Addressee) -> bool:
    with request.app.state.sessions() as session:
        done = settings_store.unsubscribe_email(
            session=session, user_id=addressee.user_id, email=addressee.email
        )
        if done:
            outbox_store.drop_pending(session=session, user_id=addressee.user_id, channel="email")
        session.commit()
    return done
