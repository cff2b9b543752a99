"""The guest identity over HTTP: start or rename it, and ask who you are."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from app import store
from app.deps import AppSettings, CurrentUser, DbSession, MaybeUser, Signer
from app.identity import InvalidName, clean_name, new_user_id, set_session_cookie
from app.rooms import RoomError
from app.schemas import SessionIn

router = APIRouter(prefix="/api")


def name_or_error(raw: str) -> str:
    """A valid display name, or the ``bad_name`` refusal saying which rule it breaks."""
    try:
        return clean_name(raw)
    except InvalidName as error:
        raise RoomError("bad_name", str(error), 422) from None


@router.post("/session")
def start_session(
    body: SessionIn,
    response: Response,
    session: DbSession,
    signer: Signer,
    user: MaybeUser,
    settings: AppSettings,
) -> dict[str, Any]:
    """Start (or rename) the caller's guest identity and set the signed cookie."""
    name = name_or_error(body.name)
    user_id = user.id if user is not None else new_user_id()
    saved = store.save_user(session=session, user_id=user_id, name=name)
    set_session_cookie(response, signer, saved.id, settings)
    return {"user_id": saved.id, "name": saved.name}


@router.get("/session")
def who_am_i(user: CurrentUser) -> dict[str, Any]:
    return {"user_id": user.id, "name": user.name}
