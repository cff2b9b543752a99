"""The referee: the only code that changes a room's game state, version and turn clocks.

``act`` checks an action (the match is on, the seat may act at this version, whoever
sends it holds the seat, the rules accept it), appends it to the match's log with who made
it and the room's turn clocks after it — the commit is the acknowledgement — and only then
moves the room to the new state and tells the notifier; the move the log already holds,
sent again by the same seat at the same version, is answered as taken and played once.
``preview`` runs the same checks and says what the action would do without playing it.
``begin`` and ``restore`` set a room's state at the start of a match and from its log;
``follow`` moves this process's copy of a room another process referees
(app/rooms/follower.py); ``set_turn_clocks`` is how the lobby, the stand-ins and the
follower set the clocks they stored or were told; ``abandon`` ends a match nobody stayed
for; ``claim`` ends a turn-based match whose awaited people ran out of time;
``restart_clocks`` gives awaited seats their turn afresh when this process takes charge of
a running match (app/rooms/turn_clocks.py says why)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy.exc import IntegrityError

import games
from app import store
from app.i18n.marks import N_
from app.models import Match, MatchEvent
from app.observability.metrics import moves
from app.refusal import MoveRefusal, Refusal, not_owner
from app.rooms import turn_clocks
from app.rooms.notifier import Notifier
from app.rooms.pace import deadline_columns, is_turn_based, move_clock, out_of_time
from app.rooms.records import LiveRoom
from app.rooms.storage import RoomStorage
from app.rooms.time_source import TimeSource, stamp
from app.rooms.turn_clocks import TurnClocks
from games import IllegalAction, Previews, account_of
from games.kit.phrasing import seat_name

log = logging.getLogger("parlour.rooms")


def played_by(by: dict[str, Any] | None, timeout: bool) -> str:
    """Who made a move, as the table tells it: ``"clock"`` (the turn clock played it for a
    person out of time), ``"computer"`` or ``"person"``."""
    if timeout:
        return "clock"
    return "computer" if by is not None and "bot" in by else "person"


def public_event(
    seq: int,
    seat: int,
    action: dict[str, Any],
    account: dict[str, Any],
    *,
    name: str,
    by: str,
) -> dict[str, Any]:
    """What every connection is told of an action: its seq, seat and kind, the name of who
    held the seat when it was made (``name``) and how it was made (``played_by``, see
    ``played_by``), and the game's public account of it as data (``says``, which each
    reader is told in their language, and ``trick`` when it completed one:
    games.account_of).

    The action itself is never sent: its card may be hidden (a Downcard, a gift).
    """
    return {
        "seq": seq,
        "seat": seat,
        "type": action.get("type"),
        "name": name,
        "played_by": by,
        **account,
    }


def begin(room: LiveRoom, *, match_id: str, seed: int, seed_hash: str, first: Any = None) -> None:
    """A new match with the room's options: its first state (``first``, when the caller
    dealt it already from ``seed``), at version 0."""
    room.match_id, room.seed, room.seed_hash = match_id, seed, seed_hash
    if first is None:
        first = room.rules.new_game(room.seat_count, seed, room.options, None)
    room.state = first
    room.version, room.last_event, room.last_action = 0, None, None


def set_turn_clocks(room: LiveRoom, turn_clocks: TurnClocks | None) -> None:
    """The room's turn clocks are ``turn_clocks`` now (stored already, or the owner's)."""
    room.turn_clocks = turn_clocks


def _record(
    room: LiveRoom, seq: int, seat: int, action: dict[str, Any], before: Any, by: str
) -> None:
    """The room is at ``seq`` now, ``action`` having taken it from ``before``, played as
    ``by`` says (``played_by``) by whoever holds ``seat`` now."""
    room.version = seq
    account = account_of(room.rules, before, seat, action, room.state)
    holder = room.seats[seat]
    name = holder.name if holder is not None else seat_name(seat)
    room.last_event = public_event(seq, seat, action, account, name=name, by=by)
    room.last_action = (seq, seat, action, by)


def restore(room: LiveRoom, match: Match, events: list[MatchEvent]) -> None:
    """The state is the replay of the log: never stored, always derived."""
    room.match_id, room.seed, room.seed_hash = match.id, int(match.seed), match.seed_hash
    before = None
    for state in games.states(
        room.rules,
        room.seat_count,
        room.seed,
        match.options,
        None,
        ((event.seat, event.action) for event in events),
    ):
        before, room.state = room.state, state
    room.version, room.last_event, room.last_action = len(events), None, None
    if events:
        last = events[-1]
        by = played_by(last.played_by, last.timeout)
        _record(room, last.seq, last.seat, last.action, before, by)


def follow(room: LiveRoom, seq: int, seat: int, action: dict[str, Any], by: str = "person") -> bool:
    """Apply an action the room's owner (another process) has committed, played as ``by``
    says, to this process's copy of the room. False when it does not follow on from this
    copy's version (a notice was missed): the caller then restores the room from the log."""
    if room.state is None or seq != room.version + 1:
        return False
    before = room.state
    room.state = room.rules.apply(before, seat, action)
    _record(room, seq, seat, action, before, by)
    return True


