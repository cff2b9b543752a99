"""The computer-player driver: plays every computer seat's turns, whatever goes wrong.

It listens for room changes like the hub does. When a computer player is awaited it
starts one task for that room, which asks games.bots for a move and plays it through the
referee like any player, as ``{"bot": kind}``. The quick kinds (heuristic, random) decide
at once, on the event loop; the searching ones (normal, strong) first wait ``delay`` (so
people can follow the play) and then think in a worker process (app/rooms/thinking.py), so
that no room waits for another's computer; should the workers fail, the heuristic moves.

Every move goes out a fixed time after the turn began, on the rooms' clock: ``delay``, and
for a searching kind its thinking time and reply margin (``thinking.think_time``). A move
ready sooner — one legal action, a search its simulations ended early — waits out the rest,
so that how long a computer takes never tells the table whether it had a choice.
A person acting first, or taking their seat back from the computer meanwhile, is no
failure: the referee refuses the move and the task looks again.
Anything else its move raises — above all a database that does not answer — is logged
once per outage and retried with a growing pause (at most ``max_retry_pause``), so the
seat moves as soon as the database answers again, with no restart.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from app.observability.context import room_task
from app.observability.metrics import COMPUTER_THINKING_SECONDS
from app.refusal import Refusal
from app.rooms.records import LiveRoom
from app.rooms.referee import Referee
from app.rooms.thinking import THINKING_SECONDS, Thinkers, think_time
from app.rooms.time_source import TimeSource
from games.bots import SEARCHING, choose

log = logging.getLogger("parlour.bots")


def computer_move(room: LiveRoom, seat: int, kind: str) -> dict[str, Any]:
    """The move a computer player of ``kind`` makes for ``seat`` now."""
    try:
        return choose(room.rules, room.state, seat, f"{room.seed}:{room.version}:{seat}", kind)
    except Exception:
        # A computer player must never hang a match: fall back to any legal move.
        log.exception("computer player failed in room %s seat %s", room.id, seat)
        return room.rules.legal_actions(room.state, seat)[0]


class BotDriver:
    """One task per room while a computer player is awaited there."""

    first_retry_pause = 0.25
    max_retry_pause = 2.0

    def __init__(
        self,
        referee: Referee,
        time_source: TimeSource,
        *,
        delay: float,
        thinkers: Thinkers | None = None,
    ) -> None:
        self.referee = referee
        self.time_source = time_source
        self.delay = delay
        self.thinkers = thinkers or Thinkers()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def room_changed(self, room: LiveRoom) -> None:
        """Start the room's task if a computer player is awaited and none is running."""
        if not self._bot_awaited(room):
            return
        task = self._tasks.get(room.id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._drive(room))
            task.add_done_callback(lambda done: self._forget(room.id, done))
            self._tasks[room.id] = task

    def _forget(self, room_id: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(room_id) is task:
            del self._tasks[room_id]

    def stop(self) -> None:
        """Cancel every task and stop the thinking workers (the server is shutting down)."""
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        self.thinkers.shutdown()

    @staticmethod
    def _awaited_computer(room: LiveRoom) -> int | None:
        """The first awaited seat a computer holds, if any (and this process referees)."""
        if room.status != "playing" or room.state is None or not room.owned:
            return None
        bots = room.bot_seats()
        return next((seat for seat in room.rules.to_act(room.state) if seat in bots), None)

    def _bot_awaited(self, room: LiveRoom) -> bool:
        return self._awaited_computer(room) is not None

    async def _drive(self, room: LiveRoom) -> None:
        """Play computer turns, one at a time, until a person is awaited or the match ends."""
        room_task(room.id)  # its log lines are the room's, not the person's who woke it
        failures = 0
        while (seat := self._awaited_computer(room)) is not None:
            # The state giving the computer its turn is in (or its last try failed): its
            # move goes out a fixed time from now.
            began = self.time_source.now()
            pause = self.delay if failures == 0 else self._retry_pause(failures)
            try:
                await self._move(room, seat, began, pause)
            except Refusal as error:  # a person acted first, or the seat changed hands
                log.debug("computer in room %s seat %s: %s", room.id, seat, error.message)
            except Exception as error:
                failures += 1
                if failures == 1:
                    log.warning(
                        "computer in room %s seat %s could not move (%s: %s); retrying",
                        room.id,
                        seat,
                        type(error).__name__,
                        error,
                    )
            else:
                if failures:
                    log.warning(
                        "computer in room %s seat %s moved after %d failed tries",
                        room.id,
                        seat,
                        failures,
                    )
                    failures = 0

    async def _thought_out(
        self, room: LiveRoom, seat: int, kind: str, seconds: float
    ) -> dict[str, Any]:
        """A searching computer's move, from a worker process, the search cut ``seconds``
        from now (the heuristic's move if the workers fail)."""
        state, seed = room.state, f"{room.seed}:{room.version}:{seat}"
        try:
            return await self.thinkers.move(room.rules.name, state, seat, seed, kind, seconds)
        except Exception:
            log.exception("computer player could not think in room %s seat %s", room.id, seat)
            return computer_move(room, seat, "heuristic")

    def _retry_pause(self, failures: int) -> float:
        return float(min(self.first_retry_pause * 2 ** (failures - 1), self.max_retry_pause))

    def _still_awaited(self, room: LiveRoom, seat: int) -> str | None:
        """The kind of computer holding ``seat``, if one does and it is awaited."""
        holder = room.seats[seat]
        if holder is None or holder.bot is None or room.status != "playing":
            return None
        return holder.bot if seat in room.rules.to_act(room.state) else None

    async def _move(self, room: LiveRoom, seat: int, began: float, pause: float) -> None:
        """One computer move for ``seat``, sent ``think_time`` after ``began`` (if the seat
        is still a computer's and still awaited by then)."""
        kind = self._still_awaited(room, seat)
        if kind is None:
            return
        if kind in SEARCHING:
            await self.time_source.sleep(pause)
            if self._still_awaited(room, seat) != kind:
                return
            version = room.version
            cut = began + pause + THINKING_SECONDS[kind]
            seconds = max(0.0, cut - self.time_source.now())
            thinking = time.perf_counter()
            action = await self._thought_out(room, seat, kind, seconds)
        else:
            # Deciding at once hides the (small) time deciding takes within the pause.
            version = room.version
            thinking = time.perf_counter()
            action = computer_move(room, seat, kind)
        COMPUTER_THINKING_SECONDS.labels(kind=kind).observe(time.perf_counter() - thinking)
        # Ready sooner (one legal action, a search that ended early): wait out the rest.
        await self.time_source.sleep(
            max(0.0, began + think_time(kind, pause) - self.time_source.now())
        )
        await self.referee.act(room, version=version, action=action, by={"bot": kind}, seat=seat)
