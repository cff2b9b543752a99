"""Finished matches over HTTP: the history list, a match's record, and its review."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from app import store
from app.deps import DbSession, MaybeUser
from app.models import Match
from app.review import OVER, match_record, match_summary, review_frames
from app.rooms import RoomError

router = APIRouter(prefix="/api/matches")


def _match_or_404(session: DbSession, match_id: str) -> Match:
    match = store.load_match(session=session, match_id=match_id)
    if match is None:
        raise RoomError("match_not_found", "There is no such match.", 404)
    return match


@router.get("")
def list_matches(
    session: DbSession,
    user: MaybeUser,
    game: str | None = None,
    user_id: str | None = Query(None, alias="user"),
    limit: int = Query(50, ge=1, le=200),
) -> list[dict[str, Any]]:
    """Finished and abandoned matches, newest first (``user=me`` means the caller)."""
    viewer = user.id if user else None
    if user_id == "me":
        if viewer is None:
            return []
        user_id = viewer
    rows = store.finished_matches(
        session=session, game=game, user_id=user_id, viewer_id=viewer, limit=limit
    )
    return [match_summary(m) for m in rows]


@router.get("/{match_id}")
def get_match(match_id: str, session: DbSession) -> dict[str, Any]:
    match = _match_or_404(session, match_id)
    return match_record(match, store.load_events(session=session, match_id=match_id))


@router.get("/{match_id}/review")
def review_match(match_id: str, session: DbSession) -> dict[str, Any]:
    match = _match_or_404(session, match_id)
    if match.status not in OVER:
        raise RoomError("not_finished", "A match can be reviewed once it is over.", 409)
    events = store.load_events(session=session, match_id=match_id)
    return {"match": match_record(match, events), "frames": review_frames(match, events)}
