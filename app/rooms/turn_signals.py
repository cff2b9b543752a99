"""What a turn-based table tells the notification channels after each committed change.

:class:`TurnSignals` is one of the rooms' listeners (told after every commit, like the hub
and the computer-player driver). On the room's owner, at a turn-based table, it compares
what the table awaits now with what it awaited when last told, and emits
(app/rooms/signals.py):

- ``TurnAwaits`` for each seat a person holds that is newly awaited (the match began, or
  another seat's move made it their turn), with its deadline;
- ``MatchEnded`` for each person seated when the match ends (a last move, or a claim on
  time), with one line saying how it ended.

The first time it sees a room (loaded from the database, or opened) it only takes note:
nothing changed then. ``DeadlineNear`` comes from the sweep (app/rooms/turn_sweep.py).
Whether and how a person hears of a signal is the notification outbox's business;
:class:`LoggedSignals` stands in for it where none is wired (it logs at debug level).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.i18n.marks import N_
from app.rooms.pace import awaited_people, is_turn_based
from app.rooms.records import LiveRoom
from app.rooms.signals import MatchEnded, Signal, Signals, TurnAwaits

log = logging.getLogger("parlour.signals")


class LoggedSignals:
    """Signals written to the log at debug level, and nowhere else."""

    def emit(self, signal: Signal) -> None:
        log.debug("signal: %s", signal)


@dataclass(frozen=True)
class Seen:
    """What a table was when last told: its match, status and the people it awaited, each
    seat with its deadline (a seat that moves and is awaited again has a new one: its
    next move is a new turn)."""

    match_id: str | None
    status: str
    awaited: frozenset[tuple[int, float | None]]


def when(epoch: float | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


def summary(room: LiveRoom) -> str:
    """One line telling how the match at ``room`` ended ("Ann won (121-87).")."""
    worded = summary_words(room)
    params = {
        name: " and ".join(value) if isinstance(value, list) else value
        for name, value in worded["params"].items()
    }
    text: str = worded["id"].format(**params)
    return text


def summary_words(room: LiveRoom) -> dict[str, Any]:
    """``summary`` as a message id and its params (``{"id", "params"}``): a list of names
    is joined in the reader's language (app/notifications/wording.py)."""
    if room.status == "abandoned":
        return {"id": N_("The match was abandoned."), "params": {}}
    names = [h.name if h is not None else f"Seat {i + 1}" for i, h in enumerate(room.seats)]
    scores = room.rules.scores(room.state)
    winners = room.rules.winners(room.state) if room.rules.is_over(room.state) else []
    told = "\u2013".join(str(score) for score in scores)
    if room.ran_out:
        late = [names[s] for s in room.ran_out]
        rest = [names[s] for s in range(room.seat_count) if s not in room.ran_out]
        return {
            "id": N_("{late} ran out of time; the match was claimed by {rest} ({scores})."),
            "params": {"late": late, "rest": rest, "scores": told},
        }
    if not winners:
        return {"id": N_("The match ended ({scores})."), "params": {"scores": told}}
    return {
        "id": N_("{winners} won ({scores})."),
        "params": {"winners": [names[s] for s in winners], "scores": told},
    }


class TurnSignals:
    """Derives the signals of turn-based tables from the rooms' changes."""

    def __init__(self, signals: Signals) -> None:
        self.signals = signals
        self._seen: dict[str, Seen] = {}

    def forget(self, room: LiveRoom) -> None:
        """The room left this process's memory."""
        self._seen.pop(room.id, None)

    def room_changed(self, room: LiveRoom) -> None:
        if not is_turn_based(room) or not room.owned:
            self._seen.pop(room.id, None)
            return
        playing = room.status == "playing"
        deadlines = room.turn_clocks.deadlines if room.turn_clocks is not None else None
        now = Seen(
            room.match_id,
            room.status,
            frozenset(
                (seat, None if deadlines is None else deadlines[seat])
                for seat in (awaited_people(room, room.state) if playing else ())
            ),
        )
        before = self._seen.get(room.id)
        self._seen[room.id] = now
        if before is None or before == now:
            return
        same_match = before.match_id == now.match_id and before.status == "playing"
        if same_match and room.status in ("finished", "abandoned"):
            self._match_ended(room)
        elif playing:
            earlier = before.awaited if same_match else frozenset()
            for seat, _ in sorted(now.awaited - earlier, key=lambda told: told[0]):
                self._turn_awaits(room, seat)

    def _turn_awaits(self, room: LiveRoom, seat: int) -> None:
        holder = room.seats[seat]
        clocks = room.turn_clocks
        if holder is None or holder.user_id is None:
            return
        deadline = None if clocks is None else clocks.deadlines[seat]
        self.signals.emit(TurnAwaits(holder.user_id, room.id, room.rules.name, when(deadline)))

    def _match_ended(self, room: LiveRoom) -> None:
        told, worded = summary(room), summary_words(room)
        for holder in room.seats:
            if holder is not None and holder.person is not None:
                ended = MatchEnded(holder.person, room.id, room.rules.name, told, worded)
                self.signals.emit(ended)
