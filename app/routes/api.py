"""The JSON REST API under /api (DESIGN.md §6; every call is in docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Response, status

import games
from app import store
from app.config import Settings
from app.deps import AppSettings, CurrentUser, DbSession, MaybeUser, Service, Signer
from app.identity import CookieSigner, InvalidName, clean_name, new_user_id
from app.review import match_record, match_summary, review_frames
from app.rooms import RoomError, describe
from app.schemas import BotIn, RoomIn, SeatIn, SessionIn

router = APIRouter(prefix="/api")
ONE_YEAR = 365 * 24 * 3600


def _name_or_error(raw: str) -> str:
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
    name = _name_or_error(body.name)
    user_id = user.id if user is not None else new_user_id()
    saved = store.save_user(session=session, user_id=user_id, name=name)
    set_session_cookie(response, signer, saved.id, settings)
    return {"user_id": saved.id, "name": saved.name}


def set_session_cookie(
    response: Response, signer: CookieSigner, user_id: str, settings: Settings
) -> None:
    """Set the signed session cookie (also used by the pages for first-time visitors)."""
    response.set_cookie(
        settings.cookie_name,
        signer.sign(user_id),
        max_age=ONE_YEAR,
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
    )


@router.get("/session")
def who_am_i(user: CurrentUser) -> dict[str, Any]:
    return {"user_id": user.id, "name": user.name}


@router.get("/games")
def list_games() -> list[dict[str, Any]]:
    return [
        {
            "name": rules.name,
            "title": rules.title,
            "min_seats": rules.min_seats,
            "max_seats": rules.max_seats,
            "default_options": rules.default_options(),
            "options": rules.options_schema(),
        }
        for rules in (games.get(name) for name in sorted(games.REGISTRY))
    ]


@router.post("/rooms", status_code=status.HTTP_201_CREATED)
async def create_room(body: RoomIn, user: CurrentUser, service: Service) -> dict[str, Any]:
    room = await service.create(
        host_id=user.id,
        host_name=user.name,
        game=body.game,
        seats=body.seats,
        options=body.options,
        visibility=body.visibility,
    )
    return describe(room, service.hub)


@router.get("/rooms")
async def list_rooms(session: DbSession, service: Service) -> list[dict[str, Any]]:
    rows = store.public_rooms(session=session)
    return [describe(await service.get(row.id), service.hub) for row in rows]


@router.get("/rooms/{room_id}")
async def get_room(room_id: str, service: Service) -> dict[str, Any]:
    return describe(await service.get(room_id), service.hub)


@router.post("/rooms/{room_id}/join")
async def join_room(
    room_id: str, user: CurrentUser, service: Service, body: SeatIn | None = None
) -> dict[str, Any]:
    room = await service.get(room_id)
    seat = await service.join(
        room, user_id=user.id, name=user.name, seat=body.seat if body else None
    )
    return {"seat": seat, "room": describe(room, service.hub)}


@router.post("/rooms/{room_id}/leave")
async def leave_room(room_id: str, user: CurrentUser, service: Service) -> dict[str, Any]:
    room = await service.get(room_id)
    await service.leave(room, user_id=user.id)
    return describe(room, service.hub)


@router.post("/rooms/{room_id}/bots")
async def add_bot(room_id: str, body: BotIn, user: CurrentUser, service: Service) -> dict[str, Any]:
    room = await service.get(room_id)
    await service.add_bot(room, user_id=user.id, seat=body.seat, kind=body.kind)
    return describe(room, service.hub)


@router.delete("/rooms/{room_id}/seats/{seat}")
async def free_seat(room_id: str, seat: int, user: CurrentUser, service: Service) -> dict[str, Any]:
    room = await service.get(room_id)
    await service.free_seat(room, user_id=user.id, seat=seat)
    return describe(room, service.hub)


@router.post("/rooms/{room_id}/start")
async def start_room(room_id: str, user: CurrentUser, service: Service) -> dict[str, Any]:
    room = await service.get(room_id)
    await service.start(room, user_id=user.id)
    return describe(room, service.hub)


@router.post("/rooms/{room_id}/rematch", status_code=status.HTTP_201_CREATED)
async def rematch(room_id: str, user: CurrentUser, service: Service) -> dict[str, Any]:
    room = await service.get(room_id)
    new_room = await service.rematch(room, user_id=user.id)
    return describe(new_room, service.hub)


@router.get("/matches")
def list_matches(
    session: DbSession,
    user: MaybeUser,
    game: str | None = None,
    user_id: str | None = Query(None, alias="user"),
    limit: int = Query(50, ge=1, le=200),
) -> list[dict[str, Any]]:
    """Finished matches, newest first (``user=me`` means the caller)."""
    viewer = user.id if user else None
    if user_id == "me":
        if viewer is None:
            return []
        user_id = viewer
    rows = store.finished_matches(
        session=session, game=game, user_id=user_id, viewer_id=viewer, limit=limit
    )
    return [match_summary(m) for m in rows]


@router.get("/matches/{match_id}")
def get_match(match_id: str, session: DbSession) -> dict[str, Any]:
    match = store.load_match(session=session, match_id=match_id)
    if match is None:
        raise RoomError("match_not_found", "There is no such match.", 404)
    return match_record(match, store.load_events(session=session, match_id=match_id))


@router.get("/matches/{match_id}/review")
def review_match(match_id: str, session: DbSession) -> dict[str, Any]:
    match = store.load_match(session=session, match_id=match_id)
    if match is None:
        raise RoomError("match_not_found", "There is no such match.", 404)
    if match.status != "finished":
        raise RoomError("not_finished", "A match can be reviewed once it is over.", 409)
    events = store.load_events(session=session, match_id=match_id)
    return {"match": match_record(match, events), "frames": review_frames(match, events)}
