"""Invitations over HTTP: the host invites an account to a seat
(``POST /api/rooms/{id}/invitations``); the invitee lists, accepts or declines theirs
(``/api/me/invitations``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status

from app.http.deps import CurrentAccount, CurrentUser, LiveRooms
from app.http.schemas import InvitationIn
from app.routes.friends import social_of
from app.routes.rooms import count_code_lookup

router = APIRouter(prefix="/api")


@router.post("/rooms/{room_id}/invitations", status_code=status.HTTP_201_CREATED)
async def invite(
    request: Request, room_id: str, body: InvitationIn, me: CurrentUser, rooms: LiveRooms
) -> dict[str, Any]:
    """The host invites ``username`` to a seat; they are told at once."""
    await count_code_lookup(request, request.app.state.limiter)
    room = await rooms.get(room_id)
    return await social_of(request).invitations.invite(me, room, body.username)


@router.get("/me/invitations")
async def my_invitations(request: Request, me: CurrentAccount) -> dict[str, Any]:
    return await social_of(request).invitations.listed(me)


@router.post("/me/invitations/{invitation_id}/accept")
async def accept(request: Request, invitation_id: str, me: CurrentAccount) -> dict[str, Any]:
    """Take a seat at the invitation's table: ``{"seat", "room"}`` as a join answers."""
    return await social_of(request).invitations.accept(me, invitation_id)


@router.post("/me/invitations/{invitation_id}/decline", status_code=status.HTTP_204_NO_CONTENT)
async def decline(request: Request, invitation_id: str, me: CurrentAccount) -> Response:
    await social_of(request).invitations.decline(me, invitation_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
