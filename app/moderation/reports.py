"""Filing a report: who reports whom, why, and the evidence the server attaches itself.

Any account may report a person — from their player page (by username), from a chat line
(its id: the line must be theirs) or from a table (its id; a guest seated there is named
by the name the table shows). The reporter chooses a reason
from a short list and may add words; the server attaches what it knows: the line itself,
the reported person's other lines at that table, the room and its match. The evidence is
copied into the report, so it stays for the moderators even if a line is deleted later.
A reporter may file only so many reports an hour.
"""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session

from app.i18n.marks import N_
from app.models import ChatMessage, Report, Room, User, iso, utcnow
from app.people.lookup import user_by_name
from app.refusal import Refusal
from app.store import moderation as store

REASONS = ("abuse", "cheating", "spam", "other")
TEXT_MAX = 1000
PER_HOUR = 10  # reports one person may file in an hour
LINES_ATTACHED = 50  # of the reported person's lines at the table


def line_evidence(line: ChatMessage) -> dict[str, Any]:
    """A chat line as a report keeps it."""
    return {
        "id": line.id,
        "room_id": line.room_id,
        "match_id": line.match_id,
        "channel": line.channel,
        "name": line.name,
        "text": line.text,
        "at": iso(line.at),
    }


def _reported(session: Session, username: str, line: ChatMessage | None, room: Room | None) -> User:
    """The person reported: the account of that username or, reporting a guest's line,
    its speaker under the name the line shows, or, reporting from a table, the guest
    seated there under that name."""
    name = username.strip()
    account = user_by_name(session=session, name=name)
    if account is not None:
        return account
    if line is not None and line.name == name:
        speaker = session.get(User, line.user_id)
        if speaker is not None:
            return speaker
    seated = [seat.user_id for seat in room.seats if seat.name == name] if room else []
    if seated and seated[0] is not None:
        guest = session.get(User, seated[0])
        if guest is not None:
            return guest
    raise Refusal(
        "player_not_found", N_("There is no player called {username}."), 404, username=username
    )


def file_report(
    session: Session,
    *,
    reporter_id: str,
    username: str,
    reason: str,
    text: str,
    room_id: str | None,
    chat_id: int | None,
) -> Report:
    """Check and store a report with its evidence (committed); a Refusal changes nothing."""
    if reason not in REASONS:
        raise Refusal(
            "bad_reason",
            N_("A report's reason is one of {reasons}."),
            422,
            reasons=", ".join(REASONS),
        )
    words = text.strip()
    if len(words) > TEXT_MAX:
        raise Refusal("bad_text", N_("Say it in at most {most} characters."), 422, most=TEXT_MAX)
    line = None
    if chat_id is not None:
        line = store.chat_line(session=session, chat_id=chat_id)
        if line is None:
            raise Refusal("chat_not_found", N_("There is no such chat line (any more)."), 404)
        if room_id is not None and line.room_id != room_id:
            raise Refusal("bad_evidence", N_("That chat line was not said at that table."), 422)
        room_id = line.room_id
    room = None
    if room_id is not None:
        room = session.get(Room, room_id)
        if room is None:
            raise Refusal("room_not_found", N_("There is no such room."), 404)
    reported = _reported(session, username, line, room)
    if reported.id == reporter_id:
        raise Refusal("report_self", N_("You cannot report yourself."), 422)
    if line is not None and line.user_id != reported.id:
        raise Refusal(
            "bad_evidence", N_("That chat line is not {username}'s."), 422, username=username
        )
    now = utcnow()
    since = now - timedelta(hours=1)
    if store.reports_since(session=session, reporter_id=reporter_id, since=since) >= PER_HOUR:
        raise Refusal(
            "too_many_reports",
            N_("You may send {count} reports an hour; the moderators have yours."),
            429,
            count=PER_HOUR,
        )
    evidence: dict[str, Any] = {"username": reported.username, "name": reported.name}
    if line is not None:
        evidence["line"] = line_evidence(line)
    if room is not None:
        evidence["game"] = room.game
        said = store.lines_of(
            session=session, user_id=reported.id, room_id=room.id, limit=LINES_ATTACHED
        )
        evidence["lines"] = [line_evidence(m) for m in reversed(said)]
    report = Report(
        reporter_id=reporter_id,
        reported_id=reported.id,
        reason=reason,
        text=words,
        room_id=room.id if room is not None else None,
        match_id=(line.match_id if line is not None and line.match_id else None)
        or (room.match_id if room is not None else None),
        chat_id=chat_id,
        evidence=evidence,
        created_at=now,
        status="open",
    )
    session.add(report)
    session.commit()
    return report


def mark_deleted(session: Session, reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mark the evidence's lines a moderator deleted since (``"deleted": true``): the
    report keeps their words, and the page offers no "Delete line" on them."""
    lines = [
        line
        for report in reports
        for line in [report["evidence"].get("line"), *report["evidence"].get("lines", [])]
        if line is not None
    ]
    present = store.existing_lines(session=session, chat_ids={line["id"] for line in lines})
    for line in lines:
        line["deleted"] = line["id"] not in present
    return reports


def report_wire(report: Report, names: dict[str, str]) -> dict[str, Any]:
    """A report as the moderators' queue shows it (``names``: people's names by id)."""
    return {
        "id": report.id,
        "reporter": names.get(report.reporter_id),
        "username": report.evidence.get("username"),
        "name": names.get(report.reported_id),
        "user_id": report.reported_id,
        "reason": report.reason,
        "text": report.text,
        "room_id": report.room_id,
        "match_id": report.match_id,
        "chat_id": report.chat_id,
        "evidence": copy.deepcopy(report.evidence),
        "at": iso(report.created_at),
        "status": report.status,
        "handled_by": names.get(report.handled_by) if report.handled_by else None,
        "handled_at": iso(report.handled_at),
    }
