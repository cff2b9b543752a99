"""The referee: the only code that changes a room's game state and version.

``act`` checks an action (the match is on, the seat may act at this version, the rules
accept it), appends it to the match's log — the commit is the acknowledgement — and only
then moves the room to the new state and tells the notifier. ``preview`` runs the same
checks and says what the action would do without playing it. ``begin`` and ``restore``
set a room's state at the start of a match and from its log.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError

import games
from app.models import Match, MatchEvent
from app.rooms.errors import RoomError
from app.rooms.notifier import Notifier
from app.rooms.records import LiveRoom
from app.rooms.storage import RoomStorage
from games.base import IllegalAction, Previews


def public_event(seq: int, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """What every connection is told of an action: its seq, seat and kind only.

    Its card may be hidden (a Downcard, a gift); the view's own ``last`` says publicly
    what happened.
    """
    return {"seq": seq, "seat": seat, "type": action.get("type")}


def begin(room: LiveRoom, *, match_id: str, seed: int, seed_hash: str) -> None:
    """A new match with the room's options: its first state, at version 0."""
    room.match_id, room.seed, room.seed_hash = match_id, seed, seed_hash
    room.state = room.rules.new_game(room.seat_count, seed, room.options, None)
    room.version, room.last_event, room.last_action = 0, None, None


def _record(room: LiveRoom, seq: int, seat: int, action: dict[str, Any]) -> None:
    room.version = seq
    room.last_event = public_event(seq, seat, action)
    room.last_action = (seq, seat, action)


def restore(room: LiveRoom, match: Match, events: list[MatchEvent]) -> None:
    """The state is the replay of the log: never stored, always derived."""
    room.match_id, room.seed, room.seed_hash = match.id, int(match.seed), match.seed_hash
    room.state = games.replay(
        room.rules.name,
        room.seat_count,
        room.seed,
        match.options,
        None,
        ((event.seat, event.action) for event in events),
    )
    room.version, room.last_event, room.last_action = len(events), None, None
    if events:
        _record(room, events[-1].seq, events[-1].seat, events[-1].action)


def follow(room: LiveRoom, seq: int, seat: int, action: dict[str, Any]) -> bool:
    """Apply an action the room's owner (another process) has committed, to this process's
    copy of the room. False when it does not follow on from this copy's version (a notice
    was missed): the caller then restores the room from the log."""
    if room.state is None or seq != room.version + 1:
        return False
    room.state = room.rules.apply(room.state, seat, action)
    _record(room, seq, seat, action)
    return True


def check_turn(room: LiveRoom, seat: int | None, version: object) -> int:
    """The refusals shared by act and preview, in the order a player meets them.

    Returns the seat, which is then known to be awaited.
    """
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
    return seat


class Referee:
    """Plays actions into rooms: check, persist, apply, announce."""

    def __init__(self, storage: RoomStorage, notifier: Notifier) -> None:
        self.storage = storage
        self.notifier = notifier

    async def act(self, room: LiveRoom, *, seat: int | None, version: object, action: Any) -> None:
        """Play one action; raise RoomError (and change nothing) if it is refused.

        Any other exception (the database is down) also leaves the room as it was: the
        state moves only after the commit.
        """
        async with room.lock:
            seat = check_turn(room, seat, version)
            try:
                new_state = room.rules.apply(room.state, seat, action)
            except IllegalAction as error:
                raise RoomError("illegal_action", str(error)) from None
            over = room.rules.is_over(new_state)
            result = (room.rules.scores(new_state), room.rules.winners(new_state)) if over else None
            seq = room.version + 1
            assert room.match_id is not None, "a playing room has a match"
            try:
                await self.storage.append_event(
                    match_id=room.match_id,
                    seq=seq,
                    seat=seat,
                    action=action,
                    result=result,
                    room_id=room.id,
                )
            except IntegrityError:
                # Another writer appended this seq first: catch up from the log.
                match, events = await self.storage.load_log(room.match_id)
                restore(room, match, events)
                room.described()
                self.notifier.room_changed(room)
                raise RoomError("stale_version", "The table has moved on; try again.") from None
            room.state = new_state
            _record(room, seq, seat, action)
            if over:
                room.status = "finished"
                room.described()
            self.notifier.room_changed(room)

    def preview(
        self, room: LiveRoom, *, seat: int | None, version: object, action: Any
    ) -> dict[str, Any]:
        """What ``action`` would do, checked as ``act`` checks it; never changes anything.

        The same refusals in the same order as ``act`` (RoomError). Then the game's own
        ``preview`` when it has one, else ``apply`` on the current state with the result
        discarded (``{}``): states are immutable, so nothing moves. It never waits, so it
        needs no lock: it sees one consistent version.
        """
        seat = check_turn(room, seat, version)
        try:
            if isinstance(room.rules, Previews):
                return room.rules.preview(room.state, seat, action)
            room.rules.apply(room.state, seat, action)
        except IllegalAction as error:
            raise RoomError("illegal_action", str(error)) from None
        return {}
