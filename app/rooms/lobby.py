"""The lobby verbs: everything that happens to a room around its match.

Create a room, join and leave it, give a seat to a computer player, free a seat, start
the match, open a rematch; two that the room's timers run (app/rooms/timers.py):
hand the host role on when the host has been away for the absence grace, and close a
waiting table nobody has sat at for the stale time; and a moderator's closing of a waiting
table (app/moderation/). Each verb checks under the room's
lock, writes one transaction, then changes the room in memory and tells the notifier — in
that order, so a refused or failed verb changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

import games
from app import store
from app.i18n.marks import N_
from app.models import Match, Room, Seat, utcnow
from app.people.confusables import looks_alike
from app.refusal import Refusal
from app.rooms import turn_clocks
from app.rooms.away import host_away_since, host_successor
from app.rooms.notifier import Notifier, Presence
from app.rooms.pace import LIVE, TURN_BASED, deadline_columns, move_clock, pace_setting
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.referee import begin, set_turn_clocks
from app.rooms.registry import RoomRegistry, live_room
from app.rooms.stand_ins import StandIns, holder_columns
from app.rooms.storage import RoomStorage
from app.rooms.time_source import TimeSource
from app.rooms.turn_clocks import TurnClocks
from app.store import social as social_store
from games import Rules
from games.bots import KINDS as BOT_KINDS
from games.kit.options import for_rematch

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 6


def validate_options(rules: Rules[Any], seats: int, options: dict[str, Any]) -> dict[str, Any]:
    """The game's defaults updated with ``options``; refuse what the game refuses, with why."""
    try:
        rules.new_game(seats, 0, options, None)
    except ValueError as error:
        raise Refusal("bad_options", str(error), 422) from None
    return {**rules.default_options(), **options}


