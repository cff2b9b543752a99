"""The rooms' storage: every transaction a room needs, behind one injectable object.

The rooms never open a session or a connection themselves; they await this object's
methods, each one transaction, and go on only once it has committed. No method runs on
the event loop: reads and lobby writes run in a worker thread, and events go through the
group-committing event log (app/rooms/event_log.py). The SQL itself is in app/store/.
Tests inject a storage that fails on purpose (a database outage).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from app import ratings, store
from app.db import make_session_factory
from app.models import ChatMessage, Match, MatchEvent, Room
from app.rooms.event_log import Event, EventLog, FinishHook

T = TypeVar("T")


@dataclass(frozen=True)
class StoredRoom:
    """A room as stored: its row (with seats) and, once started, its match and log."""

    room: Room
    match: Match | None
    events: list[MatchEvent]


class RoomStorage:
    """Transactions for the rooms, on a SQLAlchemy engine, never on the event loop."""

    def __init__(
        self, engine: Engine, on_finish: Sequence[FinishHook] = (ratings.settle_match,)
    ) -> None:
        """``on_finish``: what the transaction that finishes a match does besides (the
        ratings)."""
        self.engine = engine
        self.sessions: sessionmaker[Session] = make_session_factory(engine)
        self.event_log = EventLog(engine, on_finish)

    async def _in_session(self, work: Callable[[Session], T]) -> T:
        def run() -> T:
            with self.sessions() as session:
                return work(session)

        return await asyncio.to_thread(run)

    async def load_room(self, room_id: str) -> StoredRoom | None:
        """The room with id ``room_id`` or, failing that, with that short code."""

        def load(session: Session) -> StoredRoom | None:
            row = store.find_room(session=session, key=room_id)
            if row is None:
                return None
            if row.match_id is None:
                return StoredRoom(row, None, [])
            match = store.load_match(session=session, match_id=row.match_id)
            assert match is not None, "a room's match is written with it"
            events = store.load_events(session=session, match_id=row.match_id)
            return StoredRoom(row, match, events)

        return await self._in_session(load)

    async def load_log(self, match_id: str) -> tuple[Match, list[MatchEvent]]:
        """A match and its events, in order."""

        def load(session: Session) -> tuple[Match, list[MatchEvent]]:
            match = store.load_match(session=session, match_id=match_id)
            assert match is not None, f"match {match_id} is referenced by a live room"
            return match, store.load_events(session=session, match_id=match_id)

        return await self._in_session(load)

    async def load_clock_state(self, room_id: str) -> dict[str, Any] | None:
        """A room's stored turn clocks."""

        def load(session: Session) -> dict[str, Any] | None:
            room = store.load_room(session=session, room_id=room_id)
            return None if room is None else room.clock_state

        return await self._in_session(load)

    async def open_room_ids(self) -> list[str]:
        """Rooms waiting or playing: loaded at start, so that their timers run."""
        return await self._in_session(lambda session: store.open_room_ids(session=session))

    async def public_room_ids(self, game: str | None = None) -> list[str]:
        return await self._in_session(
            lambda session: store.public_room_ids(session=session, game=game)
        )

    async def code_taken(self, code: str) -> bool:
        return await self._in_session(lambda session: store.code_exists(session=session, code=code))

    async def insert_room(self, room: Room, *, rematch_of: str | None = None) -> None:
        """A new room with its seats (``room.seats``)."""
        await self._in_session(
            lambda session: store.insert_room(session=session, room=room, rematch_of=rematch_of)
        )

    async def put_seat(
        self,
        room_id: str,
        seat: int,
        holder: dict[str, Any],
        *,
        room_changes: dict[str, Any] | None = None,
        unrate_match_id: str | None = None,
    ) -> None:
        """Give a seat to ``holder`` (see store.put_seat); ``room_changes`` go with it, and
        with ``unrate_match_id`` that match stops being rated."""
        await self._in_session(
            lambda session: store.put_seat(
                session=session,
                room_id=room_id,
                seat=seat,
                holder=holder,
                room_changes=room_changes,
                unrate_match_id=unrate_match_id,
            )
        )

    async def update_room(self, room_id: str, **changes: Any) -> None:
        """Change a room's host, status or clocks."""
        await self._in_session(
            lambda session: store.update_room(session=session, room_id=room_id, changes=changes)
        )

    async def abandon_match(
        self,
        room_id: str,
        match_id: str,
        scores: list[int],
        clock_state: dict[str, Any] | None,
    ) -> None:
        await self._in_session(
            lambda session: store.abandon_match(
                session=session,
                room_id=room_id,
                match_id=match_id,
                scores=scores,
                clock_state=clock_state,
            )
        )

    async def free_seat(self, room_id: str, seat: int, *, new_host_id: str | None = None) -> None:
        """Free a seat; with ``new_host_id``, hand the host role on in the same transaction."""
        await self._in_session(
            lambda session: store.free_seat(
                session=session, room_id=room_id, seat=seat, new_host_id=new_host_id
            )
        )

    async def start_match(
        self,
        room_id: str,
        match: Match,
        user_ids: Sequence[str | None],
        clock_state: dict[str, Any] | None = None,
    ) -> None:
        await self._in_session(
            lambda session: store.start_match(
                session=session,
                room_id=room_id,
                match=match,
                user_ids=user_ids,
                clock_state=clock_state,
            )
        )

    async def append_event(
        self,
        *,
        match_id: str,
        seq: int,
        seat: int,
        action: dict[str, Any],
        result: tuple[list[int], list[int]] | None,
        room_id: str,
        by: dict[str, Any],
        timeout: bool = False,
        at: datetime | None = None,
        clock_state: dict[str, Any] | None = None,
    ) -> None:
        """Append one action (and, with ``result``, finish the match): the acknowledgement.

        ``by`` says who made it, ``timeout`` whether the clock played it, ``clock_state``
        is the room's turn clocks after it (written in the same transaction).

        Returns once committed. Raises ``event_log.SeqTaken`` (an ``IntegrityError``) when
        ``seq`` is taken — another writer was first — and any other database error as it
        comes; nothing is written then.
        """
        await self.event_log.append(
            Event(match_id, seq, seat, action, room_id, result, by, timeout, at, clock_state)
        )

    async def add_chat(self, message: ChatMessage) -> ChatMessage | None:
        """Store a chat line (a watcher's is signed with their name now); None when the
        speaker is unknown."""
        return await self._in_session(
            lambda session: store.add_chat(session=session, message=message)
        )

    async def recent_chat(
        self, room_id: str, channels: Sequence[str], limit: int
    ) -> list[ChatMessage]:
        """The last ``limit`` lines of each channel of a room."""

        def load(session: Session) -> list[ChatMessage]:
            return [
                message
                for channel in channels
                for message in store.recent_chat(
                    session=session, room_id=room_id, channel=channel, limit=limit
                )
            ]

        return await self._in_session(load)

    async def set_muted(self, room_id: str, muted: list[str], *, person: str) -> bool:
        return await self._in_session(
            lambda session: store.set_muted(
                session=session, room_id=room_id, muted=muted, person=person
            )
        )

    async def set_watchers_chat(self, room_id: str, on: bool) -> None:
        await self._in_session(
            lambda session: store.set_watchers_chat(session=session, room_id=room_id, on=on)
        )

    async def close(self) -> None:
        await self.event_log.close()
        self.engine.dispose()
