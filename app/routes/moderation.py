"""The moderators' API: the report queue, a person's record, the actions and the audit
log. Every route answers 403 ``not_moderator`` to anyone else, guests and nobody too
(app/moderation/actions.py carries the actions out)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from app.http.deps import MaybeUser
from app.http.schemas import BanIn, ModerationIn, MuteSiteWideIn, ReasonIn, ReportHandledIn
from app.moderation.actions import Act, Moderation, checked_reason, entry_wire, find_person
from app.moderation.people import person_record
from app.moderation.reports import mark_deleted, report_wire
from app.people.sessions import Identity
from app.store import moderation as store

router = APIRouter(prefix="/api/moderation")

QUEUE = 100
LOG_PAGE = 50


def get_moderation(request: Request) -> Moderation:
    moderation: Moderation = request.app.state.moderation
    return moderation


Moderating = Annotated[Moderation, Depends(get_moderation)]


async def a_moderator(user: MaybeUser, moderation: Moderating) -> Identity:
    return await moderation.check(user)


Moderator = Annotated[Identity, Depends(a_moderator)]


def _naive_utc(when: datetime | None) -> datetime | None:
    if when is None or when.tzinfo is None:
        return when
    return when.astimezone(UTC).replace(tzinfo=None)


def _act(moderator: Identity, reason: str, report_ids: list[int] | None = None) -> Act:
    return Act(moderator, checked_reason(reason), tuple(report_ids or ()))


@router.get("/reports")
async def report_queue(
    request: Request,
    _moderator: Moderator,
    status: Annotated[str, Query(pattern="^(open|resolved|dismissed)$")] = "open",
) -> dict[str, Any]:
    """The reports of a status (open: the queue), oldest first."""

    def read() -> dict[str, Any]:
        with request.app.state.sessions() as session:
            reports = store.report_queue(session=session, status=status, limit=QUEUE)
            people = {r.reporter_id for r in reports} | {r.reported_id for r in reports}
            people |= {r.handled_by for r in reports if r.handled_by}
            names = store.names_of(session=session, user_ids=people)
            return {"reports": mark_deleted(session, [report_wire(r, names) for r in reports])}

    return await asyncio.to_thread(read)


@router.post("/reports/{report_id}")
async def handle_report(
    report_id: int, body: ReportHandledIn, moderator: Moderator, moderation: Moderating
) -> dict[str, Any]:
    """Resolve or dismiss a report (the reason may be left out)."""
    act = Act(moderator, body.reason.strip() or body.status)
    return await moderation.handle_report(act, report_id, body.status)


@router.get("/people/{key}")
async def person(key: str, request: Request, _moderator: Moderator) -> dict[str, Any]:
    """A person (by username, or user id) with their recent chat and matches, sanctions,
    the reports about them and the actions taken."""

    def read() -> dict[str, Any]:
        with request.app.state.sessions() as session:
            return person_record(session, find_person(session, key))

    return await asyncio.to_thread(read)


@router.post("/warnings", status_code=201)
async def warn(body: ModerationIn, moderator: Moderator, moderation: Moderating) -> dict[str, Any]:
    return await moderation.warn(_act(moderator, body.reason, body.report_ids), body.username)


@router.post("/mutes", status_code=201)
async def mute(
    body: MuteSiteWideIn, moderator: Moderator, moderation: Moderating
) -> dict[str, Any]:
    act = _act(moderator, body.reason, body.report_ids)
    return await moderation.mute(act, body.username, body.minutes)


@router.delete("/mutes/{key}")
async def unmute(
    key: str, moderator: Moderator, moderation: Moderating, reason: str = ""
) -> dict[str, Any]:
    return await moderation.lift(_act(moderator, reason), key, "mute")


@router.post("/bans", status_code=201)
async def ban(body: BanIn, moderator: Moderator, moderation: Moderating) -> dict[str, Any]:
    act = _act(moderator, body.reason, body.report_ids)
    return await moderation.ban(act, body.username, _naive_utc(body.until))


@router.delete("/bans/{key}")
async def unban(
    key: str, moderator: Moderator, moderation: Moderating, reason: str = ""
) -> dict[str, Any]:
    return await moderation.lift(_act(moderator, reason), key, "ban")


@router.delete("/chat/{chat_id}")
async def delete_chat(
    chat_id: int, moderator: Moderator, moderation: Moderating, reason: str = ""
) -> dict[str, Any]:
    return await moderation.delete_chat(_act(moderator, reason), chat_id)


@router.post("/rooms/{room_id}/close")
async def close_table(
    room_id: str, body: ReasonIn, moderator: Moderator, moderation: Moderating
) -> dict[str, Any]:
    return await moderation.close_table(_act(moderator, body.reason), room_id)


@router.get("/log")
async def audit_log(
    request: Request,
    _moderator: Moderator,
    before: int | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = LOG_PAGE,
) -> dict[str, Any]:
    """The audit log, newest first; ``before`` the last id seen, for the next page."""

    def read() -> dict[str, Any]:
        with request.app.state.sessions() as session:
            entries = store.log_entries(session=session, limit=limit, before=before)
            people = {e.moderator_id or "" for e in entries} | {e.target_id or "" for e in entries}
            names = store.names_of(session=session, user_ids=people)
            return {"entries": [entry_wire(e, names) for e in entries]}

    return await asyncio.to_thread(read)
