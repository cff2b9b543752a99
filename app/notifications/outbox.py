"""``Notifications``: the rooms' ``Signals`` (app/rooms/signals.py), the outbox's
front, and the delivery worker's loop.

``emit`` only appends the signal to a list on the event loop and makes sure a writer task
is on its way: the writer takes every signal gathered meanwhile and writes their outbox
rows in one transaction on a worker thread (``DatabaseThread``), as the event log groups
its commits. A database that fails the write is tried again, with growing pauses, with the
signals kept; the rooms never wait. Once written, a row is delivered even if this process
stops before it could be: any process's worker claims it later (app/notifications/worker.py).

``build_notifications`` makes the whole from the settings and the services it asks
(the rooms, their presence, the cluster's Redis when several processes run).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from functools import partial

from py_vapid import Vapid

from app.cluster.cluster import Cluster
from app.config import Settings
from app.notifications import push
from app.notifications.fan_out import fan_out
from app.notifications.looking import ClusterLooking, Looking, PresenceLooking, RoomsTurnCheck
from app.notifications.mail import SmtpMailer
from app.notifications.tokens import EmailTokens
from app.notifications.worker import BATCH, DeliveryWorker
from app.rooms import Rooms
from app.rooms.signals import Signal
from app.rooms.time_source import TimeSource, stamp
from app.store.database_thread import DatabaseThread
from app.store.outage import log_failure

log = logging.getLogger("parlour.notifications")

# Pauses before writing signals again after the database refused them: 1 s, doubling, up
# to a minute.
FIRST_PAUSE, LONGEST_PAUSE = 1.0, 60.0


class Notifications:
    """Takes signals without blocking, and runs this process's delivery worker."""

    def __init__(
        self,
        settings: Settings,
        database: DatabaseThread,
        worker: DeliveryWorker,
        time_source: TimeSource,
    ) -> None:
        self.settings = settings
        self.database = database
        self.worker = worker
        self.time_source = time_source
        self.vapid: Vapid = worker.vapid
        self.tokens: EmailTokens = worker.tokens
        self._pending: list[Signal] = []
        self._writer: asyncio.Task[None] | None = None
        self._loop_task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    @property
    def email_available(self) -> bool:
        return self.worker.mailer is not None

    def public_key(self) -> str:
        return push.public_key(self.vapid)

    # --- Signals ------------------------------------------------------------------------

    def emit(self, signal: Signal) -> None:
        """Take the signal; it is written by a task of its own (call on the event loop)."""
        self._pending.append(signal)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_pending())

    async def _write_pending(self) -> None:
        pause = FIRST_PAUSE
        while self._pending:
            batch, self._pending = self._pending, []
            work = partial(
                fan_out,
                signals=batch,
                now=stamp(self.time_source.now()),
                confirmation=self.settings.email_confirmation == "on",
                email=self.email_available,
                turn_delay=timedelta(seconds=self.settings.turn_notice_delay_seconds),
            )
            try:
                await self.database.run(work)
            except Exception:
                log_failure(log, "could not write %d notifications; trying again", len(batch))
                self._pending[:0] = batch
                await asyncio.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)
                continue
            pause = FIRST_PAUSE
            self._wake.set()

    async def written(self) -> None:
        """Return once every signal emitted so far is in the outbox."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    # --- delivery -----------------------------------------------------------------------

    async def deliver_once(self) -> int:
        """One round of the worker: the rows due now delivered (tests drive it by hand)."""
        return await self.worker.deliver_once()

    def wake(self) -> None:
        """Deliver now rather than at the next poll (something was just queued here)."""
        self._wake.set()

    def start(self) -> None:
        """Run the worker's rounds in the background (unless NOTIFY_POLL_SECONDS is 0)."""
        if self.settings.notify_poll_seconds > 0:
            self._loop_task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                claimed = await self.deliver_once()
            except Exception:
                log_failure(log, "a round of notification delivery failed")
                claimed = 0
            if claimed >= BATCH:
                continue  # more are due
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.notify_poll_seconds)

    async def close(self) -> None:
        """Write what was emitted, stop the worker (what it had not sent stays in the
        outbox, for the next start or another process)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.written(), self.settings.delivery_timeout)
        if self._writer is not None and not self._writer.done():
            # The database stayed away: what is still unwritten is lost with the process.
            log.error("stopping with %d notifications unwritten", len(self._pending))
            self._writer.cancel()
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        await self.worker.close()


def build_notifications(
    settings: Settings,
    database: DatabaseThread,
    rooms: Rooms,
    cluster: Cluster | None = None,
) -> Notifications:
    """The notifications of one process: the rooms' ``Signals``, keeping time by the
    rooms' time source and asking the rooms (and their presence) whether a notification
    is still due. Start them with ``start()`` once the event loop runs, and ``close()``
    them at shut-down."""
    looking: Looking
    if cluster is not None:
        looking = ClusterLooking(cluster.presence, cluster.redis, cluster.channels)
    else:
        looking = PresenceLooking(rooms.presence)
    worker = DeliveryWorker(
        settings,
        database,
        time_source=rooms.time_source,
        looking=looking,
        turns=RoomsTurnCheck(rooms),
        mailer=SmtpMailer(settings) if settings.smtp_host else None,
        vapid=push.load_vapid(settings),
        tokens=EmailTokens(settings.resolved_secret_key()),
    )
    return Notifications(settings, database, worker, rooms.time_source)