def seed_hash(seed: int) -> str:
    """The public commitment to a secret seed: hex SHA-256 of its decimal string."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def check_host(room: LiveRoom, user_id: str) -> None:
    if room.host_id != user_id:
        raise Refusal("not_host", N_("Only the host can do that."), 403)


def _check_seat_index(room: LiveRoom, seat: int) -> None:
    if not 0 <= seat < room.seat_count:
        raise Refusal(
            "bad_seat",
            N_("Seats are numbered 0 to {last}; there is no {seat}."),
            422,
            last=room.seat_count - 1,
            seat=seat,
        )


def _check_seats_taken(room: LiveRoom) -> None:
    if any(holder is None for holder in room.seats):
        raise Refusal("seats_free", N_("Every seat must be taken before the start."))


def _check_not_closed(room: LiveRoom) -> None:
    if room.status == "closed":
        raise Refusal(
            "room_closed", N_("This table was closed: nobody was at it for a long while.")
        )


@dataclass(frozen=True)
class MatchStart:
    """A match about to begin in a room: its row, its secret seed and the first state it
    deals, the seats' people (in seat order), its turn clocks (None: untimed) and the
    room's other columns it changes (a turn-based table's first deadline)."""

    match: Match
    seed: int
    first: Any
    user_ids: list[str | None]
    clocks: TurnClocks | None
    room_changes: dict[str, Any]

    @property
    def clock_state(self) -> dict[str, Any] | None:
        return None if self.clocks is None else self.clocks.to_json()


def new_match(room: LiveRoom, now: float) -> MatchStart:
    """The match that begins in ``room`` (every seat taken) at ``now``, with a fresh
    secret seed; nothing stored or changed yet."""
    seed = secrets.randbits(128)
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
        created_at=utcnow(),
        rated=room.rated,
    )
    clocks = None
    setting = move_clock(room)
    first = room.rules.new_game(room.seat_count, seed, room.options, None)
    if setting is not None:
        clocks = turn_clocks.started(setting, room.seat_count, room.rules.to_act(first), now)
    return MatchStart(
        match,
        seed,
        first,
        [h.user_id for h in room.seats if h is not None],
        clocks,
        deadline_columns(room, clocks, first),
    )


def begun(room: LiveRoom, start: MatchStart) -> None:
    """``room`` plays the match ``start`` now (stored already)."""
    begin(
        room,
        match_id=start.match.id,
        seed=start.seed,
        seed_hash=start.match.seed_hash,
        first=start.first,
    )
    set_turn_clocks(room, start.clocks)
    room.status = "playing"


class Lobby:
    """The verbs people use on a room outside the play itself."""

    def __init__(
        self,
        storage: RoomStorage,
        registry: RoomRegistry,
        notifier: Notifier,
        presence: Presence,
        time_source: TimeSource,
        stand_ins: StandIns,
    ) -> None:
        self.storage = storage
        self.registry = registry
        self.notifier = notifier
        self.presence = presence
        self.time_source = time_source
        self.stand_ins = stand_ins

    def _changed(self, room: LiveRoom) -> None:
        room.described()
        self.notifier.room_changed(room)

    async def _new_code(self, visibility: str) -> str | None:
        """A free short code for a public room; a private room has none, so nobody can
        reach it by guessing (its link carries its 64-bit id)."""
        if visibility != "public":
            return None
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if not await self.storage.call(store.code_exists, code=code):
                return code

    async def create(
        self,
        *,
        host_id: str,
        host_name: str,
        game: str,
        seats: int | None,
        options: dict[str, Any],
        visibility: str,
        rated: bool = False,
        clock: dict[str, Any] | None = None,
        pace: str = LIVE,
        days_per_move: int | None = None,
    ) -> LiveRoom:
        """A new waiting room, live (with a turn clock or none) or turn-based (with days per
        move); the host sits in seat 0. A rated room is for accounts only (the caller checks
        that the host is one)."""
        try:
            rules = games.get(game)
        except KeyError as error:
            raise Refusal("unknown_game", str(error.args[0]), 422) from None
        seat_count = rules.min_seats if seats is None else seats
        merged = validate_options(rules, seat_count, options)
        setting = turn_clocks.clock_setting(clock)
        pace, days_per_move = pace_setting(pace, days_per_move)
        if pace == TURN_BASED and setting is not None:
            raise Refusal(
                "bad_pace", N_("A turn-based table has days per move, not a turn clock."), 422
            )
        row = Room(
            id=secrets.token_hex(8),
            code=await self._new_code(visibility),
            game=game,
            seat_count=seat_count,
            options=merged,
            visibility=visibility,
            status="waiting",
            host_id=host_id,
            created_at=utcnow(),
            rated=rated,
            clock=setting,
            pace=pace,
            days_per_move=days_per_move,
            watchers_chat=True,
            muted=[],
            mute_marks={},
        )
        row.seats = [Seat(seat=0, user_id=host_id, name=host_name)]
        await self.storage.call(store.insert_room, room=row)
        return self._opened(row)

    async def join(
        self, room: LiveRoom, *, user_id: str, name: str, seat: int | None, account: bool = False
    ) -> int:
        """Take ``seat`` (or the first free one); asking again answers the seat held.

        A name that looks like one already seated (app/people/confusables.py) is refused, and so
        is a guest at a rated table."""
        async with room.lock:
            mine = room.seat_of(user_id)
            if mine is not None:
                if seat is not None and seat != mine:
                    raise Refusal(
                        "already_seated", N_("You already sit in seat {seat}."), seat=mine + 1
                    )
                return mine
            _check_not_closed(room)
            if room.status != "waiting":
                raise Refusal("not_waiting", N_("This match has started; you can watch it."))
            free = [i for i, holder in enumerate(room.seats) if holder is None]
            if not free:
                raise Refusal("room_full", N_("Every seat is taken; you can watch."))
            if seat is None:
                seat = free[0]
            _check_seat_index(room, seat)
            if room.seats[seat] is not None:
                raise Refusal("seat_taken", N_("Seat {seat} is taken."), seat=seat + 1)
            if room.rated and not account:
                raise Refusal(
                    "account_needed", N_("A rated table is for accounts: log in or sign up."), 403
                )
            if any(h is not None and looks_alike(h.name, name) for h in room.seats):
                raise Refusal(
                    "name_taken",
                    N_("Someone at this table is already called {name} (or alike)."),
                    name=name,
                )
            holder = SeatHolder(user_id, None, name)
            await self.storage.call(
                store.put_seat, room_id=room.id, seat=seat, holder=holder_columns(holder)
            )
            room.seats[seat] = holder
            self._changed(room)
            return seat

    async def leave(self, room: LiveRoom, *, user_id: str) -> None:
        """Free your seat before the start; a leaving host hands the role on."""
        async with room.lock:
            seat = room.seat_of(user_id)
            if seat is None:
                raise Refusal("not_seated", N_("You do not sit at this table."))
            _check_not_closed(room)
            if room.status != "waiting":
                raise Refusal("not_waiting", N_("You cannot leave a match that has started."))
            new_host: str | None = None
            if room.host_id == user_id:
                # The host role passes to the next person at the table, if any.
                new_host = next(
                    (
                        h.user_id
                        for i, h in enumerate(room.seats)
                        if i != seat and h is not None and h.user_id is not None
                    ),
                    None,
                )
            await self.storage.call(
                store.free_seat, room_id=room.id, seat=seat, new_host_id=new_host
            )
            room.seats[seat] = None
            if new_host is not None:
                room.host_id = new_host
            self._changed(room)

    async def add_bot(self, room: LiveRoom, *, user_id: str, seat: int, kind: str) -> None:
        """The host gives a free seat to a computer player — or, during play, the seat of a
        person away for longer than the absence grace (app/rooms/stand_ins.py), so that
        the others can finish; at a turn-based table any other player may, once the
        person's deadline has passed. The person may take it back."""
        _check_seat_index(room, seat)
        if kind not in BOT_KINDS:
            raise Refusal("bad_request", N_("Unknown computer player {kind!r}."), 422, kind=kind)
        if room.status == "playing" and room.pace == TURN_BASED:
            await self.stand_ins.after_deadline(room, user_id=user_id, seat=seat, kind=kind)
            return
        if room.status == "playing":
            await self.stand_ins.replace(room, user_id=user_id, seat=seat, kind=kind)
            return
        async with room.lock:
            check_host(room, user_id)
            _check_not_closed(room)
            if room.status != "waiting":
                raise Refusal("match_over", N_("This match is over."))
            if room.rated:
                raise Refusal("rated_table", N_("A rated table has no computer players."))
            if room.seats[seat] is not None:
                raise Refusal("seat_taken", N_("Seat {seat} is taken."), seat=seat + 1)
            holder = SeatHolder(None, kind, room.computer_name(seat))
            await self.storage.call(
                store.put_seat, room_id=room.id, seat=seat, holder=holder_columns(holder)
            )
            room.seats[seat] = holder
            self._changed(room)

    async def free_seat(self, room: LiveRoom, *, user_id: str, seat: int) -> None:
        """The host frees a seat before the start (removes a computer player or a guest)."""
        async with room.lock:
            check_host(room, user_id)
            _check_seat_index(room, seat)
            _check_not_closed(room)
            if room.status != "waiting":
                raise Refusal("not_waiting", N_("Seats can only be freed before the start."))
            holder = room.seats[seat]
            if holder is None:
                raise Refusal("seat_empty", N_("Seat {seat} is already free."), seat=seat + 1)
            if holder.user_id == user_id:
                raise Refusal(
                    "bad_request", N_("The host cannot remove themselves; leave instead.")
                )
            await self.storage.call(store.free_seat, room_id=room.id, seat=seat)
            room.seats[seat] = None
            self._changed(room)

    async def start(self, room: LiveRoom, *, user_id: str) -> None:
        """The host starts the match once every seat is taken, with a fresh secret seed."""
        async with room.lock:
            check_host(room, user_id)
            _check_not_closed(room)
            if room.status != "waiting":
                raise Refusal("not_waiting", N_("This match has already started."))
            _check_seats_taken(room)
            await self._begin(room)

    async def _begin(self, room: LiveRoom) -> None:
        """Start the match of a room whose every seat is taken (under its lock): a fresh
        secret seed, the match stored, the turn clocks running."""
        start = new_match(room, self.time_source.now())
        await self.storage.call(
            store.start_match,
            room_id=room.id,
            match=start.match,
            user_ids=start.user_ids,
            clock_state=start.clock_state,
            room_changes=start.room_changes,
        )
        begun(room, start)
        self._changed(room)

    def _opened(self, row: Room) -> LiveRoom:
        """A table just stored, held here from now on."""
        return self.registry.add(live_room(row))

    async def rematch(self, room: LiveRoom, *, user_id: str) -> LiveRoom:
        """A new room with the same game, options, clock and people, in the same seats.

        The people seated at the end sit again, and so do the computers the host chose;
        a seat a computer stood in for at the end is left free (its person may sit again,
        or the host may give it to a computer).
        """
        async with room.lock:
            if room.status != "finished":
                raise Refusal("not_finished", N_("A rematch can start once this match is over."))
            if room.seat_of(user_id) is None:
                raise Refusal("not_seated", N_("Only the players can ask for a rematch."), 403)
            if room.rematch_id is not None:
                return await self.registry.get(room.rematch_id)
            seated = [h if h is not None and h.stand_in_for is None else None for h in room.seats]
            seated = await self._apart_from_blocks(seated, user_id)
            new_room = await self.open_rematch(room, host_id=user_id, seats=seated)
            self._changed(room)
            return new_room

    async def _apart_from_blocks(
        self, seats: list[SeatHolder | None], host_id: str
    ) -> list[SeatHolder | None]:
        """``seats`` with the seat left free of anyone who blocked, or was blocked by, the
        new host or someone kept before them (in seat order).

        A person you block cannot sit at a table you host or at one where you are seated;
        nobody chose this seating but the caller, so neither side of a block is seated with
        the other on the caller's word. The one left out may still take the free seat (the
        blocker may sit with the person she blocked), as at any table."""
        people = {h.user_id for h in seats if h is not None and h.user_id is not None}
        blocks = await self.storage.call(social_store.blocks_among, user_ids=people)
        if not blocks:
            return seats
        apart = {frozenset(pair) for pair in blocks}
        kept = {host_id}
        result: list[SeatHolder | None] = []
        for holder in seats:
            person = None if holder is None else holder.user_id
            if person is not None and person != host_id:
                if any(frozenset((person, other)) in apart for other in kept):
                    result.append(None)
                    continue
                kept.add(person)
            result.append(holder)
        return result

    async def open_rematch(
        self, room: LiveRoom, *, host_id: str, seats: list[SeatHolder | None]
    ) -> LiveRoom:
        """The rematch room of a finished ``room`` (under its lock), waiting, with ``seats``
        taken as given; ``room`` names it from now on. Whoever calls tells of the change."""
        row = await self._rematch_row(room, host_id=host_id, seats=seats)
        await self.storage.call(store.insert_room, room=row, rematch_of=room.id)
        new_room = self._opened(row)
        room.rematch_id = new_room.id
        return new_room

    async def open_begun_rematch(
        self, room: LiveRoom, *, seats: list[SeatHolder | None]
    ) -> LiveRoom:
        """The rematch everyone accepted of a finished ``room`` (under its lock), every one
        of ``seats`` taken, its match begun: the room, its seats, its match and the
        finished room's link to it stored in one transaction. A process that reads the new
        room before this one claims it (another's sweep for rooms nobody holds) finds its
        match there and referees that one. ``room`` names it from now on; whoever calls
        claims the new room and tells of both."""
        row = await self._rematch_row(room, host_id=room.host_id, seats=seats)
        new_room = live_room(row)
        start = new_match(new_room, self.time_source.now())
        row.status, row.match_id = "playing", start.match.id
        row.clock_state = start.clock_state
        for column, value in start.room_changes.items():
            setattr(row, column, value)
        await self.storage.call(
            store.open_begun_rematch,
            room=row,
            rematch_of=room.id,
            match=start.match,
            user_ids=start.user_ids,
        )
        begun(new_room, start)
        self.registry.add(new_room)
        room.rematch_id = new_room.id
        return new_room

    async def _rematch_row(
        self, room: LiveRoom, *, host_id: str, seats: list[SeatHolder | None]
    ) -> Room:
        """The unsaved row of ``room``'s rematch, waiting, with ``seats`` taken."""
        row = Room(
            id=secrets.token_hex(8),
            code=await self._new_code(room.visibility),
            game=room.rules.name,
            seat_count=room.seat_count,
            options=for_rematch(room.options),
            visibility=room.visibility,
            status="waiting",
            host_id=host_id,
            created_at=utcnow(),
            rated=room.rated,
            clock=room.time_control,
            pace=room.pace,
            days_per_move=room.days_per_move,
            watchers_chat=True,
            muted=[],
            mute_marks={},
        )
        row.seats = [
            Seat(seat=i, user_id=h.user_id, bot=h.bot, name=h.name)
            for i, h in enumerate(seats)
            if h is not None
        ]
        return row

    async def hand_over_host(self, room: LiveRoom, *, grace: float) -> None:
        """The host has been away for ``grace`` seconds: the next seated person who is
        connected becomes host (the room's timers call this; nothing if nobody is)."""
        async with room.lock:
            since = host_away_since(room)
            if room.ended or since is None or self.time_source.now() < since + grace:
                return
            successor = host_successor(room, self.presence.connected_users(room.id))
            if successor is None:
                return
            await self.storage.call(
                store.update_room, room_id=room.id, changes={"host_id": successor}
            )
            room.host_id = successor
            self._changed(room)

    async def close(self, room: LiveRoom, *, stale_after: float) -> None:
        """A waiting table no seat's person has been at for ``stale_after`` seconds closes
        (the room's timers call this)."""
        async with room.lock:
            vacant = room.vacant_since
            if room.status != "waiting" or vacant is None:
                return
            if self.time_source.now() < vacant + stale_after:
                return
            await self._close(room)

    async def close_now(self, room: LiveRoom) -> bool:
        """A moderator closes a waiting table at once; False when it is not waiting."""
        async with room.lock:
            if room.status != "waiting":
                return False
            await self._close(room, closed_by="moderator")
            return True

    async def _close(self, room: LiveRoom, closed_by: str | None = None) -> None:
        changes = {"status": "closed", "code": None, "closed_by": closed_by}
        await self.storage.call(store.update_room, room_id=room.id, changes=changes)
        room.status, room.code, room.closed_by = "closed", None, closed_by
        self._changed(room)
