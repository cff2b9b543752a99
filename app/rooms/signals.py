"""What the rooms tell the notification channels: a person's turn began, their time is nearly
out, their match ended — and, from app/social/, that a host invited them to a seat.

The rooms emit these after the change is committed; the notification outbox decides whether,
when and how the person hears of it (e-mail, Web Push, webhook). Emitting never blocks play.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class TurnAwaits:
    """It is now `user_id`'s turn at a turn-based table (they are awaited to act)."""

    user_id: str
    room_id: str
    game: str
    deadline: datetime | None


@dataclass(frozen=True, slots=True)
class DeadlineNear:
    """`user_id` is still awaited and their time per move runs out at `deadline`."""

    user_id: str
    room_id: str
    game: str
    deadline: datetime


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match at `room_id` is over; `summary` is one line a person reads ("Ann won 3-1"),
    in English; `worded` the same as a message id and its params (a list of names is joined
    in the reader's language), so that each recipient reads it in theirs."""

    user_id: str
    room_id: str
    game: str
    summary: str
    worded: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Invited:
    """`by` (a name) invited `user_id`, who had no Parlour page open, to a seat at `room_id`;
    `invitation_id` is the invitation, told only while it is still open."""

    user_id: str
    room_id: str
    game: str
    by: str
    invitation_id: str


Signal = TurnAwaits | DeadlineNear | MatchEnded | Invited


class Signals(Protocol):
    """Where the rooms send signals; implemented by the notification outbox."""

    def emit(self, signal: Signal) -> None:
        """Take the signal without blocking the caller (the event loop)."""
        ...
