"""The live room records: what one table is in memory.

A :class:`LiveRoom` is plain data. The modules beside this one change it, each its own
part: the lobby its seats and status before the match, the referee its game state and
version, the registry which rooms are in memory at all.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from games import Rules


@dataclass
class SeatHolder:
    """Who holds a seat: a person (``user_id``) or a computer player (``bot``: its kind)."""

    user_id: str | None
    bot: str | None
    name: str


@dataclass
class LiveRoom:
    """One table in memory. Its fields change only under ``lock``."""

    id: str
    code: str
    rules: Rules[Any]
    seat_count: int
    options: dict[str, Any]
    visibility: str
    status: str  # "waiting" -> "playing" -> "finished"
    host_id: str
    created_at: str
    seats: list[SeatHolder | None]
    match_id: str | None = None
    seed: int | None = None
    seed_hash: str | None = None
    state: Any = None
    # The number of actions played: the match's last event's seq.
    version: int = 0
    # What the last action was, publicly (its seat and type; see referee.public_event).
    last_event: dict[str, Any] | None = None
    # The last action in full, (seq, seat, action): for other processes' copies of the
    # room (app/cluster), never for clients.
    last_action: tuple[int, int, dict[str, Any]] | None = None
    rematch_id: str | None = None
    # A rated table (accounts only, no computers) until a computer takes a seat over.
    rated: bool = False
    # Bumped whenever the room description changes (seats, status, presence), so that a
    # connection knows to send it again.
    meta_version: int = 0
    # Whether this process referees the room (always, when one process runs alone); with
    # several processes the others hold a copy that follows the owner's notices.
    owned: bool = True
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Rendered messages for the current (meta_version, version), shared by connections of
    # the same seat (render.py owns it).
    rendered: dict[Any, str] = field(default_factory=dict)
    rendered_at: tuple[int, int] = (-1, -1)

    def seat_of(self, user_id: str | None) -> int | None:
        """The seat ``user_id`` holds here, if any."""
        if user_id is None:
            return None
        for index, holder in enumerate(self.seats):
            if holder is not None and holder.user_id == user_id:
                return index
        return None

    def bot_seats(self) -> list[int]:
        """The seats held by computer players."""
        return [i for i, h in enumerate(self.seats) if h is not None and h.bot is not None]

    def described(self) -> None:
        """The room description changed: connections must be sent it again."""
        self.meta_version += 1