def best_of(room: LiveRoom, seats: list[int]) -> list[int]:
    """The seats among ``seats`` with the best score (the lowest where lower scores win)."""
    scores = room.rules.scores(room.state)
    sign = 1 if room.rules.lower_scores_win else -1
    best = min(sign * scores[s] for s in seats)
    return [s for s in seats if sign * scores[s] == best]


def check_turn(
    room: LiveRoom, seat: int | None, version: object, user_id: str | None = None
) -> int:
    """The refusals shared by act and preview, in the order a player meets them.

    Returns the seat, which is then known to be awaited.
    """
    if room.status == "waiting":
        raise Refusal("match_not_started", N_("The match has not started yet."))
    if room.status == "closed":
        raise Refusal("room_closed", N_("This table was closed before its match started."))
    if seat is None:
        if room.stood_in_seat(user_id) is not None:
            raise Refusal(
                "seat_taken_over",
                N_("A computer is playing your seat now; take it back to play."),
            )
        raise Refusal("not_seated", N_("You are watching this table, not playing at it."))
    if room.status != "playing" or room.rules.is_over(room.state):
        raise Refusal("match_over", N_("The match is over."))
    if version != room.version:
        raise Refusal(
            "stale_version",
            N_("The table has moved on (version {version}, you sent {sent})."),
            version=room.version,
            sent=version,
        )
    if seat not in room.rules.to_act(room.state):
        raise Refusal("not_your_turn", N_("It is not your turn."))
    return seat


def acting_seat(room: LiveRoom, by: dict[str, Any], seat: int | None) -> int | None:
    """The seat an action is for: a person's own seat, or the seat a computer is asked to
    move (which must still be a computer's — one taken back meanwhile is not)."""
    if "user_id" in by:
        return room.seat_of(by["user_id"])
    holder = None if seat is None else room.seats[seat]
    if holder is None or holder.bot is None:
        raise Refusal("not_your_turn", N_("That seat is no longer a computer's."))
    return seat


def _outcome_unheard(playing: asyncio.Future[None]) -> None:
    """A move whose sender went away: a refusal has nobody to tell; a failure (the
    database down) is logged here, as its sender would have had it logged."""
    if playing.cancelled():
        return
    error = playing.exception()
    if error is not None and not isinstance(error, Refusal):
        log.error("a move whose sender went away failed", exc_info=error)


