"""The room's timers: what happens when nobody does anything. They run only on the room's
owner (``room.owned``), like the computer-player driver; other processes' copies see the
results in the owner's notices.

One timer per room, set for the earliest of:

- a turn clock running out: the clock plays the seat's move with the heuristic computer
  player, marked as a timeout; after two in a row a computer takes the seat over
  (app/rooms/turn_clocks.py, app/rooms/stand_ins.py);
- the host away for the absence grace while another seated person is here: the host role
  passes on (the lobby's ``hand_over_host``);
- the table vacant — no seat's person connected — for the stale time: a waiting table
  closes, a match is abandoned.

Told of every change of a room (it is one of the rooms' listeners), it sets the room's
timer again (a turn-based table never has one: none of this applies to it,
app/rooms/pace.py). When a process takes charge of a running match (a restart, a
takeover), the awaited seats' turns start afresh first (``Referee.restart_clocks``).
Each step is checked again under the room's lock by the verb that takes it, so a timer
that fires late, or for a room that moved on, changes nothing it should not. A step that
fails (the database is down) is tried again after ``retry_pause``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from app.observability.context import room_task
from app.refusal import Refusal
from app.rooms import away
from app.rooms.bot_driver import computer_move
from app.rooms.lobby import Lobby
from app.rooms.notifier import Presence
from app.rooms.pace import is_turn_based
from app.rooms.records import LiveRoom
from app.rooms.referee import Referee
from app.rooms.stand_ins import StandIns
from app.rooms.time_source import Timer, TimeSource
from app.rooms.turn_clocks import TIMEOUTS_BEFORE_STAND_IN

log = logging.getLogger("parlour.timers")


class RoomTimers:
    """One timer per room this process owns, for the next thing due there."""

    retry_pause = 1.0

    def __init__(
        self,
        time_source: TimeSource,
        presence: Presence,
        referee: Referee,
        lobby: Lobby,
        stand_ins: StandIns,
        *,
        grace: float,
        stale_after: float,
        release: Callable[[LiveRoom], None],
    ) -> None:
        self.time_source = time_source
        # Lets go of a room whose table a timer ended, if nobody here watches it.
        self.release = release
        self.presence = presence
        self.referee = referee
        self.lobby = lobby
        self.stand_ins = stand_ins
        self.grace = grace
        self.stale_after = stale_after
        self._timers: dict[str, tuple[float, Timer]] = {}
        self._runs: dict[str, asyncio.Task[None]] = {}
        # Rooms whose running clocks this process has taken charge of.
        self._in_charge: set[str] = set()
        # After a failed step: not before then.
        self._not_before: dict[str, float] = {}

    # --- the listener ------------------------------------------------------------------

    def room_changed(self, room: LiveRoom) -> None:
        """Set the room's timer for the next thing due (or none). A turn-based table has
        none: going away never ends it, and its deadlines are the sweep's
        (app/rooms/turn_sweep.py)."""
        if not room.owned or room.ended or is_turn_based(room):
            self._cancel(room.id)
            self._in_charge.discard(room.id)
            self._not_before.pop(room.id, None)
            return
        if not self._clocks_running(room):
            # In charge before any clock runs: a match started here needs no restart.
            self._in_charge.add(room.id)
        if room.id in self._runs:
            return  # the running step sets the timer again when it ends
        due = self.next_due(room)
        if due is not None:
            due = max(due, self._not_before.get(room.id, due))
        current = self._timers.get(room.id)
        if current is not None and current[0] == due:
            return
        self._cancel(room.id)
        if due is not None:
            timer = self.time_source.call_at(due, lambda: self._fire(room))
            self._timers[room.id] = (due, timer)

    def stop(self) -> None:
        """Cancel every timer and step (the server is shutting down)."""
        for _, timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in self._runs.values():
            task.cancel()

    def _cancel(self, room_id: str) -> None:
        current = self._timers.pop(room_id, None)
        if current is not None:
            current[1].cancel()

    # --- what is due -----------------------------------------------------------------------

    def _clocks_running(self, room: LiveRoom) -> bool:
        return (
            room.status == "playing"
            and room.time_control is not None
            and room.turn_clocks is not None
        )

    def next_due(self, room: LiveRoom) -> float | None:
        """When the room's next step is due (None: nothing is)."""
        now = self.time_source.now()
        if self._clocks_running(room) and room.id not in self._in_charge:
            return now
        times: list[float] = []
        if room.vacant_since is not None:
            times.append(room.vacant_since + self.stale_after)
        host_since = away.host_away_since(room)
        here = self.presence.connected_users(room.id)
        if host_since is not None and away.host_successor(room, here) is not None:
            times.append(host_since + self.grace)
        clocks = room.turn_clocks
        if self._clocks_running(room) and clocks is not None:
            for seat in room.rules.to_act(room.state):
                holder = room.seats[seat]
                final = clocks.final(seat)
                if holder is not None and holder.user_id is not None and final is not None:
                    times.append(final)
            for seat, holder in enumerate(room.seats):
                person = holder is not None and holder.user_id is not None
                if person and clocks.timeouts[seat] >= TIMEOUTS_BEFORE_STAND_IN:
                    times.append(now)
        return min(times, default=None)

    # --- doing it --------------------------------------------------------------------------

    def _fire(self, room: LiveRoom) -> None:
        self._timers.pop(room.id, None)
        if room.id in self._runs:
            return
        task = asyncio.get_running_loop().create_task(self._run(room))
        self._runs[room.id] = task

    async def _run(self, room: LiveRoom) -> None:
        room_task(room.id)  # its log lines are the room's, not the person's who woke it
        try:
            await self._steps(room)
        except Refusal as error:  # the room moved on meanwhile: look again
            log.debug("room %s timer: %s", room.id, error.message)
        except Exception as error:
            log.warning(
                "room %s: a timed step failed (%s: %s); trying again",
                room.id,
                type(error).__name__,
                error,
            )
            self._not_before[room.id] = self.time_source.now() + self.retry_pause
        else:
            self._not_before.pop(room.id, None)
        finally:
            self._runs.pop(room.id, None)
            self.room_changed(room)
            if room.ended:
                # After the notices of the change have gone out (they are sent soon too).
                asyncio.get_running_loop().call_soon(self.release, room)

    async def _steps(self, room: LiveRoom) -> None:
        """Everything due in the room now, in order."""
        if not room.owned or room.ended:
            return
        if self._clocks_running(room) and room.id not in self._in_charge:
            await self.referee.restart_clocks(room)
            self._in_charge.add(room.id)
        now = self.time_source.now()
        if room.vacant_since is not None and now >= room.vacant_since + self.stale_after:
            if room.status == "waiting":
                await self.lobby.close(room, stale_after=self.stale_after)
            else:
                await self.referee.abandon(room, stale_after=self.stale_after)
            return
        await self.lobby.hand_over_host(room, grace=self.grace)
        await self._timeouts(room)

    async def _timeouts(self, room: LiveRoom) -> None:
        """Play the moves of every awaited person whose time has run out, then let a
        computer take the seats whose moves the clock played twice in a row."""
        while self._clocks_running(room) and room.owned:
            clocks = room.turn_clocks
            assert clocks is not None
            now = self.time_source.now()
            expired = [
                seat
                for seat in room.rules.to_act(room.state)
                if (holder := room.seats[seat]) is not None
                and holder.user_id is not None
                and clocks.expired(seat, now)
            ]
            if not expired:
                break
            seat, version = expired[0], room.version
            action = computer_move(room, seat, "heuristic")
            await self.referee.act(
                room,
                version=version,
                action=action,
                by={"bot": "heuristic"},
                seat=seat,
                timeout=True,
            )
        clocks = room.turn_clocks
        for seat, holder in enumerate(room.seats):
            if holder is None or holder.user_id is None or clocks is None:
                continue
            if clocks.timeouts[seat] >= TIMEOUTS_BEFORE_STAND_IN:
                await self.stand_ins.take_over(room, seat)
