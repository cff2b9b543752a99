"""Request dependencies in one place (``Annotated`` aliases, as in the FastAPI template)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from app import store
from app.config import Settings
from app.identity import CookieSigner
from app.models import User
from app.rooms import RoomError, RoomService


def get_app_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_service(request: Request) -> RoomService:
    return request.app.state.rooms


def get_signer(request: Request) -> CookieSigner:
    return request.app.state.signer


def get_session(request: Request):  # type: ignore[no-untyped-def]
    with request.app.state.sessions() as session:
        yield session


def current_user_or_none(request: Request) -> User | None:
    user_id = request.app.state.signer.read(
        request.cookies.get(request.app.state.settings.cookie_name)
    )
    if user_id is None:
        return None
    with request.app.state.sessions() as session:
        return store.get_user(session=session, user_id=user_id)


def current_user(user: Annotated[User | None, Depends(current_user_or_none)]) -> User:
    if user is None:
        raise RoomError("no_session", "Start a session first (POST /api/session).", 401)
    return user


AppSettings = Annotated[Settings, Depends(get_app_settings)]
Service = Annotated[RoomService, Depends(get_service)]
Signer = Annotated[CookieSigner, Depends(get_signer)]
DbSession = Annotated[Session, Depends(get_session)]
MaybeUser = Annotated[User | None, Depends(current_user_or_none)]
CurrentUser = Annotated[User, Depends(current_user)]
