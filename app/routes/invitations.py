"""Invitations over HTTP: the host invites an account to a seat
(``POST /api/rooms/{id}/invitations``); the invitee lists, accepts or declines theirs
(``/api/me/invitations``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status

from app.http.deps import (
    CurrentAccount,
    CurrentUser,
    Limits,
    LiveRooms,
    ReaderLanguage,
    SocialGraph,
)
from app.http.schemas import InvitationIn
from app.routes.rooms import count_code_lookup

router = APIRouter(prefix="/api")


@router.post("/rooms/{room_id}/invitations", status_code=status.HTTP_201_CREATED)
async def invite(
    request: Request,
    room_id: str,
    body: InvitationIn,
    me: CurrentUser,
    rooms: LiveRooms,
    social: SocialGraph,
    limits: Limits,
) -> dict[str, Any]:
    """The host invites ``username`` to a seat; they are told at once."""
    await count_code_lookup(request, limits)
    # Each invitation reaches the invitee at once: so many an hour, then 429.
    await limits.invite(me.id)
    async with rooms.using(room_id) as room:
        return await social.invitations.invite(me, room, body.username, limits)


@router.get("/me/invitations")
async def my_invitations(me: CurrentAccount, social: SocialGraph) -> dict[str, Any]:
    return await social.invitations.listed(me)


@router.post("/me/invitations/{invitation_id}/accept")
async def accept(
    invitation_id: str, me: CurrentAccount, social: SocialGraph, language: ReaderLanguage
) -> dict[str, Any]:
    """Take a seat at the invitation's table: ``{"seat", "room"}`` as a join answers."""
    return await social.invitations.accept(me, invitation_id, language)


@router.post("/me/invitations/{invitation_id}/decline", status_code=status.HTTP_204_NO_CONTENT)
async def decline(invitation_id: str, me: CurrentAccount, social: SocialGraph) -> Response:
    await social.invitations.decline(me, invitation_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
