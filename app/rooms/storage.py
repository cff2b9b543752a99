"""The rooms' storage: every transaction a room needs, behind one injectable object.

The rooms never open a session or a connection themselves; they call this object's
methods, each one transaction, and go on only once it has committed. The SQL itself is in
app/store.py. Tests inject a storage that fails on purpose (a database outage), and the
methods are ``async`` so that an implementation may wait without holding up the server.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from app import store
from app.db import make_session_factory
from app.models import Match, MatchEvent, Room, Seat


@dataclass(frozen=True)
class StoredRoom:
    """A room as stored: its row (with seats) and, once started, its match and log."""

    room: Room
    match: Match | None
    events: list[MatchEvent]


class RoomStorage:
    """Transactions for the rooms, on a SQLAlchemy engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = make_session_factory(engine)

    async def load_room(self, room_id: str) -> StoredRoom | None:
        """The room with id ``room_id`` or, failing that, with that short code."""
        with self.sessions() as session:
            row = store.load_room(session=session, room_id=room_id)
            if row is None:
                found = store.find_room_id_by_code(session=session, code=room_id)
                row = store.load_room(session=session, room_id=found) if found else None
            if row is None:
                return None
            if row.match_id is None:
                return StoredRoom(row, None, [])
            match = store.load_match(session=session, match_id=row.match_id)
            assert match is not None, "a room's match is written with it"
            events = store.load_events(session=session, match_id=row.match_id)
            return StoredRoom(row, match, events)

    async def load_log(self, match_id: str) -> tuple[Match, list[MatchEvent]]:
        """A match and its events, in order."""
        with self.sessions() as session:
            match = store.load_match(session=session, match_id=match_id)
            assert match is not None, f"match {match_id} is referenced by a live room"
            return match, store.load_events(session=session, match_id=match_id)

    async def playing_room_ids(self) -> list[str]:
        with self.sessions() as session:
            return store.playing_room_ids(session=session)

    async def code_taken(self, code: str) -> bool:
        with self.sessions() as session:
            return store.code_exists(session=session, code=code)

    async def insert_room(
        self, room: Room, seats: list[Seat], *, rematch_of: str | None = None
    ) -> None:
        with self.sessions() as session:
            store.insert_room(session=session, room=room, seats=seats, rematch_of=rematch_of)

    async def put_seat(
        self, room_id: str, seat: int, *, user_id: str | None, bot: str | None, name: str
    ) -> None:
        with self.sessions() as session:
            store.put_seat(
                session=session, room_id=room_id, seat=seat, user_id=user_id, bot=bot, name=name
            )

    async def free_seat(self, room_id: str, seat: int, *, new_host_id: str | None = None) -> None:
        """Free a seat; with ``new_host_id``, hand the host role on in the same transaction."""
        with self.sessions() as session:
            store.free_seat(session=session, room_id=room_id, seat=seat, new_host_id=new_host_id)

    async def start_match(self, room_id: str, match: Match, user_ids: Sequence[str | None]) -> None:
        with self.sessions() as session:
            store.start_match(session=session, room_id=room_id, match=match, user_ids=user_ids)

    async def append_event(
        self,
        *,
        match_id: str,
        seq: int,
        seat: int,
        action: dict[str, Any],
        result: tuple[list[int], list[int]] | None,
        room_id: str,
    ) -> None:
        """Append one action (and, with ``result``, finish the match): the acknowledgement.

        Raises ``sqlalchemy.exc.IntegrityError`` when ``seq`` is taken (another writer was
        first) and any other database error as it comes; nothing is written then.
        """
        with self.engine.begin() as connection:
            store.append_event(
                connection=connection,
                match_id=match_id,
                seq=seq,
                seat=seat,
                action=action,
                result=result,
                room_id=room_id,
            )

    def dispose(self) -> None:
        self.engine.dispose()
