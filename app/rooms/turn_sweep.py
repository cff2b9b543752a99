"""The sweep of turn-based deadlines: what is due is found by the database, not by holding
every table.

Every ``every`` seconds each process asks the database (the indexed ``rooms.deadline``)
for the turn-based tables whose awaited person's deadline comes within ``remind_before``
and whose reminder was not sent yet; each is claimed in the same transaction (the deadline
it was sent for is stored), so a reminder goes out once per awaited move however many
processes sweep, and a restart sends none twice. Each awaited person then gets a
``DeadlineNear`` signal (app/rooms/signals.py). A deadline that passed is not
acted on by the server: the other players may claim the match or let a computer play the
seat (app/rooms/pace.py).

The sweep also lets go of the turn-based tables this process holds that nobody is at and
no computer is to move at (a table touched over HTTP alone, a computer that has moved):
they load again from the database when someone comes.
"""

from __future__ import annotations

import asyncio
import logging

from app import store
from app.rooms.pace import is_turn_based
from app.rooms.registry import RoomRegistry
from app.rooms.signals import DeadlineNear, Signals
from app.rooms.storage import RoomStorage
from app.rooms.time_source import TimeSource, stamp
from app.rooms.turn_signals import when

log = logging.getLogger("parlour.sweep")
BATCH = 1000  # tables whose reminders one transaction claims


class TurnSweep:
    """Reminders of deadlines near, and dormant turn-based tables let go, periodically."""

    def __init__(
        self,
        storage: RoomStorage,
        registry: RoomRegistry,
        signals: Signals,
        time_source: TimeSource,
        *,
        every: float,
        remind_before: float,
    ) -> None:
        self.storage = storage
        self.registry = registry
        self.signals = signals
        self.time_source = time_source
        self.every = every
        self.remind_before = remind_before
        self._task: asyncio.Task[None] | None = None
        self._sweeping = False  # a periodic sweep is under way

    def start(self) -> None:
        """Sweep every ``every`` seconds from now on (``0``: never)."""
        if self.every > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    @property
    def waiting(self) -> bool:
        """Whether the periodic sweep is waiting for its next round, not sweeping now (the
        next round is due ``every`` seconds after the last one ended)."""
        return self._task is not None and not self._sweeping

    async def _run(self) -> None:
        while True:
            await self.time_source.sleep(self.every)
            self._sweeping = True
            try:
                await self.once()
            except Exception as error:  # the database is down: the next sweep tries again
                log.warning("the turn-based sweep failed (%s: %s)", type(error).__name__, error)
            finally:
                self._sweeping = False

    async def once(self) -> int:
        """One sweep: the reminders due sent, the dormant tables let go. Returns how many
        reminders went out."""
        now = self.time_source.now()
        due = await self.storage.call(store.claim_reminders, until=stamp(now + self.remind_before))
        sent = 0
        for reminder in due:
            deadline = when(reminder.deadline)
            if reminder.deadline <= now or deadline is None:
                continue  # passed already (the server was down): nothing to warn of
            self.signals.emit(
                DeadlineNear(reminder.user_id, reminder.room_id, reminder.game, deadline)
            )
            sent += 1
        for room in self.registry.rooms():
            if is_turn_based(room):
                self.registry.release_if_idle(room)
        return sent
