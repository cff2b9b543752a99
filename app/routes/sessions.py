"""The caller's identity over HTTP: start or rename a guest, and ask who you are."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from app import store
from app.http.deps import AppSettings, Auth, CurrentUser, MaybeUser, SessionOrigin, Signer
from app.http.schemas import SessionIn
from app.people.confusables import name_key
from app.people.cookie import set_session_cookie
from app.people.names import InvalidName, clean_name
from app.people.sessions import Identity, lifetime, new_guest
from app.refusal import Refusal

router = APIRouter(prefix="/api")


def name_or_error(raw: str) -> str:
    """A valid display name, or the ``bad_name`` refusal saying which rule it breaks."""
    try:
        return clean_name(raw)
    except InvalidName as error:
        raise Refusal("bad_name", str(error), 422) from None


def who(user: Identity) -> dict[str, Any]:
    """The answer of every identity call."""
    return {"user_id": user.id, "name": user.name, "username": user.username}


@router.post("/session")
def start_session(
    body: SessionIn,
    response: Response,
    user: MaybeUser,
    auth: Auth,
    signer: Signer,
    settings: AppSettings,
    origin: SessionOrigin,
) -> dict[str, Any]:
    """Start the caller's guest identity (and its session cookie), or rename the guest."""
    name = name_or_error(body.name)
    if user is not None and user.is_account:
        if name != user.username:
            raise Refusal("account_name", "An account plays under its username.", 409)
        return who(user)
    with auth.sessions() as session:
        owner = store.user_by_username_key(session=session, key=name_key(name))
        if owner is not None and (user is None or owner.id != user.id):
            raise Refusal(
                "name_taken", f"{name} is taken by an account (or looks like one that is).", 409
            )
        if user is None:
            guest = new_guest(session, name, origin)
            max_age = int(lifetime(False).total_seconds())
            set_session_cookie(response, signer, guest.session_id, settings, max_age)
            return who(guest)
        store.save_user(session=session, user_id=user.id, name=name)
    auth.forget_user(user.id)
    return {"user_id": user.id, "name": name, "username": None}


@router.get("/session")
async def who_am_i(user: CurrentUser) -> dict[str, Any]:
    return who(user)
