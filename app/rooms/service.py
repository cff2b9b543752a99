"""The rooms, wired together: one object the server builds at start and the routes use.

It holds the parts — registry, lobby, stand-ins, the host's chat settings, referee,
computer-player driver, timers, the turn-based tables' signals and sweep — connects them to
the storage, the clock, the notification signals and whoever listens for changes, and
routes every verb that changes a room to the process that
referees it: here, or (with several processes) its owner elsewhere. It adds no rules of
its own. (Chat itself is not a verb on a room: app/chat says and delivers it.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from app.i18n.languages import DEFAULT
from app.i18n.marks import N_
from app.refusal import Refusal
from app.rooms.away import AwayKeeper, people_here
from app.rooms.bot_driver import BotDriver
from app.rooms.chat_settings import ChatSettings
from app.rooms.lobby import Lobby
from app.rooms.notifier import Notifier, Notifiers, Presence
from app.rooms.ownership import Ownership, SoleProcess, hold_stored
from app.rooms.records import LiveRoom
from app.rooms.referee import Referee
from app.rooms.registry import RoomRegistry
from app.rooms.rematch_offers import RematchOffers
from app.rooms.render import describe
from app.rooms.signals import Signals
from app.rooms.stand_ins import StandIns
from app.rooms.storage import RoomStorage
from app.rooms.thinking import Thinkers
from app.rooms.time_source import SystemTime, TimeSource
from app.rooms.timers import RoomTimers
from app.rooms.turn_signals import LoggedSignals, TurnSignals
from app.rooms.turn_sweep import TurnSweep

Verb = Callable[..., Awaitable[Any]]


class Rooms:
    """Every live room of this process and the verbs on them."""

    def __init__(
        self,
        storage: RoomStorage,
        *,
        notifier: Notifier,
        presence: Presence,
        bot_delay: float,
        presence_delay: float = 0.0,
        ownership: Ownership | None = None,
        time_source: TimeSource | None = None,
        absence_grace: float = 60.0,
        stale_after: float = 1800.0,
        thinkers: Thinkers | None = None,
        signals: Signals | None = None,
        turn_sweep_seconds: float = 60.0,
        deadline_reminder_seconds: float = 4 * 3600.0,
    ) -> None:
        self.storage = storage
        self.presence = presence
        self.presence_delay = presence_delay
        self._presence_due: set[str] = set()
        self.time_source: TimeSource = time_source or SystemTime()
        self.absence_grace = absence_grace
        self.ownership: Ownership = ownership or SoleProcess()
        # The absence stamps are brought up to date before anyone else is told of a change.
        self.away = AwayKeeper(presence, self.time_source)
        self.notifier = Notifiers([self.away, notifier])
        self.registry = RoomRegistry(storage, self.notifier, presence, self.ownership)
        self.referee = Referee(storage, self.notifier, self.time_source)
        self.stand_ins = StandIns(
            storage, self.notifier, presence, self.time_source, grace=absence_grace
        )
        self.lobby = Lobby(
            storage, self.registry, self.notifier, presence, self.time_source, self.stand_ins
        )
        self.chat_settings = ChatSettings(storage, self.notifier)
        self.rematch_offers = RematchOffers(self.lobby, self.ownership, self.notifier)
        self.bots = BotDriver(self.referee, self.time_source, delay=bot_delay, thinkers=thinkers)
        self.timers = RoomTimers(
            self.time_source,
            presence,
            self.referee,
            self.lobby,
            self.stand_ins,
            grace=absence_grace,
            stale_after=stale_after,
            release=self.registry.release_if_idle,
        )
        self.notifier.add(self.bots)
        self.notifier.add(self.timers)
        # Turn-based tables tell the notification channels of turns, reminders and ends.
        self.signals: Signals = signals or LoggedSignals()
        self.turn_signals = TurnSignals(self.signals)
        self.notifier.add(self.turn_signals)
        self.registry.on_release(self.turn_signals.forget)
        self.sweep = TurnSweep(
            storage,
            self.registry,
            self.signals,
            self.time_source,
            every=turn_sweep_seconds,
            remind_before=deadline_reminder_seconds,
        )
        # The verbs a room's owner runs, by the name they travel under between processes.
        self._verbs: dict[str, Verb] = {
            "join": self.lobby.join,
            "leave": self.lobby.leave,
            "add_bot": self.lobby.add_bot,
            "free_seat": self.lobby.free_seat,
            "start": self.lobby.start,
            "rematch": self._rematch,
            "rematch_answer": self.rematch_offers.answer,
            "reclaim": self.stand_ins.reclaim,
            "claim": self.referee.claim,
            "mute": self.chat_settings.mute,
            "set_watchers_chat": self.chat_settings.set_watchers_chat,
            "act": self.referee.act,
            "close_table": self._close_table,
        }

    def send_signals_to(self, signals: Signals) -> None:
        """Where turn-based tables' signals go from now on: the notification outbox, which
        is built after the rooms because it asks them whether a turn is still awaited."""
        self.signals = signals
        self.turn_signals.signals = signals
        self.sweep.signals = signals

    async def get(self, room_id_or_code: str) -> LiveRoom:
        return await self.registry.get(room_id_or_code)

    def using(self, room_id_or_code: str) -> AbstractAsyncContextManager[LiveRoom]:
        """The room, kept in memory here while a request uses it: a copy let go meanwhile
        would follow its owner no more, and the request would describe a stale room."""
        return self.registry.using(room_id_or_code)

    async def referee_name(self, room: LiveRoom) -> str | None:
        """The name the reverse proxy knows the room's referee by (``PROCESS_NAME``), for
        its page to send the room's sockets there; None when there is none to give."""
        return await self.ownership.referee_name(room)

    def describe(self, room: LiveRoom, language: str = DEFAULT) -> dict[str, Any]:
        """The room's public description, its words (the table's options) in ``language``."""
        return describe(room, self.presence, self.absence_grace, language)

    def people_here(self, room: LiveRoom) -> bool:
        """Whether a seat's person is connected to the room (through any process)."""
        return people_here(room, self.presence.connected_users(room.id))

    def presence_changed(self, room: LiveRoom) -> None:
        """Someone connected or left (here or through another process): who is away is
        stamped at once, and the room description (who is here, since when who is away)
        goes out again — once for a burst of comings and goings within ``presence_delay``."""
        self.away.room_changed(room)
        if room.id in self._presence_due:
            return
        self._presence_due.add(room.id)
        self.time_source.call_at(
            self.time_source.now() + self.presence_delay, lambda: self._presence_out(room)
        )

    def _presence_out(self, room: LiveRoom) -> None:
        self._presence_due.discard(room.id)
        room.described()
        self.notifier.room_changed(room)

    # --- verbs, run where the room is refereed ---------------------------------------------

    async def create(self, **details: Any) -> LiveRoom:
        """A new room, refereed by this process."""
        room = await self.lobby.create(**details)
        await hold_stored(self.ownership, room)
        # Its absence stamps and timers start now, before anyone connects.
        self.notifier.room_changed(room)
        return room

    async def join(
        self, room: LiveRoom, *, user_id: str, name: str, seat: int | None, account: bool = False
    ) -> int:
        args = {"user_id": user_id, "name": name, "seat": seat, "account": account}
        return int(await self.run(room, "join", args))

    async def leave(self, room: LiveRoom, *, user_id: str) -> None:
        await self.run(room, "leave", {"user_id": user_id})

    async def add_bot(self, room: LiveRoom, *, user_id: str, seat: int, kind: str) -> None:
        await self.run(room, "add_bot", {"user_id": user_id, "seat": seat, "kind": kind})

    async def free_seat(self, room: LiveRoom, *, user_id: str, seat: int) -> None:
        await self.run(room, "free_seat", {"user_id": user_id, "seat": seat})

    async def start(self, room: LiveRoom, *, user_id: str) -> None:
        await self.run(room, "start", {"user_id": user_id})

    async def rematch(self, room: LiveRoom, *, user_id: str) -> LiveRoom:
        return await self.get(str(await self.run(room, "rematch", {"user_id": user_id})))

    async def rematch_answer(self, room: LiveRoom, *, user_id: str | None, accept: bool) -> None:
        """Propose or accept a rematch in place (``accept``), or decline the one proposed."""
        await self.run(room, "rematch_answer", {"user_id": user_id, "accept": accept})

    async def reclaim(self, room: LiveRoom, *, user_id: str) -> int:
        """The person a computer stands in for takes their seat back; returns the seat."""
        return int(await self.run(room, "reclaim", {"user_id": user_id}))

    async def claim(self, room: LiveRoom, *, user_id: str) -> None:
        """A player claims a turn-based match from those whose time to move ran out."""
        await self.run(room, "claim", {"user_id": user_id})

    async def mute(self, room: LiveRoom, *, user_id: str, person: str, muted: bool) -> None:
        await self.run(room, "mute", {"user_id": user_id, "person": person, "muted": muted})

    async def set_watchers_chat(self, room: LiveRoom, *, user_id: str, on: bool) -> None:
        await self.run(room, "set_watchers_chat", {"user_id": user_id, "on": on})

    async def close_table(self, room: LiveRoom) -> None:
        """A moderator closes the table: a waiting one closes, a match in play ends as
        abandoned; ``table_ended`` when it had ended already."""
        await self.run(room, "close_table", {})

    async def _close_table(self, room: LiveRoom) -> None:
        if not (await self.lobby.close_now(room) or await self.referee.stop(room)):
            raise Refusal("table_ended", N_("That table has ended already."), 409)

    async def act(
        self, room: LiveRoom, *, user_id: str | None, version: object, action: Any
    ) -> None:
        """A person's action, for the seat they hold."""
        await self.run(
            room, "act", {"version": version, "action": action, "by": {"user_id": user_id}}
        )

    def act_started(
        self, room: LiveRoom, *, user_id: str | None, version: object, action: Any
    ) -> asyncio.Future[None]:
        """``act``, begun now in a task of its own, which nothing cancels: the future of
        its outcome. A socket's reader starts its actions so, and takes the socket's next
        message once the future is done."""
        args = {"version": version, "action": action, "by": {"user_id": user_id}}
        # Played here by the referee's ``play``, in this task: nothing cancels it, so the
        # move needs no task of its own to outlive its sender.
        return asyncio.ensure_future(self.run(room, "act", args, here=self.referee.play))

    def preview(
        self, room: LiveRoom, *, user_id: str | None, version: object, action: Any
    ) -> dict[str, Any]:
        """Checked on this process's copy of the room: a preview changes nothing."""
        return self.referee.preview(room, user_id=user_id, version=version, action=action)

    async def run(
        self, room: LiveRoom, verb: str, args: dict[str, Any], *, here: Verb | None = None
    ) -> Any:
        """Run ``verb`` on the process that referees ``room``: here if this process owns
        it (by ``here``, when given, rather than the verb's own), else on its owner (which
        claims the room here if its owner is gone)."""
        with self.registry.kept(room.id):
            return await self._run(room, verb, args, here)

    async def _run(self, room: LiveRoom, verb: str, args: dict[str, Any], here: Verb | None) -> Any:
        if self.ownership.owns(room):
            try:
                if here is not None:
                    return await here(room, **args)
                return await self.run_here(room, verb, args)
            except Refusal as error:
                # Handed over while the verb waited for the room: its new owner runs it.
                if error.code != "not_owner":
                    raise
        return await self.ownership.forward(room, verb, args)

    async def run_here(self, room: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
        """Run a verb on a room this process owns (also for verbs forwarded to it)."""
        try:
            run = self._verbs[verb]
        except KeyError:
            raise Refusal("bad_request", N_("There is no verb {verb!r}."), 422, verb=verb) from None
        return await run(room, **args)

    async def _rematch(self, room: LiveRoom, *, user_id: str) -> str:
        new_room = await self.lobby.rematch(room, user_id=user_id)
        await hold_stored(self.ownership, new_room)
        self.notifier.room_changed(new_room)
        return new_room.id

    async def became_owner(self, room: LiveRoom) -> None:
        """This process now referees ``room``: bring it up to date from the log first."""
        async with room.lock:
            await self.registry.reload(room)
            room.owned = True
        self.notifier.room_changed(room)

    async def catch_up(self, room: LiveRoom) -> None:
        """Another process may have committed past this process's room while both counted
        it as theirs: read it again from the log, so the next commit here takes the next
        seq and the seats connected here are shown what was committed."""
        async with room.lock:
            await self.registry.reload(room)
        self.notifier.room_changed(room)

    async def hand_over(self) -> None:
        """Stop refereeing every room (this process is stopping): no verb, computer move or
        timer changes a room here from now on; each one's change under way is committed
        first, and then the ownership hands the rooms on (with several processes, to
        another process at once; alone, there is nobody to hand them to). Claiming stops
        before the rooms owned are listed, so a claim under way is listed too."""
        await self.ownership.stop_claiming()
        owned = [room for room in self.registry.rooms() if room.owned]
        await self.ownership.hand_over(owned)

    async def drain(self) -> None:
        """Return once every event handed to the event log is committed."""
        await self.storage.drain()

    async def close(self) -> None:
        self.sweep.stop()
        self.bots.stop()
        self.timers.stop()
        await self.storage.close()
