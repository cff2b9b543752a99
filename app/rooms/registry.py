"""The registry: which rooms are in memory, loading them, and letting them go.

A room is loaded on first touch (by id or by its short code) and rebuilt from its match's
log through the referee's ``restore``; at start-up every open room is loaded that way —
unfinished matches resume, and waiting tables get their timers back — so a killed server
loses nothing it acknowledged. A room whose table is over nobody watches is released — so
is another process's room nobody here watches; either loads again from the database if it
is asked for. So is a turn-based table nobody is connected to and no computer is to move
at: however many there are, only those in play right now are held. Rooms load side by side
(a room asked for again while it loads waits for that load), so a process taking over many
rooms at once, or loading turn-based tables on every touch, reads them together.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import cast

import games
from app import store
from app.i18n.marks import N_
from app.models import Room, iso
from app.observability.metrics import ROOMS_HELD
from app.refusal import Refusal
from app.rooms.notifier import Notifier, Presence
from app.rooms.ownership import Ownership
from app.rooms.pace import is_turn_based
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.referee import restore
from app.rooms.storage import RoomStorage, StoredRoom
from app.rooms.turn_clocks import TurnClocks


def live_room(row: Room) -> LiveRoom:
    """A room record in memory from its stored row (and seats), before any match state."""
    seats: list[SeatHolder | None] = [None] * row.seat_count
    for seat in row.seats:
        seats[seat.seat] = SeatHolder(
            seat.user_id, seat.bot, seat.name, seat.stand_in_for, seat.stand_in_name
        )
    return LiveRoom(
        id=row.id,
        code=row.code,
        rules=games.get(row.game),
        seat_count=row.seat_count,
        options=dict(row.options),
        visibility=row.visibility,
        status=row.status,
        host_id=row.host_id,
        created_at=iso(row.created_at) or "",
        seats=seats,
        match_id=row.match_id,
        rematch_id=row.rematch_id,
        rated=row.rated,
        time_control=row.clock,
        pace=row.pace or "live",  # a row not yet flushed holds None
        days_per_move=row.days_per_move,
        turn_clocks=TurnClocks.from_json(row.clock_state),
        closed_by=row.closed_by,
        watchers_chat=row.watchers_chat,
        muted=list(row.muted),
        mute_marks=dict(row.mute_marks or {}),  # a row not yet flushed holds None
    )


class RoomRegistry:
    """The rooms this process holds in memory, by id (and by code)."""

    def __init__(
        self,
        storage: RoomStorage,
        notifier: Notifier,
        presence: Presence,
        ownership: Ownership,
    ) -> None:
        self.storage = storage
        self.notifier = notifier
        self.presence = presence
        self.ownership = ownership
        self._rooms: dict[str, LiveRoom] = {}
        self._ids_by_code: dict[str, str] = {}
        # The loads under way, by the id or code asked for (and by id once a code is read):
        # a room asked for again meanwhile waits for the same load, while other rooms load
        # side by side (a process taking over many rooms at once reads them together).
        self._loading: dict[str, asyncio.Task[LiveRoom]] = {}
        # Told of every room made here (the chat knows it has no messages yet), and of
        # every room let go here (the chat lets go of its recent messages).
        self._made: list[Callable[[LiveRoom], None]] = []
        self._released: list[Callable[[LiveRoom], None]] = []
        # The rooms a request or a verb is using now, by the id or code (upper case) it
        # asked for: never let go meanwhile, or what it changes or describes would be a
        # copy nobody keeps up to date any more.
        self._in_use: Counter[str] = Counter()

    def on_make(self, listener: Callable[[LiveRoom], None]) -> None:
        """Call ``listener`` with every room made in this process, as it is first held."""
        self._made.append(listener)

    def on_release(self, listener: Callable[[LiveRoom], None]) -> None:
        """Call ``listener`` with every room this process lets go of."""
        self._released.append(listener)

    def add(self, room: LiveRoom) -> LiveRoom:
        """Hold a room made in this process (created, or a rematch)."""
        self._hold(room)
        for listener in self._made:
            listener(room)
        return room

    def _hold(self, room: LiveRoom) -> None:
        """Hold a room here, made here or loaded."""
        self._rooms[room.id] = room
        ROOMS_HELD.set(len(self._rooms))
        if room.code is not None:
            self._ids_by_code[room.code] = room.id

    def rooms(self) -> list[LiveRoom]:
        return list(self._rooms.values())

    def held(self, room_id: str) -> LiveRoom | None:
        """The room if this process holds it in memory (by id), without loading it."""
        return self._rooms.get(room_id)

    def _cached(self, key: str) -> LiveRoom | None:
        by_code = self._rooms.get(self._ids_by_code.get(key.upper(), ""))
        if by_code is not None and by_code.code == key.upper():
            return by_code
        # A code freed when its room ended no longer leads to it.
        return self._rooms.get(key)

    async def get(self, room_id_or_code: str) -> LiveRoom:
        """The room with that id or short code (any case); ``room_not_found`` if none."""
        room = self._cached(room_id_or_code)
        if room is not None:
            return room
        key = room_id_or_code.upper()
        load = self._loading.get(key)
        if load is None:
            load = asyncio.get_running_loop().create_task(self._load(room_id_or_code))
            self._loading[key] = load
            load.add_done_callback(lambda done: self._loaded(key, done))
        # Shielded: one asker giving up does not cancel the load the others wait for.
        return await asyncio.shield(load)

    @asynccontextmanager
    async def using(self, room_id_or_code: str) -> AsyncIterator[LiveRoom]:
        """The room (loaded if need be), kept in memory here until the block ends."""
        with self.kept(room_id_or_code):
            yield await self.get(room_id_or_code)

    @contextmanager
    def kept(self, room_id_or_code: str) -> Iterator[None]:
        """Keep the room with that id or code in memory here until the block ends."""
        key = room_id_or_code.upper()
        self._in_use[key] += 1
        try:
            yield
        finally:
            self._in_use[key] -= 1
            if not self._in_use[key]:
                del self._in_use[key]

    def _loaded(self, key: str, load: asyncio.Task[LiveRoom]) -> None:
        if self._loading.get(key) is load:
            del self._loading[key]
        if not load.cancelled():
            load.exception()  # an asker that gave up still has it "retrieved"

    async def _load(self, room_id_or_code: str) -> LiveRoom:
        # What the room's owner (another process) says of it is kept from before the read:
        # a copy then applies what was committed after the read, which it would otherwise
        # miss until the next change (and show a reconnecting browser an older table).
        watched: str | None = room_id_or_code
        await self.ownership.watch(room_id_or_code)
        room_id = room_id_or_code.upper()
        try:
            stored = await self.storage.load_room(room_id_or_code)
            if stored is None:
                raise Refusal("room_not_found", N_("There is no such room."), 404)
            room_id = stored.room.id.upper()
            if room_id != room_id_or_code.upper():
                # Asked for by its code: the same room may be loading by its id already.
                other = self._loading.get(room_id)
                if other is not None:
                    return await asyncio.shield(other)
                this = asyncio.current_task()
                assert this is not None
                self._loading[room_id] = cast("asyncio.Task[LiveRoom]", this)
                # Its id is known only now: watch it, then read it by its id.
                await self.ownership.unwatch(room_id_or_code)
                watched = stored.room.id
                await self.ownership.watch(watched)
                stored = await self.storage.load_room(watched)
                if stored is None:
                    raise Refusal("room_not_found", N_("There is no such room."), 404)
            room = self._cached(stored.room.id) or _restored(live_room(stored.room), stored)
            if room is self._rooms.get(room.id):
                return room
            # Held (claimed, or followed with its notices listened to) before anything else
            # here can find it: an action sent through this process meanwhile would go to
            # the owner and be acknowledged by a notice on the room's channel, which this
            # process was not listening to yet. A stopping process lists the rooms it owns
            # only once this claim has landed (``claiming``).
            async with self.ownership.claiming():
                claimed = await self.ownership.hold(room)
                watched = None  # ``hold`` took what was kept
                if claimed:
                    # Claimed after it was read: what the previous owner committed between
                    # the read and its release is read now, before anyone here is shown the
                    # room or it referees a move (its next seq would already be taken).
                    await self.reload(room)
                self._hold(room)
            # A resumed match may be waiting for a computer player.
            self.notifier.room_changed(room)
            return room
        finally:
            if watched is not None:
                await self.ownership.unwatch(watched)
            if self._loading.get(room_id) is asyncio.current_task():
                del self._loading[room_id]

    async def reload(self, room: LiveRoom) -> None:
        """Bring a room held here up to date with the database, in place (this process has
        just become its owner, or its copy missed a notice). Call under the room's lock."""
        stored = await self.storage.load_room(room.id)
        if stored is None:
            raise Refusal("room_not_found", N_("There is no such room."), 404)
        fresh = _restored(live_room(stored.room), stored)
        for name in (
            "seats", "options", "visibility", "status", "host_id", "match_id", "seed",
            "seed_hash", "state", "version", "last_event", "last_action", "rematch_id", "rated",
            "time_control", "turn_clocks", "closed_by", "watchers_chat", "muted", "mute_marks",
        ):  # fmt: skip
            setattr(room, name, getattr(fresh, name))
        room.described()

    async def resume_all(self) -> int:
        """Load every open room, unfinished matches from their logs (server start).
        Returns how many."""
        ids = await self.storage.call(store.open_room_ids)
        for room_id in ids:
            await self.get(room_id)
        return len(ids)

    def release_if_idle(self, room: LiveRoom) -> None:
        """Forget a room whose table is over (or another process's room) nobody here
        watches — and a turn-based table nobody is connected to where no computer is to
        move: it loads again from the database when someone comes or acts."""
        if self._in_use[room.id.upper()] or (room.code and self._in_use[room.code]):
            return
        idle = self.presence.local_watcher_count(room.id) == 0
        if idle and (room.ended or not room.owned or self._dormant(room)):
            self._rooms.pop(room.id, None)
            ROOMS_HELD.set(len(self._rooms))
            if room.code is not None:
                self._ids_by_code.pop(room.code, None)
            self.ownership.release(room)
            for listener in self._released:
                listener(room)

    def _dormant(self, room: LiveRoom) -> bool:
        """A turn-based table that needs no process now: nobody connected to it through
        any process, no computer to move, and no verb running on it."""
        if not is_turn_based(room) or room.lock.locked():
            return False
        if self.presence.connected_users(room.id):
            return False
        if room.status == "playing" and room.state is not None:
            bots = room.bot_seats()
            if any(seat in bots for seat in room.rules.to_act(room.state)):
                return False
        return True


def _restored(room: LiveRoom, stored: StoredRoom) -> LiveRoom:
    if stored.match is not None:
        restore(room, stored.match, stored.events)
    return room
