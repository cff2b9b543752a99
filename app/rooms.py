"""Rooms: the one place a room's state changes (DESIGN.md §4).

A :class:`LiveRoom` holds the authoritative state of one table in memory. Every change —
a seat taken, a computer player added, the start, an action — goes through
:class:`RoomService` under the room's lock: it checks, persists (the commit is the
acknowledgement), updates memory, and only then tells the hub, whose connections each
render their own seat's view. Unfinished matches are rebuilt from their event log when
the server starts or their room is first touched, so a killed server loses nothing it
acknowledged.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

import games
from app import store
from app.db import make_session_factory
from app.hub import Connection, Hub
from app.models import Match, Room, Seat, iso
from games.base import IllegalAction, Previews, Rules
from games.bots import choose
from games.bots.simple import KINDS as BOT_KINDS

log = logging.getLogger("parlour.rooms")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 6
BOT_NAMES = ("Ada", "Babbage", "Turing", "Hopper", "Lovelace", "Knuth")


class RoomError(Exception):
    """A refused request: a code from docs/protocol.md, a sentence, an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass
class SeatHolder:
    user_id: str | None
    bot: str | None
    name: str


@dataclass
class LiveRoom:
    """A room in memory. Its fields change only inside RoomService, under ``lock``."""

    id: str
    code: str
    rules: Rules
    seat_count: int
    options: dict[str, Any]
    visibility: str
    status: str
    host_id: str
    created_at: str
    seats: list[SeatHolder | None]
    match_id: str | None = None
    seed: int | None = None
    seed_hash: str | None = None
    state: Any = None
    version: int = 0
    last_event: dict[str, Any] | None = None
    rematch_id: str | None = None
    # Bumped on every change of seats or status, so connections know to resend room info.
    meta_version: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    # Rendered messages for the current versions, shared by connections of the same seat.
    cache: dict[Any, str] = field(default_factory=dict)

    def seat_of(self, user_id: str | None) -> int | None:
        if user_id is None:
            return None
        for index, holder in enumerate(self.seats):
            if holder is not None and holder.user_id == user_id:
                return index
        return None

    def bot_seats(self) -> list[int]:
        return [i for i, h in enumerate(self.seats) if h is not None and h.bot is not None]


