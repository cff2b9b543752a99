"""Rendering: what a room looks like on the wire, and what a connection has yet to see.

Pure functions of a room (and who is connected): the room description (``describe``,
the ``room`` message) and one seat's ``state`` message, whose view comes from the game's
own ``view`` — the one place hidden information is cut — with the turn clocks; the view's
message and the last move's account are in the connection's language
(app/i18n/accounts.py). Rendered text is cached on the room per (room description
version, match version) and per seat and language, so ten spectators reading one
language cost one ``view`` and one JSON encoding; the last move's account, which every
seat's message carries, is worded and encoded once per language. A connection keeps a :class:`Sent`
record of what it was last sent, and ``pending`` answers with what is new for it. Each
message carries the server's ``now``, added to the cached text as it is queued (written
once for all the connections told of one change), so that a browser counts a clock down
from the server's time, not its own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import asdict
from typing import Any, NamedTuple

import orjson

from app.i18n.accounts import account_text, told_in, view_in
from app.i18n.languages import DEFAULT
from app.rooms.notifier import Presence
from app.rooms.pace import awaited_people, is_turn_based
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.time_source import iso_at
from app.rooms.turn_clocks import TurnClocks


class Sent(NamedTuple):
    """What one connection was last sent: room description, match version, as which seat,
    and the turn clocks with it. A tuple: one is made per connection and change, and a
    tuple is made several times faster than a frozen dataclass."""

    meta_version: int = -1
    version: int = -1
    seat: int | None = None
    clocks: TurnClocks | None = None


def _stand_in(holder: SeatHolder | None) -> dict[str, Any] | None:
    if holder is None or holder.stand_in_for is None:
        return None
    return {"user_id": holder.stand_in_for, "name": holder.stand_in_name}


def seat_deadlines(room: LiveRoom) -> list[float | None]:
    """Each seat's deadline at a turn-based table while its match runs: set for the awaited
    people's seats, None for the others (and for every seat of a live table)."""
    clocks = room.turn_clocks
    if clocks is None or not is_turn_based(room) or room.status != "playing":
        return [None] * room.seat_count
    awaited = set(awaited_people(room, room.state))
    return [d if s in awaited else None for s, d in enumerate(clocks.deadlines)]


def describe(
    room: LiveRoom, presence: Presence, grace: float, language: str = DEFAULT
) -> dict[str, Any]:
    """The public description of a room (GET /api/rooms/{id}, the ``room`` message);
    ``grace`` is the absence grace in seconds; the table's options are worded in
    ``language``."""
    # From the people connected and the seats as they are now: a connection's own idea of
    # its seat is brought up to date only when it is told of the change, and some are told
    # after the description is made.
    here = presence.connected_users(room.id)
    deadlines = seat_deadlines(room)
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
                "connected": h is not None and (h.bot is not None or h.user_id in here),
                "away_since": iso_at(room.away_since[i]),
                "stand_in_for": _stand_in(h),
                "deadline": iso_at(deadlines[i]),
            }
            for i, h in enumerate(room.seats)
        ],
        "options": room.options,
        "options_text": [
            account_text(line, language) for line in room.rules.options_says(room.options)
        ],
        "visibility": room.visibility,
        "rated": room.rated,
        "status": room.status,
        "closed_by": room.closed_by,
        "host_id": room.host_id,
        "match_id": room.match_id,
        "seed_hash": room.seed_hash,
        "version": room.version,
        "rematch_id": room.rematch_id,
        "rematch_offer": None if room.rematch_offer is None else asdict(room.rematch_offer),
        "created_at": room.created_at,
        "watchers": presence.watcher_count(room.id),
        "clock": room.time_control,
        "pace": room.pace,
        "days_per_move": room.days_per_move,
        "absence_grace": grace,
        "watchers_chat": room.watchers_chat,
        "muted": room.muted,
    }


def state_message(room: LiveRoom, seat: int | None, language: str = DEFAULT) -> dict[str, Any]:
    """One seat's (or a spectator's) ``state`` message at the room's current version, the
    view's message and the last move told in ``language``."""
    event = room.last_event
    return {
        "type": "state",
        "version": room.version,
        "seat": seat,
        "view": view_in(room.rules.view_says(room.state, seat), language),
        "event": None if event is None else orjson.Fragment(_told_event(room, event, language)),
        "clocks": None if room.turn_clocks is None else room.turn_clocks.wire(),
    }


def _told_event(room: LiveRoom, event: dict[str, Any], language: str) -> str:
    """The last move's account in ``language`` as JSON, worded and encoded once for every
    seat and spectator who reads that language (every state message of a version carries
    it)."""
    return _cached(room, ("event", language), lambda: told_in(event, language))


def with_now(text: str, now: str) -> str:
    """A rendered message (a JSON object) with the server's time added as ``now``."""
    return f'{text[:-1]},"now":"{now}"}}'


def _cached(room: LiveRoom, key: Hashable, build: Callable[[], dict[str, Any]]) -> str:
    stamp = (room.meta_version, room.version)
    if room.rendered_at != stamp:
        room.rendered.clear()
        room.rendered_at = stamp
    text = room.rendered.get(key)
    if text is None:
        text = orjson.dumps(build()).decode()
        room.rendered[key] = text
    return text


def pending(
    room: LiveRoom,
    presence: Presence,
    seat: int | None,
    sent: Sent,
    *,
    grace: float,
    now: str,
    language: str = DEFAULT,
) -> tuple[list[tuple[str, str]], Sent]:
    """What a connection acting as ``seat`` has not seen, as (kind, text) pairs — kind
    ``room`` or ``state`` — and its new record; ``now`` is the server's time as the wire
    writes it (:func:`~app.rooms.time_source.iso_at`), made once for every connection told
    of one change; ``language``, the one its reader reads the accounts of moves in.

    The state message is sent again, at the same version, when only the clocks changed
    (a process took charge of the match, a person took their seat back); whatever changes
    the clocks without a move also changes the description, so the cache is fresh.
    """
    out: list[tuple[str, str]] = []
    if sent.meta_version != room.meta_version:
        text = _cached(
            room, ("room", language), lambda: room_message(room, presence, grace, language)
        )
        out.append(("room", with_now(text, now)))
    clocks = room.turn_clocks
    # The clocks are compared by identity first: a change that leaves them alone keeps the
    # very same object (None at an untimed table), and comparing dataclasses is slow.
    stale = (
        sent.version != room.version
        or sent.seat != seat
        or (sent.clocks is not clocks and sent.clocks != clocks)
    )
    version = sent.version
    if room.state is not None and stale:
        text = _cached(room, ("state", seat, language), lambda: state_message(room, seat, language))
        out.append(("state", with_now(text, now)))
        version = room.version
    return out, Sent(room.meta_version, version, seat, clocks)


def room_message(
    room: LiveRoom, presence: Presence, grace: float, language: str = DEFAULT
) -> dict[str, Any]:
    return {"type": "room", "room": describe(room, presence, grace, language)}
