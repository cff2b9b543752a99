"""Finished matches over HTTP: history (filtered, paged), a match's record, its review,
the computer's analysis of it, and its downloads (the JSON record and a readable
transcript)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

import games
from app import store
from app.http.deps import DbSession, MaybeUser
from app.i18n.languages import DEFAULT
from app.i18n.marks import N_
from app.i18n.requests import request_language
from app.models import ChatMessage, Match
from app.people.lookup import user_by_name
from app.people.sessions import Identity
from app.records import history
from app.records.analysis import analysis_record
from app.records.review import OVER, match_record, review_frames, review_talk
from app.records.transcript import transcript
from app.refusal import Refusal
from app.store import MatchFilters, analyses
from app.store import social as social_store

router = APIRouter(prefix="/api/matches")


def _match_or_404(session: DbSession, match_id: str, viewer: Identity | None) -> Match:
    """The match, if ``viewer`` may see it: a private room's match is shown only to its
    players, and to anyone else it does not exist."""
    match = store.load_match(session=session, match_id=match_id)
    viewer_id = viewer.id if viewer is not None else None
    if match is None or not store.match_visible_to(
        session=session, match_id=match_id, viewer_id=viewer_id
    ):
        raise Refusal("match_not_found", N_("There is no such match."), 404)
    return match


def _finished_or_409(match: Match) -> None:
    if match.status not in OVER:
        raise Refusal("not_finished", N_("A match can be reviewed once it is over."), 409)


def player_id(session: DbSession, username: str) -> str:
    """The user id of the account called ``username`` (or alike); ``player_not_found``."""
    user = user_by_name(session=session, name=username.strip())
    if user is None:
        raise Refusal(
            "player_not_found", N_("There is no player called {username}."), 404, username=username
        )
    return user.id


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time())


@router.get("")
def list_matches(
    session: DbSession,
    user: MaybeUser,
    game: str | None = None,
    user_id: str | None = Query(None, alias="user"),
    player: str | None = None,
    result: Literal["won", "lost"] | None = None,
    since: date | None = None,
    until: date | None = None,
    cursor: str | None = None,
    limit: int = Query(50, ge=1, le=200),
) -> dict[str, Any]:
    """Finished and abandoned matches, newest first, a page at a time (``user=me`` means
    the caller)."""
    viewer = user.id if user else None
    if game is not None and game not in games.REGISTRY:
        raise Refusal("unknown_game", N_("There is no game called {game!r}."), 422, game=game)
    if user_id is not None and player is not None:
        raise Refusal("bad_request", N_("Ask for a user or a player, not both."), 422)
    if player is not None:
        user_id = player_id(session, player)
    elif user_id == "me":
        if viewer is None:
            return {"matches": [], "next_cursor": None}
        user_id = viewer
    if result is not None and user_id is None:
        raise Refusal("bad_request", N_("A result filter needs a player (player= or user=)."), 422)
    filters = MatchFilters(
        game=game,
        user_id=user_id,
        result=result,
        since=_start_of(since) if since else None,
        before=_start_of(until + timedelta(days=1)) if until else None,
    )
    return history.page(session, filters, viewer_id=viewer, cursor=cursor, limit=limit)


def _record(session: DbSession, match: Match, language: str = DEFAULT) -> dict[str, Any]:
    changes, usernames = history.details(session, [match])
    events = store.load_events(session=session, match_id=match.id)
    return match_record(match, events, changes.get(match.id, []), usernames, language)


def _talk(session: DbSession, match_id: str, viewer: Identity | None) -> list[ChatMessage]:
    """What was said at the match, less the lines of people the viewer blocked."""
    said = store.match_chat(session=session, match_id=match_id)
    viewer_id = viewer.id if viewer is not None else None
    return social_store.talk_read_by(session=session, viewer_id=viewer_id, messages=said)


@router.get("/{match_id}")
def get_match(match_id: str, session: DbSession, user: MaybeUser) -> dict[str, Any]:
    return _record(session, _match_or_404(session, match_id, user))


@router.get("/{match_id}/review")
def review_match(
    match_id: str, request: Request, session: DbSession, user: MaybeUser
) -> dict[str, Any]:
    """A match that is over, step by step, its moves told in the request's language."""
    match = _match_or_404(session, match_id, user)
    _finished_or_409(match)
    events = store.load_events(session=session, match_id=match_id)
    language = request_language(request)
    return {
        "match": _record(session, match, language),
        "frames": review_frames(match, events, language),
        "chat": review_talk(_talk(session, match_id, user)),
    }


@router.get("/{match_id}/analysis")
def analyse_match(
    match_id: str, request: Request, session: DbSession, user: MaybeUser
) -> dict[str, Any]:
    """The computer's analysis of a match that is over: pending until its decisions are
    judged (queued now if it never was), then each person's decisions and accuracy, the
    best moves told in the request's language."""
    match = _match_or_404(session, match_id, user)
    _finished_or_409(match)
    row = analyses.ensure_analysis(session=session, match_id=match_id)
    return analysis_record(match, row, request_language(request))


def _attachment(match: Match, extension: str) -> dict[str, str]:
    name = f"parlour-{match.game}-{match.id}.{extension}"
    return {"Content-Disposition": f'attachment; filename="{name}"'}


@router.get("/{match_id}/record.json")
def download_record(match_id: str, session: DbSession, user: MaybeUser) -> Response:
    """The finished match's record, as a file."""
    match = _match_or_404(session, match_id, user)
    _finished_or_409(match)
    return JSONResponse(_record(session, match), headers=_attachment(match, "json"))


@router.get("/{match_id}/transcript.txt")
def download_transcript(
    match_id: str, request: Request, session: DbSession, user: MaybeUser
) -> Response:
    """The finished match in words: every move (told in the request's language), what was
    said, the seed and its hash."""
    match = _match_or_404(session, match_id, user)
    _finished_or_409(match)
    changes, usernames = history.details(session, [match])
    text = transcript(
        match,
        store.load_events(session=session, match_id=match_id),
        changes.get(match.id, []),
        usernames,
        _talk(session, match_id, user),
        request_language(request),
    )
    return PlainTextResponse(text, headers=_attachment(match, "txt"))
