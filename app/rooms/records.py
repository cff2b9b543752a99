"""The live room records: what one table is in memory.

A :class:`LiveRoom` is plain data. The modules beside this one change it, each its own
part: the lobby its seats and status before the match, the referee its game state and
version, the registry which rooms are in memory at all.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from app.people.confusables import name_key
from app.rooms.turn_clocks import TurnClocks
from games import Rules

# The names computer players take, the first one free at the table.
COMPUTER_NAMES = ("Ada", "Babbage", "Turing", "Hopper", "Lovelace", "Knuth")

# Statuses of a room whose table is over: played to the end, closed before its start, or
# abandoned mid-match (nobody was at it for the stale time).
ENDED = ("finished", "closed", "abandoned")


@dataclass
class SeatHolder:
    """Who holds a seat: a person (``user_id``) or a computer player (``bot``: its kind).

    A computer that took a person's seat during a match stands in for them
    (``stand_in_for``, their user id, and ``stand_in_name``): they may take it back.
    """

    user_id: str | None
    bot: str | None
    name: str
    stand_in_for: str | None = None
    stand_in_name: str | None = None

    @property
    def person(self) -> str | None:
        """The person whose seat this is: its holder, or whom its computer stands in for."""
        return self.user_id if self.user_id is not None else self.stand_in_for


@dataclass
class RematchOffer:
    """A rematch proposed in place at the end of a match (app/rooms/rematch_offers.py):
    the seat that proposed it, the seats that accepted it (the proposer's, and every computer
    the host chose), the seat that declined it (it then stands no more), and whether it
    started — the new match is then played in the room named by ``rematch_id``."""

    by: int
    accepted: list[int]
    declined: int | None = None
    started: bool = False


@dataclass
class LiveRoom:
    """One table in memory. Its fields change only under ``lock``."""

    id: str
    code: str | None  # None: private, or ended (see app/models.py)
    rules: Rules[Any]
    seat_count: int
    options: dict[str, Any]
    visibility: str
    status: str  # "waiting" -> "playing" -> "finished"; or "closed", "abandoned" (ENDED)
    host_id: str
    created_at: str
    seats: list[SeatHolder | None]
    match_id: str | None = None
    seed: int | None = None
    seed_hash: str | None = None
    state: Any = None
    # The number of actions played: the match's last event's seq.
    version: int = 0
    # What the last action was, publicly: its seat, type, who made it and how, and the
    # game's account of it (referee.public_event).
    last_event: dict[str, Any] | None = None
    # The last action in full, (seq, seat, action, played_by): for other processes' copies
    # of the room (app/cluster), never for clients.
    last_action: tuple[int, int, dict[str, Any], str] | None = None
    rematch_id: str | None = None
    # A rematch proposed at the end of the match, as long as this process holds the room.
    rematch_offer: RematchOffer | None = None
    # A rated table: accounts only, no computers of the host's choosing (a computer standing
    # in for a person who left keeps it rated: app/ratings/ledger.py).
    rated: bool = False
    # The time control ({"turn", "bank"}: seconds per turn and banked, or None: untimed) and,
    # once the match started, the seats' turn clocks (app/rooms/turn_clocks.py).
    time_control: dict[str, int] | None = None
    turn_clocks: TurnClocks | None = None
    # The pace: "live", or "turn_based" with ``days_per_move`` days for each move — its
    # turn clocks then hold each awaited seat's deadline (app/rooms/pace.py).
    pace: str = "live"
    days_per_move: int | None = None
    # The seats whose time ran out when the match was claimed here (Referee.claim).
    ran_out: list[int] = field(default_factory=list)
    # Per seat: since when its person has had no open connection (None: connected, or no
    # person); and since when no seat's person has been connected. Stamped by the room's
    # owner (app/rooms/away.py) and carried to other processes in its notices.
    away_since: list[float | None] = field(default_factory=list)
    vacant_since: float | None = None
    # Who ended the table before its time ("moderator"; None: it ended by itself).
    closed_by: str | None = None
    # The host's chat settings: whether the players read the watchers' channel, and who
    # is muted here (user ids, sorted).
    watchers_chat: bool = True
    muted: list[str] = field(default_factory=list)
    # What each mute also covers (app/chat/mutes.py): {user id: {"at", "browsers",
    # "addresses"}}. Carried between processes, never to clients.
    mute_marks: dict[str, Any] = field(default_factory=dict)
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

    def __post_init__(self) -> None:
        if not self.away_since:
            self.away_since = [None] * self.seat_count

    def seat_of(self, user_id: str | None) -> int | None:
        """The seat ``user_id`` holds here, if any."""
        if user_id is None:
            return None
        for index, holder in enumerate(self.seats):
            if holder is not None and holder.user_id == user_id:
                return index
        return None

    def stood_in_seat(self, user_id: str | None) -> int | None:
        """The seat a computer plays for ``user_id`` here, if any."""
        if user_id is None:
            return None
        for index, holder in enumerate(self.seats):
            if holder is not None and holder.bot is not None and holder.stand_in_for == user_id:
                return index
        return None

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    def computer_name(self, seat: int) -> str:
        """A name for a computer player about to sit in ``seat``: one nobody here has."""
        taken = {name_key(h.name) for h in self.seats if h is not None}
        return next((n for n in COMPUTER_NAMES if name_key(n) not in taken), f"Computer {seat + 1}")

    def bot_seats(self) -> list[int]:
        """The seats held by computer players."""
        return [i for i, h in enumerate(self.seats) if h is not None and h.bot is not None]

    def described(self) -> None:
        """The room description changed: connections must be sent it again."""
        self.meta_version += 1
