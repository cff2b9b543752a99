"""The queue of match analyses: queued in the transaction that finishes a match, claimed by
one process at a time, renewed while it works, stored when done.

The newest job is claimed first. An analysis is read by the people who just played, at the
end of their match; when matches end faster than the workers judge them (a busy server),
oldest first would keep everyone waiting behind the whole backlog, while newest first keeps
each fresh match's analysis prompt and leaves the backlog for a quieter hour.

A claim is a lease: ``claimed_at`` says when the process working on a job last renewed it,
and a job whose claim is older than ``LEASE`` is anyone's to take. So a job outlives the
process that had it (it is resumed once the lease runs out, or at once by a lone process
starting again: ``release_claims``), and two processes never analyse one match at once
unless one of them stalls for longer than the lease (the second then writes the same
analysis: it is deterministic).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.models import Match, MatchAnalysis, MatchPlayer, table, utcnow
from app.store.matches import visible_to

# How long a claim holds without being renewed (a worker renews it after every decision).
LEASE = timedelta(seconds=60)


# Run as every match finishes: built once (app/store/matches.py says why).
_QUEUE = insert(table(MatchAnalysis))


def queue_analysis(connection: Connection, match_id: str, finished_at: datetime) -> None:
    """Queue the analysis of a match that just finished: the event log's finishing hook,
    in the transaction that writes the match's last event (so a finished match is never
    without its job)."""
    connection.execute(
        _QUEUE, {"match_id": match_id, "status": "pending", "queued_at": finished_at}
    )


def ensure_analysis(*, session: Session, match_id: str) -> MatchAnalysis:
    """The match's analysis, queued now if it never was (a match over before analyses
    were queued, or abandoned)."""
    found = session.get(MatchAnalysis, match_id)
    if found is not None:
        return found
    session.add(MatchAnalysis(match_id=match_id, status="pending"))
    try:
        session.commit()
    except IntegrityError:  # queued meanwhile by another request
        session.rollback()
    found = session.get(MatchAnalysis, match_id)
    assert found is not None
    return found


def _claimable(now: datetime) -> Any:
    return and_(
        MatchAnalysis.status == "pending",
        or_(MatchAnalysis.claimed_at.is_(None), MatchAnalysis.claimed_at < now - LEASE),
    )


def claim_analysis(
    *, session: Session, now: datetime | None = None, oldest: bool = False
) -> str | None:
    """Claim the newest pending analysis nobody holds (``oldest``: the oldest); its match
    id, or None."""
    now = now or utcnow()
    order = (
        (MatchAnalysis.queued_at.asc(), MatchAnalysis.match_id.asc())
        if oldest
        else (MatchAnalysis.queued_at.desc(), MatchAnalysis.match_id.desc())
    )
    for match_id in session.scalars(
        select(MatchAnalysis.match_id).where(_claimable(now)).order_by(*order).limit(5)
    ).all():
        # Only one of two processes racing for the job updates the row.
        claimed = session.execute(
            update(MatchAnalysis)
            .where(MatchAnalysis.match_id == match_id, _claimable(now))
            .values(claimed_at=now)
        )
        session.commit()
        if claimed.rowcount == 1:  # type: ignore[attr-defined]
            return str(match_id)
    return None


def renew_claim(*, session: Session, match_id: str) -> None:
    """The worker is still at it: the lease starts again."""
    session.execute(
        update(MatchAnalysis)
        .where(MatchAnalysis.match_id == match_id, MatchAnalysis.status == "pending")
        .values(claimed_at=utcnow())
    )
    session.commit()


def release_claims(*, session: Session, match_ids: Sequence[str] | None = None) -> None:
    """Let go of claims: these jobs' (a process shutting down), or every pending job's (a
    lone process starting: whoever held them is gone)."""
    query = update(MatchAnalysis).where(MatchAnalysis.status == "pending")
    if match_ids is not None:
        query = query.where(MatchAnalysis.match_id.in_(match_ids))
    session.execute(query.values(claimed_at=None))
    session.commit()


def save_analysis(
    *,
    session: Session,
    match_id: str,
    decisions: list[dict[str, Any]],
    accuracy: Mapping[str, float],
) -> None:
    """The analysis is done: its decisions and each seat's accuracy."""
    session.execute(
        update(MatchAnalysis)
        .where(MatchAnalysis.match_id == match_id)
        .values(status="done", decisions=decisions, accuracy=dict(accuracy), done_at=utcnow())
    )
    session.commit()


def accuracy_by_game(
    *, session: Session, user_id: str, viewer_id: str | None
) -> dict[str, tuple[float, int]]:
    """A user's average accuracy per game over their analysed matches that ``viewer_id``
    may see, with how many matches it averages."""
    rows = session.execute(
        select(Match.game, MatchPlayer.seat, MatchAnalysis.accuracy)
        .join(MatchPlayer, MatchPlayer.match_id == Match.id)
        .join(MatchAnalysis, MatchAnalysis.match_id == Match.id)
        .where(
            MatchPlayer.user_id == user_id,
            MatchAnalysis.status == "done",
            visible_to(viewer_id),
        )
    ).all()
    figures: dict[str, list[float]] = {}
    for game, seat, accuracy in rows:
        figure = (accuracy or {}).get(str(seat))
        if figure is not None:
            figures.setdefault(game, []).append(float(figure))
    return {
        game: (round(sum(values) / len(values), 1), len(values))
        for game, values in sorted(figures.items())
    }
