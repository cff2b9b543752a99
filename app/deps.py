"""Request dependencies in one place (``Annotated`` aliases, as in the FastAPI template)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from app import store
from app.config import Settings
from app.identity import CookieSigner
from app.models import User
from app.rooms import RoomError, Rooms


def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_rooms(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


def get_signer(request: Request) -> CookieSigner:
    signer: CookieSigner = request.app.state.signer
    return signer


def get_session(request: Request) -> Iterator[Session]:
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
LiveRooms = Annotated[Rooms, Depends(get_rooms)]
Signer = Annotated[CookieSigner, Depends(get_signer)]
DbSession = Annotated[Session, Depends(get_session)]
MaybeUser = Annotated[User | None, Depends(current_user_or_none)]
CurrentUser = Annotated[User, Depends(current_user)]
