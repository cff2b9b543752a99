"""What moderators see of a person, and what a person sees of the moderators' word on
them: their sanctions in force and the warnings they were given."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.models import User, iso, utcnow
from app.moderation.actions import entry_wire
from app.moderation.reports import line_evidence, mark_deleted, report_wire
from app.moderation.sanctions import wire
from app.store import moderation as store

LINES = 50
MATCHES = 20
REPORTS = 20
ENTRIES = 50
WARNINGS = 10


def person_record(session: Session, user: User) -> dict[str, Any]:
    """A person for the moderators: who they are, their sanctions, latest chat lines and
    matches, the reports about them and what moderators did about them."""
    now = utcnow()
    reports = store.reports_about(session=session, user_id=user.id, limit=REPORTS)
    entries = store.log_entries(session=session, limit=ENTRIES, target_id=user.id)
    people = {user.id} | {r.reporter_id for r in reports} | {r.handled_by or "" for r in reports}
    people |= {e.moderator_id or "" for e in entries}
    names = store.names_of(session=session, user_ids=people)
    return {
        "user": {
            "user_id": user.id,
            "username": user.username,
            "name": user.name,
            "moderator": store.is_moderator(session=session, user_id=user.id),
            "since": iso(user.created_at),
        },
        "sanctions": [
            wire(s) for s in store.sanctions_of(session=session, user_id=user.id, now=now)
        ],
        "chat": [
            line_evidence(line)
            for line in store.lines_of(session=session, user_id=user.id, limit=LINES)
        ],
        "matches": [
            {
                "id": match.id,
                "room_id": match.room_id,
                "game": match.game,
                "status": match.status,
                "started_at": iso(match.created_at),
                "finished_at": iso(match.finished_at),
            }
            for match in store.matches_of(session=session, user_id=user.id, limit=MATCHES)
        ],
        "reports": mark_deleted(session, [report_wire(report, names) for report in reports]),
        "log": [entry_wire(entry, names) for entry in entries],
    }


def own_standing(session: Session, user_id: str) -> dict[str, Any]:
    """What a person is told of the moderators' word on them: the mute or ban in force
    (why, until when) and their latest warnings."""
    warnings = [
        {"at": iso(entry.at), "reason": entry.reason}
        for entry in store.log_entries(session=session, limit=ENTRIES, target_id=user_id)
        if entry.action == "warn"
    ][:WARNINGS]
    sanctions = store.sanctions_of(session=session, user_id=user_id, now=utcnow())
    return {"sanctions": [wire(s) for s in sanctions], "warnings": warnings}
