"""The caller's identity over HTTP: start or rename a guest, and ask who you are.

Starting a guest is limited per address (app/limits/quotas.py); renaming one is not.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request, Response

from app import store
from app.http.deps import (
    AppSettings,
    Auth,
    CurrentUser,
    Limits,
    MaybeUser,
    SessionOrigin,
    Signer,
    client_address,
)
from app.http.schemas import SessionIn
from app.i18n.marks import N_
from app.moderation.sanctions import refuse_if_origin_banned
from app.observability.context import person
from app.people.cookie import set_session_cookie
from app.people.lookup import user_by_name
from app.people.names import InvalidName, clean_name
from app.people.sessions import Authenticator, Identity, Origin, lifetime, new_guest
from app.refusal import Refusal

router = APIRouter(prefix="/api")


def name_or_error(raw: str) -> str:
    """A valid display name, or the ``bad_name`` refusal saying which rule it breaks."""
    try:
        return clean_name(raw)
    except InvalidName as error:
        raise Refusal("bad_name", error.message_id, 422, **error.params) from None


def who(user: Identity) -> dict[str, Any]:
    """The answer of every identity call."""
    return {"user_id": user.id, "name": user.name, "username": user.username}


def _start_or_rename(
    auth: Authenticator, user: Identity | None, name: str, origin: Origin
) -> Identity:
    """A new guest named ``name`` (with a session), or the guest ``user`` renamed."""
    with auth.sessions() as session:
        owner = user_by_name(session=session, name=name)
        if owner is not None and (user is None or owner.id != user.id):
            raise Refusal(
                "name_taken",
                N_("{name} is taken by an account (or looks like one that is)."),
                409,
                name=name,
            )
        if user is None:
            # A banned person's browser, or address, gets no new guest.
            refuse_if_origin_banned(session, origin)
            return new_guest(session, name, origin)
        store.save_user(session=session, user_id=user.id, name=name)
    auth.forget_user(user.id)
    return replace(user, name=name)


@router.post("/session")
async def start_session(
    body: SessionIn,
    request: Request,
    response: Response,
    user: MaybeUser,
    auth: Auth,
    limits: Limits,
    signer: Signer,
    settings: AppSettings,
    origin: SessionOrigin,
) -> dict[str, Any]:
    """Start the caller's guest identity (and its session cookie), or rename the guest."""
    name = name_or_error(body.name)
    if user is not None and user.is_account:
        if name != user.username:
            raise Refusal("account_name", N_("An account plays under its username."), 409)
        return who(user)
    if user is None:
        # Each guest is a row and a session: an address may start only so many.
        await limits.new_guest(client_address(request))
    guest = await asyncio.to_thread(_start_or_rename, auth, user, name, origin)
    person(guest.id)
    if user is None:
        max_age = int(lifetime(False).total_seconds())
        set_session_cookie(response, signer, guest.session_id, settings, max_age)
    return who(guest)


@router.get("/session")
async def who_am_i(user: CurrentUser) -> dict[str, Any]:
    return who(user)
