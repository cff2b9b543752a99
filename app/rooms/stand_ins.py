"""Computers standing in for people during a match, and people taking their seats back.

A person's seat passes to a computer mid-match in three ways: the host gives it one once
the person has been away for the absence grace (``replace``, POST /bots), the clock has
played the person's moves twice in a row (``take_over``), or — at a turn-based table —
another player lets a computer play once the person's deadline has passed
(``after_deadline``, POST /bots too). Whichever way, the computer *stands
in* for the person: the seat remembers them, and at any moment before the match ends they
may take it back (``reclaim``, POST /reclaim). The computer stops at once: the referee
refuses a computer's move for a seat that is no longer a computer's, even one already on
its way. A rated match stays rated either way; whoever a computer still stands in for when
it ends walked away, and is rated last (app/ratings/ledger.py).
"""

from __future__ import annotations

from typing import Any

from app import store
from app.i18n.marks import N_
from app.refusal import Refusal
from app.rooms import turn_clocks
from app.rooms.notifier import Notifier, Presence
from app.rooms.pace import deadline_columns, move_clock, out_of_time
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.referee import set_turn_clocks
from app.rooms.storage import RoomStorage
from app.rooms.time_source import TimeSource


def holder_columns(holder: SeatHolder) -> dict[str, Any]:
    """A seat holder as the seats table stores it."""
    return {
        "user_id": holder.user_id,
        "bot": holder.bot,
        "name": holder.name,
        "stand_in_for": holder.stand_in_for,
        "stand_in_name": holder.stand_in_name,
    }


class StandIns:
    """The verbs that hand a person's seat to a computer and back, during a match."""

    def __init__(
        self,
        storage: RoomStorage,
        notifier: Notifier,
        presence: Presence,
        time_source: TimeSource,
        *,
        grace: float,
    ) -> None:
        self.storage = storage
        self.notifier = notifier
        self.presence = presence
        self.time_source = time_source
        self.grace = grace

    async def replace(self, room: LiveRoom, *, user_id: str, seat: int, kind: str) -> None:
        """The host lets a computer play for a person who has been away for the grace."""
        async with room.lock:
            if room.host_id != user_id:
                raise Refusal("not_host", N_("Only the host can do that."), 403)
            if room.status != "playing":
                raise Refusal("match_over", N_("This match is over."))
            holder = room.seats[seat]
            if holder is None or holder.user_id is None:
                raise Refusal("seat_taken", N_("Seat {seat} is already a computer."), seat=seat + 1)
            if holder.user_id in self.presence.connected_users(room.id):
                raise Refusal(
                    "seat_taken",
                    N_("{name} is still connected to seat {seat}."),
                    name=holder.name,
                    seat=seat + 1,
                )
            now = self.time_source.now()
            since = room.away_since[seat]
            away = 0.0 if since is None else now - since
            if away < self.grace:
                raise Refusal(
                    "absence_grace",
                    N_(
                        "{name} has been away for {away} s; a computer may take the seat once "
                        "they have been away for {grace} s."
                    ),
                    name=holder.name,
                    away=int(away),
                    grace=int(self.grace),
                )
            await self._stand_in(room, seat, kind)

    async def take_over(self, room: LiveRoom, seat: int) -> None:
        """A computer takes the seat of a person whose moves the clock played twice in a
        row (app/rooms/timers.py calls this)."""
        async with room.lock:
            holder = room.seats[seat]
            clocks = room.turn_clocks
            if (
                room.status != "playing"
                or holder is None
                or holder.user_id is None
                or clocks is None
                or clocks.timeouts[seat] < turn_clocks.TIMEOUTS_BEFORE_STAND_IN
            ):
                return
            await self._stand_in(room, seat, "heuristic")

    async def after_deadline(self, room: LiveRoom, *, user_id: str, seat: int, kind: str) -> None:
        """At a turn-based table, another seated person lets a computer play the seat of a
        person whose deadline has passed, until they take it back."""
        async with room.lock:
            if room.status != "playing":
                raise Refusal("match_over", N_("This match is over."))
            if room.seat_of(user_id) is None:
                raise Refusal("not_seated", N_("Only the players can do that."), 403)
            holder = room.seats[seat]
            if holder is None or holder.user_id is None:
                raise Refusal("seat_taken", N_("Seat {seat} is already a computer."), seat=seat + 1)
            if holder.user_id == user_id:
                raise Refusal("seat_taken", N_("That is your own seat."))
            if seat not in out_of_time(room, self.time_source.now()):
                raise Refusal(
                    "deadline_not_passed",
                    N_("{name}'s time to move has not run out."),
                    name=holder.name,
                )
            await self._stand_in(room, seat, kind)

    async def _stand_in(self, room: LiveRoom, seat: int, kind: str) -> None:
        person = room.seats[seat]
        assert person is not None and person.user_id is not None
        computer = SeatHolder(None, kind, room.computer_name(seat), person.user_id, person.name)
        seats = [computer if s == seat else h for s, h in enumerate(room.seats)]
        # A rated match stays rated: if the person has not taken the seat back by the end,
        # they are rated as having walked away (app/ratings/ledger.py).
        await self.storage.call(
            store.put_seat,
            room_id=room.id,
            seat=seat,
            holder=holder_columns(computer),
            room_changes=deadline_columns(room, room.turn_clocks, room.state, seats),
        )
        room.seats[seat] = computer
        room.described()
        self.notifier.room_changed(room)

    async def reclaim(self, room: LiveRoom, *, user_id: str) -> int:
        """The person a computer stands in for takes their seat back; returns the seat."""
        async with room.lock:
            if room.status == "waiting":
                raise Refusal("match_not_started", N_("The match has not started yet."))
            if room.status == "closed":
                raise Refusal("room_closed", N_("This table was closed before its match started."))
            if room.status != "playing":
                raise Refusal("match_over", N_("The match is over."))
            seat = room.stood_in_seat(user_id)
            if seat is None:
                raise Refusal(
                    "nothing_to_reclaim",
                    N_("No computer is playing a seat of yours at this table."),
                )
            computer = room.seats[seat]
            assert computer is not None
            back = SeatHolder(user_id, None, computer.stand_in_name or computer.name)
            clocks = room.turn_clocks
            changes: dict[str, Any] = {}
            setting = move_clock(room)
            if setting is not None and clocks is not None:
                clocks = turn_clocks.seat_back(setting, clocks, seat, self.time_source.now())
                changes["clock_state"] = clocks.to_json()
            seats = [back if s == seat else h for s, h in enumerate(room.seats)]
            changes.update(deadline_columns(room, clocks, room.state, seats))
            await self.storage.call(
                store.put_seat,
                room_id=room.id,
                seat=seat,
                holder=holder_columns(back),
                room_changes=changes,
            )
            room.seats[seat] = back
            set_turn_clocks(room, clocks)
            room.described()
            self.notifier.room_changed(room)
            return seat