class RoomService:
    """Creates, loads and changes rooms; owns the in-memory room table."""

    def __init__(
        self,
        engine: Engine,
        hub: Hub,
        *,
        bot_delay: float,
    ) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = make_session_factory(engine)
        self.hub = hub
        self.bot_delay = bot_delay
        self.rooms: dict[str, LiveRoom] = {}
        self._load_lock = asyncio.Lock()

    # --- loading ----------------------------------------------------------------------

    async def resume_all(self) -> int:
        """Rebuild every unfinished match from its log (server start). Returns how many."""
        with self.sessions() as session:
            ids = store.playing_room_ids(session=session)
        for room_id in ids:
            await self.get(room_id)
        return len(ids)

    async def get(self, room_id_or_code: str) -> LiveRoom:
        room = self.rooms.get(room_id_or_code)
        if room is not None:
            return room
        async with self._load_lock:
            room = self.rooms.get(room_id_or_code)
            if room is None:
                room = self._load(room_id_or_code)
                self.rooms[room.id] = room
                self._kick_bots(room)
            return room

    def _load(self, room_id_or_code: str) -> LiveRoom:
        with self.sessions() as session:
            row = store.load_room(session=session, room_id=room_id_or_code)
            if row is None and len(room_id_or_code) <= CODE_LENGTH + 2:
                found = store.find_room_id_by_code(session=session, code=room_id_or_code)
                row = store.load_room(session=session, room_id=found) if found else None
            if row is None:
                raise RoomError("room_not_found", "There is no such room.", 404)
            room = self._from_row(row)
            if row.match_id is not None:
                match = store.load_match(session=session, match_id=row.match_id)
                assert match is not None
                events = store.load_events(session=session, match_id=row.match_id)
                self._rebuild(room, match, events)
        return room

    def _from_row(self, row: Room) -> LiveRoom:
        seats: list[SeatHolder | None] = [None] * row.seat_count
        for seat in row.seats:
            seats[seat.seat] = SeatHolder(seat.user_id, seat.bot, seat.name)
        return LiveRoom(
            id=row.id,
            code=row.code,
            rules=games.get(row.game),
            seat_count=row.seat_count,
            options=dict(row.options),
            visibility=row.visibility,
            status=row.status,
            host_id=row.host_id,
            created_at=iso(row.created_at),
            seats=seats,
            match_id=row.match_id,
            rematch_id=row.rematch_id,
        )

    def _rebuild(self, room: LiveRoom, match: Match, events: list[Any]) -> None:
        """State = replay of the log (DESIGN.md §5): never stored, always derived."""
        room.seed = int(match.seed)
        room.seed_hash = match.seed_hash
        state = room.rules.new_game(room.seat_count, room.seed, match.options, None)
        for event in events:
            state = room.rules.apply(state, event.seat, event.action)
        room.state = state
        room.version = len(events)
        if events:
            room.last_event = _public_event(events[-1].seq, events[-1].seat, events[-1].action)

    def release_if_idle(self, room: LiveRoom) -> None:
        """Forget a finished room nobody watches; it reloads from the database if needed."""
        if room.status == "finished" and not self.hub.watched(room.id):
            self.rooms.pop(room.id, None)

    # --- creating and seating ---------------------------------------------------------

    async def create(
        self,
        *,
        host_id: str,
        host_name: str,
        game: str,
        seats: int | None,
        options: dict[str, Any],
        visibility: str,
    ) -> LiveRoom:
        try:
            rules = games.get(game)
        except KeyError as error:
            raise RoomError("unknown_game", str(error.args[0]), 422) from None
        seat_count = rules.min_seats if seats is None else seats
        merged = validate_options(rules, seat_count, options)
        with self.sessions() as session:
            row = Room(
                id=secrets.token_hex(8),
                code=self._new_code(session),
                game=game,
                seat_count=seat_count,
                options=merged,
                visibility=visibility,
                status="waiting",
                host_id=host_id,
            )
            host_seat = Seat(seat=0, user_id=host_id, bot=None, name=host_name)
            store.insert_room(session=session, room=row, seats=[host_seat])
            room = self._from_row(row)
        self.rooms[room.id] = room
        return room

    def _new_code(self, session: Session) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if not store.code_exists(session=session, code=code):
                return code

    async def join(self, room: LiveRoom, *, user_id: str, name: str, seat: int | None) -> int:
        async with room.lock:
            mine = room.seat_of(user_id)
            if mine is not None:
                if seat is not None and seat != mine:
                    raise RoomError("already_seated", f"You already sit in seat {mine + 1}.")
                return mine
            if room.status != "waiting":
                raise RoomError("not_waiting", "This match has started; you can watch it.")
            free = [i for i, holder in enumerate(room.seats) if holder is None]
            if not free:
                raise RoomError("room_full", "Every seat is taken; you can watch.")
            if seat is None:
                seat = free[0]
            self._check_seat_index(room, seat)
            if room.seats[seat] is not None:
                raise RoomError("seat_taken", f"Seat {seat + 1} is taken.")
            if any(h is not None and h.name.casefold() == name.casefold() for h in room.seats):
                raise RoomError("name_taken", f"Someone at this table is already called {name}.")
            with self.sessions() as session:
                store.put_seat(
                    session=session,
                    room_id=room.id,
                    seat=seat,
                    user_id=user_id,
                    bot=None,
                    name=name,
                )
            room.seats[seat] = SeatHolder(user_id, None, name)
            self._changed(room)
            return seat

    async def leave(self, room: LiveRoom, *, user_id: str) -> None:
        async with room.lock:
            seat = room.seat_of(user_id)
            if seat is None:
                raise RoomError("not_seated", "You do not sit at this table.")
            if room.status != "waiting":
                raise RoomError("not_waiting", "You cannot leave a match that has started.")
            with self.sessions() as session:
                store.free_seat(session=session, room_id=room.id, seat=seat)
                room.seats[seat] = None
                if room.host_id == user_id:
                    # The host role passes to the next person at the table, if any.
                    people = [h.user_id for h in room.seats if h is not None and h.user_id]
                    if people:
                        room.host_id = people[0]  # type: ignore[assignment]
                        store.update_room(session=session, room_id=room.id, host_id=room.host_id)
            self._changed(room)

    async def add_bot(self, room: LiveRoom, *, user_id: str, seat: int, kind: str) -> None:
        async with room.lock:
            self._check_host(room, user_id)
            self._check_seat_index(room, seat)
            if kind not in BOT_KINDS:
                raise RoomError("bad_request", f"Unknown computer player {kind!r}.", 422)
            holder = room.seats[seat]
            if room.status == "waiting":
                if holder is not None:
                    raise RoomError("seat_taken", f"Seat {seat + 1} is taken.")
            elif room.status == "playing":
                # A player who left for good may be replaced so the others can finish.
                if holder is None or holder.bot is not None:
                    raise RoomError("seat_taken", f"Seat {seat + 1} is already a computer.")
                if seat in self.hub.connected_seats(room.id):
                    raise RoomError(
                        "seat_taken", f"{holder.name} is still connected to seat {seat + 1}."
                    )
            else:
                raise RoomError("match_over", "This match is over.")
            taken = {h.name for h in room.seats if h is not None}
            name = next((n for n in BOT_NAMES if n not in taken), f"Computer {seat + 1}")
            with self.sessions() as session:
                store.put_seat(
                    session=session, room_id=room.id, seat=seat, user_id=None, bot=kind, name=name
                )
            room.seats[seat] = SeatHolder(None, kind, name)
            self._changed(room)
        self._kick_bots(room)

    async def free_seat(self, room: LiveRoom, *, user_id: str, seat: int) -> None:
        """The host frees a seat before the start (removes a computer player or a guest)."""
        async with room.lock:
            self._check_host(room, user_id)
            self._check_seat_index(room, seat)
            if room.status != "waiting":
                raise RoomError("not_waiting", "Seats can only be freed before the start.")
            holder = room.seats[seat]
            if holder is None:
                raise RoomError("seat_empty", f"Seat {seat + 1} is already free.")
            if holder.user_id == user_id:
                raise RoomError("bad_request", "The host cannot remove themselves; leave instead.")
            with self.sessions() as session:
                store.free_seat(session=session, room_id=room.id, seat=seat)
            room.seats[seat] = None
            self._changed(room)

    async def start(self, room: LiveRoom, *, user_id: str) -> None:
        async with room.lock:
            self._check_host(room, user_id)
            if room.status != "waiting":
                raise RoomError("not_waiting", "This match has already started.")
            if any(holder is None for holder in room.seats):
                raise RoomError("seats_free", "Every seat must be taken before the start.")
            seed = secrets.randbits(128)
            state = room.rules.new_game(room.seat_count, seed, room.options, None)
            match = Match(
                id=secrets.token_hex(8),
                room_id=room.id,
                game=room.rules.name,
                seat_count=room.seat_count,
                options=room.options,
                seed=str(seed),
                seed_hash=seed_hash(seed),
                players=[
                    {"seat": i, "name": h.name, "user_id": h.user_id, "bot": h.bot}
                    for i, h in enumerate(room.seats)
                    if h is not None
                ],
                status="playing",
            )
            with self.sessions() as session:
                store.start_match(
                    session=session,
                    room_id=room.id,
                    match=match,
                    user_ids=[h.user_id for h in room.seats if h is not None],
                )
            room.match_id, room.seed, room.seed_hash = match.id, seed, match.seed_hash
            room.state, room.version, room.status = state, 0, "playing"
            self._changed(room)
        self._kick_bots(room)

    async def rematch(self, room: LiveRoom, *, user_id: str) -> LiveRoom:
        """A new room with the same game, options and people, in the same seats."""
        async with room.lock:
            if room.status != "finished":
                raise RoomError("not_finished", "A rematch can start once this match is over.")
            if room.seat_of(user_id) is None:
                raise RoomError("not_seated", "Only the players can ask for a rematch.", 403)
            if room.rematch_id is not None:
                return await self.get(room.rematch_id)
            with self.sessions() as session:
                options = {k: v for k, v in room.options.items() if k != "dealer"}
                row = Room(
                    id=secrets.token_hex(8),
                    code=self._new_code(session),
                    game=room.rules.name,
                    seat_count=room.seat_count,
                    options=options,
                    visibility=room.visibility,
                    status="waiting",
                    host_id=user_id,
                )
                seats = [
                    Seat(seat=i, user_id=h.user_id, bot=h.bot, name=h.name)
                    for i, h in enumerate(room.seats)
                    if h is not None
                ]
                store.insert_room(session=session, room=row, seats=seats, rematch_of=room.id)
                new_room = self._from_row(row)
            new_id = new_room.id
            room.rematch_id = new_id
            self.rooms[new_id] = new_room
            self._changed(room)
            return new_room

    # --- play ---------------------------------------------------------------------------

    async def act(self, room: LiveRoom, *, seat: int | None, version: Any, action: Any) -> None:
        """Check, persist, apply and announce one action; raise RoomError if refused."""
        async with room.lock:
            self._check_turn(room, seat, version)
            assert seat is not None
            try:
                new_state = room.rules.apply(room.state, seat, action)
            except IllegalAction as error:
                raise RoomError("illegal_action", str(error)) from None
            over = room.rules.is_over(new_state)
            result = (room.rules.scores(new_state), room.rules.winners(new_state)) if over else None
            seq = room.version + 1
            assert room.match_id is not None
            try:
                with self.engine.begin() as connection:
                    store.append_event(
                        connection=connection,
                        match_id=room.match_id,
                        seq=seq,
                        seat=seat,
                        action=action,
                        result=result,
                        room_id=room.id,
                    )
            except IntegrityError:
                # Another process appended this seq first: catch up from the log.
                with self.sessions() as session:
                    match = store.load_match(session=session, match_id=room.match_id)
                    events = store.load_events(session=session, match_id=room.match_id)
                    assert match is not None
                    self._rebuild(room, match, events)
                self._changed(room)
                raise RoomError("stale_version", "The table has moved on; try again.") from None
            room.state, room.version = new_state, seq
            room.last_event = _public_event(seq, seat, action)
            if over:
                room.status = "finished"
                self._changed(room)
            else:
                self._state_changed(room)
        self._kick_bots(room)

    async def preview(
        self, room: LiveRoom, *, seat: int | None, version: Any, action: Any
    ) -> dict[str, Any]:
        """What ``action`` would do, checked as ``act`` checks it; never changes anything.

        The same refusals in the same order as ``act`` (RoomError). Then the game's own
        ``preview`` when it has one (games.base.Previews), else ``apply`` on the current
        state with the result discarded (``{}``): states are immutable, so nothing moves.
        There is no await between the checks and the answer, so it needs no lock: it sees
        one consistent version.
        """
        self._check_turn(room, seat, version)
        try:
            if isinstance(room.rules, Previews):
                return room.rules.preview(room.state, seat, action)
            room.rules.apply(room.state, seat, action)
        except IllegalAction as error:
            raise RoomError("illegal_action", str(error)) from None
        return {}

    @staticmethod
    def _check_turn(room: LiveRoom, seat: int | None, version: Any) -> None:
        """The refusals shared by act and preview, in the order a player meets them."""
        if room.status == "waiting":
            raise RoomError("match_not_started", "The match has not started yet.")
        if seat is None:
            raise RoomError("not_seated", "You are watching this table, not playing at it.")
        if room.status == "finished" or room.rules.is_over(room.state):
            raise RoomError("match_over", "The match is over.")
        if version != room.version:
            raise RoomError(
                "stale_version",
                f"The table has moved on (version {room.version}, you sent {version}).",
            )
        if seat not in room.rules.to_act(room.state):
            raise RoomError("not_your_turn", "It is not your turn.")

    # --- computer players ---------------------------------------------------------------

    def _kick_bots(self, room: LiveRoom) -> None:
        if room.status != "playing" or not room.bot_seats():
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._drive_bots(room))

    async def _drive_bots(self, room: LiveRoom) -> None:
        """Play every computer player's turns until a person is awaited or the match ends."""
        while room.status == "playing":
            waiting = [s for s in room.rules.to_act(room.state) if s in room.bot_seats()]
            if not waiting:
                return
            await asyncio.sleep(self.bot_delay)
            for seat in waiting:
                holder = room.seats[seat]
                if room.status != "playing" or holder is None or holder.bot is None:
                    continue
                if seat not in room.rules.to_act(room.state):
                    continue
                version = room.version
                try:
                    action = choose(
                        room.rules, room.state, seat, f"{room.seed}:{version}:{seat}", holder.bot
                    )
                except Exception:
                    # A computer player must never hang a match: fall back to any legal move.
                    log.exception("computer player failed in room %s seat %s", room.id, seat)
                    action = room.rules.legal_actions(room.state, seat)[0]
                try:
                    await self.act(room, seat=seat, version=version, action=action)
                except RoomError as error:  # a person acted first; look again
                    log.debug("bot in room %s seat %s: %s", room.id, seat, error.message)

    # --- rendering ----------------------------------------------------------------------

    def _changed(self, room: LiveRoom) -> None:
        """Seats or status changed: connections get the room description and their view."""
        room.meta_version += 1
        room.cache.clear()
        self.hub.notify(room.id)

    def _state_changed(self, room: LiveRoom) -> None:
        """Only the match moved on: connections get their new view, not the room again."""
        room.cache.clear()  # the room description carries the version too, for newcomers
        self.hub.notify(room.id)

    def messages_for(self, room: LiveRoom, connection: Connection) -> list[str]:
        """What a connection has not seen yet: room info and/or its own seat's state."""
        # A watcher who takes a seat (or a seat given to a computer) acts as that from now on.
        seat = connection.seat = room.seat_of(connection.user_id)
        out: list[str] = []
        if connection.sent_meta != room.meta_version:
            connection.sent_meta = room.meta_version
            out.append(self._cached(room, "room", lambda: self._room_message(room)))
        stale = connection.sent_version != room.version or connection.sent_seat != seat
        if room.state is not None and stale:
            connection.sent_version, connection.sent_seat = room.version, seat
            out.append(self._cached(room, ("state", seat), lambda: self._state_message(room, seat)))
        return out

    def _room_message(self, room: LiveRoom) -> dict[str, Any]:
        return {"type": "room", "room": describe(room, self.hub)}

    @staticmethod
    def _state_message(room: LiveRoom, seat: int | None) -> dict[str, Any]:
        return {
            "type": "state",
            "version": room.version,
            "seat": seat,
            "view": room.rules.view(room.state, seat),
            "event": room.last_event,
        }

    def presence_changed(self, room: LiveRoom) -> None:
        """Someone connected or left: only the room info (who is here) is resent."""
        room.meta_version += 1
        room.cache.pop("room", None)
        self.hub.notify(room.id)

    @staticmethod
    def _cached(room: LiveRoom, key: Any, build: Callable[[], dict[str, Any]]) -> str:
        text = room.cache.get(key)
        if text is None:
            text = orjson.dumps(build()).decode()
            room.cache[key] = text
        return text

    # --- checks -------------------------------------------------------------------------

    @staticmethod
    def _check_host(room: LiveRoom, user_id: str) -> None:
        if room.host_id != user_id:
            raise RoomError("not_host", "Only the host can do that.", 403)

    @staticmethod
    def _check_seat_index(room: LiveRoom, seat: int) -> None:
        if not 0 <= seat < room.seat_count:
            raise RoomError(
                "bad_seat",
                f"Seats are numbered 0 to {room.seat_count - 1}; there is no {seat}.",
                422,
            )