class Referee:
    """Plays actions into rooms: check, persist, apply, announce."""

    def __init__(self, storage: RoomStorage, notifier: Notifier, time_source: TimeSource) -> None:
        self.storage = storage
        self.notifier = notifier
        self.time_source = time_source

    async def act(
        self,
        room: LiveRoom,
        *,
        version: object,
        action: Any,
        by: dict[str, Any],
        seat: int | None = None,
        timeout: bool = False,
    ) -> None:
        """Play one action; raise Refusal (and change nothing) if it is refused.

        ``by`` is who sends it: ``{"user_id": ...}`` acts for that person's seat;
        ``{"bot": kind}`` for ``seat``, a computer's. With ``timeout`` the clock plays
        ``seat``'s move for its person, whose time must have run out.

        The move the log already holds at ``version``, by the same seat and sender, sent
        again (its first send was taken but its answer lost: a forwarded act that timed
        out, a socket closed by a restart) is answered as the first was, and changes
        nothing (``_sent_again``).

        Any other exception (the database is down) also leaves the room as it was: the
        state moves only after the commit. Each move refereed here is counted, accepted or
        refused (``parlour_moves_total``): with several processes, once, by its owner.

        The move is played in a task of its own that the caller's cancellation does not
        reach: a socket that sends a move and closes at once (its handler cancelled), or a
        stuck connection dropped by the hub, may be cancelled while the commit is under way.
        Were the move cancelled with it, the log would hold a move the room never made, and
        the next move at that version would be refused as stale.
        """

        playing = asyncio.ensure_future(
            self.play(room, version=version, action=action, by=by, seat=seat, timeout=timeout)
        )
        try:
            await asyncio.shield(playing)
        except asyncio.CancelledError:
            playing.add_done_callback(_outcome_unheard)
            raise

    async def play(
        self,
        room: LiveRoom,
        *,
        version: object,
        action: Any,
        by: dict[str, Any],
        seat: int | None = None,
        timeout: bool = False,
    ) -> None:
        """``act`` in the caller's own task, for a caller whose task nothing cancels (a
        socket's reader starts a task for each action: app/routes/ws.py); ``act`` plays it
        in a task of its own, shielded from its caller."""
        try:
            played = await self._act(room, version, action, by, seat, timeout)
        except Refusal:
            moves(room.rules.name, "refused").inc()
            raise
        if played:  # a move sent again was counted the first time
            moves(room.rules.name, "accepted").inc()

    async def _act(
        self,
        room: LiveRoom,
        version: object,
        action: Any,
        by: dict[str, Any],
        seat: int | None,
        timeout: bool,
    ) -> bool:
        """True once played; False for a move the log already held (sent again)."""
        async with room.lock:
            if not room.owned:
                # The room was handed to another process (or its lease lost) while this
                # action waited for the lock: its owner plays it, or nobody does.
                raise not_owner()
            if timeout:
                self._check_expired(room, seat)
                by_seat = seat
            else:
                by_seat = acting_seat(room, by, seat)
                if await self._sent_again(room, version, by_seat, action, by):
                    return False
            seat = check_turn(room, by_seat, version, by.get("user_id"))
            try:
                new_state = room.rules.apply(room.state, seat, action)
            except IllegalAction as error:
                raise MoveRefusal(str(error), error.says) from None
            over = room.rules.is_over(new_state)
            result = (room.rules.scores(new_state), room.rules.winners(new_state)) if over else None
            seq = room.version + 1
            now = self.time_source.now()
            clocks = room.turn_clocks
            setting = move_clock(room)
            made = played_by(by, timeout)
            if setting is not None and clocks is not None:
                awaited = [] if over else room.rules.to_act(new_state)
                clocks = turn_clocks.after_move(
                    setting,
                    clocks,
                    seat=seat,
                    awaited=awaited,
                    now=now,
                    played_by=made,
                )
            assert room.match_id is not None, "a playing room has a match"
            try:
                await self.storage.append_event(
                    match_id=room.match_id,
                    seq=seq,
                    seat=seat,
                    action=action,
                    result=result,
                    room_id=room.id,
                    by=by,
                    timeout=timeout,
                    at=stamp(now),
                    clock_state=None if clocks is None else clocks.to_json(),
                    room_columns=deadline_columns(room, clocks, new_state),
                )
            except IntegrityError:
                # Another writer appended this seq first: catch up from the log.
                match, events = await self.storage.load_log(room.match_id)
                restore(room, match, events)
                room.turn_clocks = turn_clocks.TurnClocks.from_json(
                    await self.storage.load_clock_state(room.id)
                )
                room.described()
                self.notifier.room_changed(room)
                raise Refusal("stale_version", N_("The table has moved on; try again.")) from None
            before, room.state = room.state, new_state
            room.turn_clocks = clocks
            _record(room, seq, seat, action, before, made)
            if over:
                room.status, room.code = "finished", None  # the log freed the code
            if over or is_turn_based(room):
                # A turn-based table's description names the awaited seats' deadlines.
                room.described()
            self.notifier.room_changed(room)
        return True

    async def _sent_again(
        self, room: LiveRoom, version: object, seat: int | None, action: Any, by: dict[str, Any]
    ) -> bool:
        """Whether the log already holds this move at the seq after ``version``: the same
        seat and action, made by the same sender (not by the clock). Only an action on a
        past version is looked up, so a move played now costs no read."""
        if type(version) is not int or not 0 <= version < room.version or seat is None:
            return False
        assert room.match_id is not None, "a room past version 0 has a match"
        event = await self.storage.call(store.load_event, match_id=room.match_id, seq=version + 1)
        return (
            event is not None
            and not event.timeout
            and event.seat == seat
            and event.action == action
            and event.played_by == by
        )

    def _check_expired(self, room: LiveRoom, seat: int | None) -> None:
        """A move played by the clock: only for a person whose time has run out."""
        holder = None if seat is None else room.seats[seat]
        clocks = room.turn_clocks
        if (
            seat is None
            or holder is None
            or holder.user_id is None
            or clocks is None
            or not clocks.expired(seat, self.time_source.now())
        ):
            raise Refusal("not_your_turn", N_("That seat's time has not run out."))

    async def abandon(self, room: LiveRoom, *, stale_after: float) -> None:
        """End a match no seat's person has been at for ``stale_after`` seconds: it is kept,
        with its log and the scores so far, as ``abandoned``."""
        async with room.lock:
            vacant = room.vacant_since
            if room.status != "playing" or vacant is None:
                return
            if self.time_source.now() < vacant + stale_after:
                return
            await self._abandon(room)

    async def stop(self, room: LiveRoom) -> bool:
        """A moderator ends a match in play at once, kept as ``abandoned`` like a stale one;
        False when no match is being played."""
        async with room.lock:
            if room.status != "playing":
                return False
            await self._abandon(room, closed_by="moderator")
            return True

    async def _abandon(self, room: LiveRoom, closed_by: str | None = None) -> None:
        """Under the room's lock: the match in play ends as ``abandoned`` (``closed_by``:
        who cut it short, None when nobody stayed)."""
        assert room.match_id is not None, "a playing room has a match"
        clocks = None if room.turn_clocks is None else turn_clocks.stopped(room.turn_clocks)
        await self.storage.call(
            store.abandon_match,
            room_id=room.id,
            match_id=room.match_id,
            scores=room.rules.scores(room.state),
            clock_state=None if clocks is None else clocks.to_json(),
            closed_by=closed_by,
        )
        room.status, room.code, room.closed_by = "abandoned", None, closed_by
        room.turn_clocks = clocks
        room.described()
        self.notifier.room_changed(room)

    async def claim(self, room: LiveRoom, *, user_id: str) -> None:
        """At a turn-based table, a seated person claims the match from the awaited people
        whose deadline has passed: it ends now, they lose, and a rated match rates them as
        having left it (app/ratings/ledger.py); the others are placed by their scores."""
        async with room.lock:
            if room.status == "waiting":
                raise Refusal("match_not_started", N_("The match has not started yet."))
            if room.status != "playing":
                raise Refusal("match_over", N_("The match is over."))
            if not is_turn_based(room):
                raise Refusal(
                    "not_turn_based", N_("Only a turn-based match can be claimed on time.")
                )
            seat = room.seat_of(user_id)
            if seat is None:
                raise Refusal("not_seated", N_("Only the players can claim the match."), 403)
            ran_out = out_of_time(room, self.time_source.now())
            if not ran_out or seat in ran_out:
                raise Refusal("deadline_not_passed", N_("Nobody else's time to move has run out."))
            scores = room.rules.scores(room.state)
            winners = best_of(room, [s for s in range(room.seat_count) if s not in ran_out])
            assert room.match_id is not None and room.turn_clocks is not None
            clocks = turn_clocks.stopped(room.turn_clocks)
            await self.storage.claim_match(
                room_id=room.id,
                match_id=room.match_id,
                scores=scores,
                winners=winners,
                ran_out=ran_out,
                clock_state=clocks.to_json(),
            )
            room.status, room.code = "finished", None
            room.turn_clocks = clocks
            room.ran_out = ran_out
            room.described()
            self.notifier.room_changed(room)

    async def restart_clocks(self, room: LiveRoom) -> None:
        """This process takes charge of a running match: the awaited seats' turns start
        again now (time while no process ran the room is not charged)."""
        async with room.lock:
            if room.status != "playing" or room.time_control is None or room.turn_clocks is None:
                return
            clocks = turn_clocks.restarted(
                room.time_control, room.turn_clocks, self.time_source.now()
            )
            await self.storage.call(
                store.update_room, room_id=room.id, changes={"clock_state": clocks.to_json()}
            )
            room.turn_clocks = clocks
            room.described()  # the clocks changed at the same version
            self.notifier.room_changed(room)

    def preview(
        self, room: LiveRoom, *, user_id: str | None, version: object, action: Any
    ) -> dict[str, Any]:
        """What ``action`` would do, checked as ``act`` checks it; never changes anything.

        The same refusals in the same order as ``act`` (Refusal). Then the game's own
        ``preview`` when it has one, else ``apply`` on the current state with the result
        discarded (``{}``): states are immutable, so nothing moves. It never waits, so it
        needs no lock: it sees one consistent version.
        """
        seat = check_turn(room, room.seat_of(user_id), version, user_id)
        try:
            if isinstance(room.rules, Previews):
                return room.rules.preview(room.state, seat, action)
            room.rules.apply(room.state, seat, action)
        except IllegalAction as error:
            raise MoveRefusal(str(error), error.says) from None
        return {}
