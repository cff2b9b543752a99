"""Reports over HTTP: any account reports a person (``POST /api/reports``), and anyone
signed in reads the moderators' word on themselves (``GET /api/me/moderation``)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, status

from app.http.deps import CurrentAccount, CurrentUser
from app.http.schemas import ReportIn
from app.models import iso
from app.moderation.people import own_standing
from app.moderation.reports import file_report

router = APIRouter(prefix="/api")


@router.post("/reports", status_code=status.HTTP_201_CREATED)
async def report(body: ReportIn, request: Request, user: CurrentAccount) -> dict[str, Any]:
    """Report a person: a reason from the list, words, and where (a table, a chat line);
    the server attaches the evidence. Guests are refused (``not_an_account``)."""

    def filed() -> dict[str, Any]:
        with request.app.state.sessions() as session:
            made = file_report(
                session,
                reporter_id=user.id,
                username=body.username,
                reason=body.reason,
                text=body.text,
                room_id=body.room_id,
                chat_id=body.chat_id,
            )
            return {"id": made.id, "at": iso(made.created_at), "status": made.status}

    return await asyncio.to_thread(filed)


@router.get("/me/moderation")
async def my_standing(request: Request, user: CurrentUser) -> dict[str, Any]:
    """The caller's site-wide mute or ban in force (why, until when) and their warnings."""

    def read() -> dict[str, Any]:
        with request.app.state.sessions() as session:
            return own_standing(session, user.id)

    return await asyncio.to_thread(read)