def validate_options(rules: Rules, seats: int, options: dict[str, Any]) -> dict[str, Any]:
    """The game's defaults updated with ``options``; refuse what the game refuses, with why."""
    try:
        rules.new_game(seats, 0, options, None)
    except ValueError as error:
        raise RoomError("bad_options", str(error), 422) from None
    return {**rules.default_options(), **options}


def seed_hash(seed: int) -> str:
    """The public commitment to a secret seed: hex SHA-256 of its decimal string."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def _public_event(seq: int, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    # Only the kind of action: its card may be hidden (a Downcard, a gift); the view's
    # "last" says publicly what happened.
    return {"seq": seq, "seat": seat, "type": action.get("type")}


def describe(room: LiveRoom, hub: Hub) -> dict[str, Any]:
    """The public description of a room (GET /api/rooms/{id}, the "room" message)."""
    connected = hub.connected_seats(room.id)
    return {
        "id": room.id,
        "code": room.code,
        "game": room.rules.name,
        "title": room.rules.title,
        "seat_count": room.seat_count,
        "seats": [
            {
                "seat": i,
                "name": h.name if h else None,
                "user_id": h.user_id if h else None,
                "bot": h.bot if h else None,
                "connected": (h is not None and h.bot is not None) or i in connected,
            }
            for i, h in enumerate(room.seats)
        ],
        "options": room.options,
        "visibility": room.visibility,
        "status": room.status,
        "host_id": room.host_id,
        "match_id": room.match_id,
        "seed_hash": room.seed_hash,
        "version": room.version,
        "rematch_id": room.rematch_id,
        "created_at": room.created_at,
        "watchers": len(hub.connections(room.id)),
    }
