"""Rooms over HTTP: open one, look rooms up, the lobby verbs (join, leave, computer
players, free a seat, start, rematch, take a seat back) and the host's chat settings (mute
a person, the watchers' channel). Each answers with the room's description.

Opening tables is limited per person and per address, and so is reaching rooms by their
short code (app/limits/quotas.py): codes are short enough to guess at, ids are not."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, status

import games
from app import store
from app.http.deps import (
    CurrentUser,
    Limits,
    LiveRooms,
    MaybeUser,
    ReaderLanguage,
    RoomInUse,
    SocialGraph,
    client_address,
)
from app.http.schemas import BotIn, MuteIn, RoomIn, RoomSettingsIn, SeatIn
from app.i18n.marks import N_
from app.refusal import Refusal
from app.rooms.pace import TURN_BASED


async def count_code_lookup(request: Request, limits: Limits) -> None:
    """Charge the caller's address for a room reached by its short code."""
    key = request.path_params.get("room_id")
    if key is not None:
        await limits.look_up(key, client_address(request))


router = APIRouter(prefix="/api/rooms", dependencies=[Depends(count_code_lookup)])


@router.post("", status_code=status.HTTP_201_CREATED)
async def create_room(
    body: RoomIn,
    request: Request,
    user: CurrentUser,
    rooms: LiveRooms,
    language: ReaderLanguage,
    limits: Limits,
) -> dict[str, Any]:
    if body.rated and not user.is_account:
        raise Refusal(
            "account_needed", N_("Only accounts can open a rated table: log in or sign up."), 403
        )
    await limits.open_room(user.id, client_address(request))
    room = await rooms.create(
        host_id=user.id,
        host_name=user.name,
        game=body.game,
        seats=body.seats,
        options=body.options,
        visibility=body.visibility,
        rated=body.rated,
        clock=None if body.clock is None else body.clock.model_dump(),
        pace=body.pace,
        days_per_move=body.days_per_move,
    )
    return rooms.describe(room, language)


@router.get("")
async def list_rooms(
    rooms: LiveRooms, language: ReaderLanguage, user: MaybeUser, game: str | None = None
) -> list[dict[str, Any]]:
    """The open tables, newest first (only ``game``'s, when given): public live rooms
    waiting or playing with a person at them; public turn-based rooms until they start,
    whoever is connected, and once started only to their players."""
    if game is not None and game not in games.REGISTRY:
        raise Refusal("unknown_game", N_("There is no game called {game!r}."), 422, game=game)
    viewer = None if user is None else user.id
    listed = []
    for room_id in await rooms.storage.call(store.listed_room_ids, viewer_id=viewer, game=game):
        room = await rooms.get(room_id)
        if room.ended:
            continue
        if room.pace == TURN_BASED or rooms.people_here(room):
            listed.append(rooms.describe(room, language))
    return listed


@router.get("/{room_id}")
async def get_room(room_id: str, rooms: LiveRooms, language: ReaderLanguage) -> dict[str, Any]:
    return rooms.describe(await rooms.get(room_id), language)


@router.post("/{room_id}/join")
async def join_room(
    user: CurrentUser,
    rooms: LiveRooms,
    language: ReaderLanguage,
    room: RoomInUse,
    social: SocialGraph,
    body: SeatIn | None = None,
) -> dict[str, Any]:
    if room.seat_of(user.id) is None:
        # Not at a table whose host or players blocked the person (they are not told why).
        await social.blocks.may_sit(room, user.id)
    seat = await rooms.join(
        room,
        user_id=user.id,
        name=user.name,
        seat=body.seat if body else None,
        account=user.is_account,
    )
    return {"seat": seat, "room": rooms.describe(room, language)}


@router.post("/{room_id}/leave")
async def leave_room(
    user: CurrentUser, rooms: LiveRooms, language: ReaderLanguage, room: RoomInUse
) -> dict[str, Any]:
    await rooms.leave(room, user_id=user.id)
    return rooms.describe(room, language)


@router.post("/{room_id}/bots")
async def add_bot(
    body: BotIn, user: CurrentUser, rooms: LiveRooms, language: ReaderLanguage, room: RoomInUse
) -> dict[str, Any]:
    await rooms.add_bot(room, user_id=user.id, seat=body.seat, kind=body.kind)
    return rooms.describe(room, language)


@router.delete("/{room_id}/seats/{seat}")
async def free_seat(
    seat: int, user: CurrentUser, rooms: LiveRooms, language: ReaderLanguage, room: RoomInUse
) -> dict[str, Any]:
    await rooms.free_seat(room, user_id=user.id, seat=seat)
    return rooms.describe(room, language)


@router.post("/{room_id}/start")
async def start_room(
    user: CurrentUser, rooms: LiveRooms, language: ReaderLanguage, room: RoomInUse
) -> dict[str, Any]:
    await rooms.start(room, user_id=user.id)
    return rooms.describe(room, language)


@router.post("/{room_id}/reclaim")
async def reclaim(
    user: CurrentUser, rooms: LiveRooms, language: ReaderLanguage, room: RoomInUse
) -> dict[str, Any]:
    """Take back the seat a computer plays for you."""
    seat = await rooms.reclaim(room, user_id=user.id)
    return {"seat": seat, "room": rooms.describe(room, language)}


@router.post("/{room_id}/claim")
async def claim(
    user: CurrentUser, rooms: LiveRooms, language: ReaderLanguage, room: RoomInUse
) -> dict[str, Any]:
    """Claim a turn-based match from the players whose time to move has run out."""
    await rooms.claim(room, user_id=user.id)
    return rooms.describe(room, language)


@router.post("/{room_id}/rematch", status_code=status.HTTP_201_CREATED)
async def rematch(
    user: CurrentUser, rooms: LiveRooms, language: ReaderLanguage, room: RoomInUse
) -> dict[str, Any]:
    new_room = await rooms.rematch(room, user_id=user.id)
    return rooms.describe(new_room, language)


@router.post("/{room_id}/mute")
async def mute(
    body: MuteIn, user: CurrentUser, rooms: LiveRooms, language: ReaderLanguage, room: RoomInUse
) -> dict[str, Any]:
    await rooms.mute(room, user_id=user.id, person=body.user_id, muted=body.muted)
    return rooms.describe(room, language)


@router.post("/{room_id}/settings")
async def settings(
    body: RoomSettingsIn,
    user: CurrentUser,
    rooms: LiveRooms,
    language: ReaderLanguage,
    room: RoomInUse,
) -> dict[str, Any]:
    await rooms.set_watchers_chat(room, user_id=user.id, on=body.watchers_chat)
    return rooms.describe(room, language)
