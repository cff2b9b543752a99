"""History: the finished matches a viewer may see, filtered and a page at a time, each with
who played (and their usernames), the result and what it did to the ratings.

Pages follow a cursor — the (finish time, id) of the last match of the page, opaque to
clients — rather than an offset, so a match finishing meanwhile never shifts a page.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy.orm import Session

from app import store
from app.i18n.marks import N_
from app.models import Match, RatingChange
from app.records.review import match_summary
from app.refusal import Refusal
from app.store import MatchFilters


def encode_cursor(match: Match) -> str:
    assert match.finished_at is not None
    raw = orjson.dumps([match.finished_at.isoformat(), match.id])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """The cursor's (finish time, match id); ``bad_cursor`` when it is not one of ours."""
    try:
        at, match_id = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        return datetime.fromisoformat(at), str(match_id)
    except (ValueError, TypeError, binascii.Error):
        raise Refusal(
            "bad_cursor", N_("That cursor is not one this server gave out."), 422
        ) from None


def details(
    session: Session, matches: Sequence[Match]
) -> tuple[dict[str, list[RatingChange]], dict[str, str | None]]:
    """The matches' rating changes (by match) and their players' usernames (by user id)."""
    changes: dict[str, list[RatingChange]] = {}
    for change in store.rating_changes_of(session=session, match_ids=[m.id for m in matches]):
        changes.setdefault(change.match_id, []).append(change)
    user_ids = {p["user_id"] for m in matches for p in m.players if p.get("user_id")}
    users = store.users_by_id(session=session, user_ids=user_ids)
    return changes, {user_id: user.username for user_id, user in users.items()}


def summaries(session: Session, matches: Sequence[Match]) -> list[dict[str, Any]]:
    changes, usernames = details(session, matches)
    return [match_summary(m, changes.get(m.id, []), usernames) for m in matches]


def page(
    session: Session,
    filters: MatchFilters,
    *,
    viewer_id: str | None,
    cursor: str | None,
    limit: int,
) -> dict[str, Any]:
    """One page of history: ``{"matches": [...], "next_cursor": str | None}``."""
    after = decode_cursor(cursor) if cursor else None
    rows = store.finished_matches(
        session=session, filters=filters, viewer_id=viewer_id, after=after, limit=limit + 1
    )
    more = len(rows) > limit
    rows = rows[:limit]
    return {
        "matches": summaries(session, rows),
        "next_cursor": encode_cursor(rows[-1]) if more else None,
    }
