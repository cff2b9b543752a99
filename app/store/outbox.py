"""The notification outbox: what is still to be delivered, on which channel, and when.

A row is written in the transaction that takes a signal in, claimed by one delivering
process at a time (a lease: ``lease_until``/``leased_by``, taken with ``FOR UPDATE SKIP
LOCKED`` on PostgreSQL and, on every database, by a conditional update that only one
claimer can win), and deleted once delivered or given up. A failure puts it back with a
later ``due_at``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from app.models import OutboxItem


def add_outbox_items(*, session: Session, items: Iterable[dict[str, Any]]) -> int:
    rows = list(items)
    if rows:
        session.execute(insert(OutboxItem), rows)  # one statement for them all
    return len(rows)


def _claimable(now: datetime) -> Any:
    return and_(
        OutboxItem.due_at <= now,
        or_(OutboxItem.lease_until.is_(None), OutboxItem.lease_until < now),
    )


def claim_outbox(
    *, session: Session, now: datetime, lease_until: datetime, worker: str, limit: int
) -> list[OutboxItem]:
    """Claim up to ``limit`` due rows for ``worker`` until ``lease_until`` and commit; the
    rows claimed, oldest due first. Rows another process holds are skipped, not waited for."""
    candidates = session.scalars(
        select(OutboxItem.id)
        .where(_claimable(now))
        .order_by(OutboxItem.due_at, OutboxItem.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    ).all()
    if not candidates:
        session.rollback()
        return []
    # The condition again: on SQLite (no row locks) two claimers may have read the same
    # rows, and only one update of each row finds it still free.
    session.execute(
        update(OutboxItem)
        .where(OutboxItem.id.in_(candidates), _claimable(now))
        .values(lease_until=lease_until, leased_by=worker)
        .execution_options(synchronize_session=False)
    )
    session.commit()
    claimed = select(OutboxItem).where(
        OutboxItem.id.in_(candidates),
        OutboxItem.leased_by == worker,
        OutboxItem.lease_until == lease_until,
    )
    rows = list(session.scalars(claimed.order_by(OutboxItem.due_at, OutboxItem.id)))
    session.commit()
    return rows


def finish_outbox(*, session: Session, item_ids: Iterable[int]) -> None:
    """Delivered, or given up: the rows go."""
    session.execute(delete(OutboxItem).where(OutboxItem.id.in_(list(item_ids))))


def put_back_outbox(
    *, session: Session, item_ids: Iterable[int], due_at: datetime, failed: bool
) -> None:
    """Release the rows to be tried again at ``due_at`` (counting an attempt if ``failed``)."""
    values: dict[str, Any] = {"due_at": due_at, "lease_until": None, "leased_by": None}
    if failed:
        values["attempts"] = OutboxItem.attempts + 1
    session.execute(
        update(OutboxItem)
        .where(OutboxItem.id.in_(list(item_ids)))
        .values(**values)
        .execution_options(synchronize_session=False)
    )


def drop_pending(*, session: Session, user_id: str, channel: str) -> None:
    """Forget what is still to go to the person on a channel they turned off (or that
    was disabled)."""
    session.execute(
        delete(OutboxItem).where(OutboxItem.user_id == user_id, OutboxItem.channel == channel)
    )


def drop_earlier(*, session: Session, user_id: str, room_id: str, kind: str) -> None:
    """Forget what is still to go to the person about the table for this kind of event:
    a newer one of the same kind (their next turn there) replaces it."""
    session.execute(
        delete(OutboxItem).where(
            OutboxItem.user_id == user_id, OutboxItem.room_id == room_id, OutboxItem.kind == kind
        )
    )


def pending_count(*, session: Session) -> int:
    """How many notifications wait in the outbox (delivered ones are gone)."""
    return int(session.scalar(select(func.count()).select_from(OutboxItem)) or 0)
