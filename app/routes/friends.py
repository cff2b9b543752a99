"""Friends and blocks over HTTP (accounts only; a guest is told to sign up):
``/api/friends`` — ask, accept, remove or decline, and the list with who is online and at
which table; ``/api/blocks`` — block, unblock, and the list."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response, status

from app.http.deps import CurrentAccount
from app.social.service import Social

router = APIRouter(prefix="/api")


def social_of(request: Request) -> Social:
    social: Social = request.app.state.social
    return social


@router.get("/friends")
async def list_friends(request: Request, me: CurrentAccount) -> dict[str, Any]:
    return await social_of(request).friends.listed(me)


@router.post("/friends/{username}")
async def ask_friend(request: Request, username: str, me: CurrentAccount) -> dict[str, Any]:
    """Ask ``username`` to be friends; if they asked you, you are friends now."""
    return await social_of(request).friends.ask(me, username)


@router.delete("/friends/{username}", status_code=status.HTTP_204_NO_CONTENT)
async def remove_friend(request: Request, username: str, me: CurrentAccount) -> Response:
    """Remove a friend, withdraw your ask, or decline theirs."""
    await social_of(request).friends.remove(me, username)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/blocks")
async def list_blocks(request: Request, me: CurrentAccount) -> dict[str, Any]:
    return await social_of(request).blocks.listed(me.id)


@router.post("/blocks/{username}", status_code=status.HTTP_204_NO_CONTENT)
async def block(request: Request, username: str, me: CurrentAccount) -> Response:
    await social_of(request).blocks.block(me.id, username)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("/blocks/{username}", status_code=status.HTTP_204_NO_CONTENT)
async def unblock(request: Request, username: str, me: CurrentAccount) -> Response:
    await social_of(request).blocks.unblock(me.id, username)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
