"""Request dependencies in one place (``Annotated`` aliases, as in the FastAPI template)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Annotated

from fastapi import Depends, Request, Response
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from app.config import Settings
from app.i18n.marks import N_
from app.i18n.requests import request_language
from app.limits.quotas import Limiter
from app.observability.context import person
from app.people.browser_mark import BrowserMarks
from app.people.cookie import CookieSigner
from app.people.hashing_pool import HashingPool
from app.people.sessions import Authenticator, Identity, Origin
from app.refusal import Refusal
from app.rooms import Rooms
from app.rooms.records import LiveRoom
from app.social.service import Social


async def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_rooms(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


async def room_in_use(
    room_id: str, rooms: Annotated[Rooms, Depends(get_rooms)]
) -> AsyncIterator[LiveRoom]:
    """The room the path names, kept in memory here until the request is answered."""
    async with rooms.using(room_id) as room:
        yield room


async def get_social(request: Request) -> Social:
    social: Social = request.app.state.social
    return social


async def get_signer(request: Request) -> CookieSigner:
    signer: CookieSigner = request.app.state.signer
    return signer


async def get_auth(request: Request) -> Authenticator:
    auth: Authenticator = request.app.state.auth
    return auth


async def get_limiter(request: Request) -> Limiter:
    limiter: Limiter = request.app.state.limiter
    return limiter


async def get_hashing(request: Request) -> HashingPool:
    hashing: HashingPool = request.app.state.hashing
    return hashing


def client_address(connection: HTTPConnection) -> str:
    """The caller's address, of a request or a socket: a trusted proxy's word for it, or the
    connection's own (app/http/forwarded.py)."""
    return connection.client.host if connection.client else "unknown"


ADDRESS_CHARS = 64  # as stored with a session


async def session_origin(request: Request, response: Response) -> Origin:
    """Where a session about to be opened comes from: the browser's mark (given one now if
    it holds none; the cookie goes out with the response) and the caller's address."""
    marks: BrowserMarks = request.app.state.browser_marks
    mark = marks.keep(request.cookies, response, request.app.state.settings)
    return Origin(mark, client_address(request)[:ADDRESS_CHARS])


def get_session(request: Request) -> Iterator[Session]:
    with request.app.state.sessions() as session:
        yield session


async def current_user_or_none(request: Request) -> Identity | None:
    """Who the session cookie names; answered from memory on the event loop when it can
    be (app/people/sessions.py), so most requests never wait for the database or a thread."""
    auth: Authenticator = request.app.state.auth
    identity = await auth.identify(request.cookies.get(request.app.state.settings.cookie_name))
    if identity is not None:
        person(identity.id)  # the request's log lines name whom they are for
        # An error answering this request speaks the account's language (app/http/errors.py).
        request.state.account_language = identity.language
    return identity


async def reader_language(
    request: Request, user: Annotated[Identity | None, Depends(current_user_or_none)]
) -> str:
    """The language the request is answered in: ``?lang=``, the account's setting, the
    cookie, ``Accept-Language``, English (app/i18n/requests.py)."""
    return request_language(request, account=user.language if user is not None else None)


async def current_user(user: Annotated[Identity | None, Depends(current_user_or_none)]) -> Identity:
    if user is None:
        raise Refusal("no_session", N_("Start a session first (POST /api/session)."), 401)
    return user


async def current_account(user: Annotated[Identity, Depends(current_user)]) -> Identity:
    if not user.is_account:
        raise Refusal(
            "not_an_account", N_("Only an account can do that: create one or log in first."), 403
        )
    return user


AppSettings = Annotated[Settings, Depends(get_app_settings)]
LiveRooms = Annotated[Rooms, Depends(get_rooms)]
RoomInUse = Annotated[LiveRoom, Depends(room_in_use)]
SocialGraph = Annotated[Social, Depends(get_social)]
Signer = Annotated[CookieSigner, Depends(get_signer)]
Auth = Annotated[Authenticator, Depends(get_auth)]
Limits = Annotated[Limiter, Depends(get_limiter)]
Hashing = Annotated[HashingPool, Depends(get_hashing)]
DbSession = Annotated[Session, Depends(get_session)]
MaybeUser = Annotated[Identity | None, Depends(current_user_or_none)]
ReaderLanguage = Annotated[str, Depends(reader_language)]
CurrentUser = Annotated[Identity, Depends(current_user)]
CurrentAccount = Annotated[Identity, Depends(current_account)]
SessionOrigin = Annotated[Origin, Depends(session_origin)]
