"""Friends and blocks over HTTP (accounts only; a guest is told to sign up):
``/api/friends`` — ask, accept, remove or decline, and the list with who is online and at
which table; ``/api/blocks`` — block, unblock, and the list."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response, status

from app.http.deps import CurrentAccount, Limits, SocialGraph

router = APIRouter(prefix="/api")


@router.get("/friends")
async def list_friends(me: CurrentAccount, social: SocialGraph) -> dict[str, Any]:
    return await social.friends.listed(me)


@router.post("/friends/{username}")
async def ask_friend(
    username: str, me: CurrentAccount, social: SocialGraph, limits: Limits
) -> dict[str, Any]:
    """Ask ``username`` to be friends; if they asked you, you are friends now."""
    # Each ask reaches the other person's pages at once: so many an hour, then 429.
    await limits.ask_friend(me.id)
    return await social.friends.ask(me, username)


@router.delete("/friends/{username}", status_code=status.HTTP_204_NO_CONTENT)
async def remove_friend(username: str, me: CurrentAccount, social: SocialGraph) -> Response:
    """Remove a friend, withdraw your ask, or decline theirs."""
    await social.friends.remove(me, username)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/blocks")
async def list_blocks(me: CurrentAccount, social: SocialGraph) -> dict[str, Any]:
    return await social.blocks.listed(me.id)


@router.post("/blocks/{username}", status_code=status.HTTP_204_NO_CONTENT)
async def block(username: str, me: CurrentAccount, social: SocialGraph) -> Response:
    await social.blocks.block(me.id, username)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("/blocks/{username}", status_code=status.HTTP_204_NO_CONTENT)
async def unblock(username: str, me: CurrentAccount, social: SocialGraph) -> Response:
    await social.blocks.unblock(me.id, username)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
