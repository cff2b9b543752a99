"""The host's chat settings: muting a person at the table, and the watchers' channel.

Like the lobby's verbs they run on the process that referees the room, check under the
room's lock, write one transaction, and only then change the room and tell the notifier
(the room description carries both settings, so other processes' copies follow).
"""

from __future__ import annotations

from app import store
from app.i18n.marks import N_
from app.models import utcnow
from app.refusal import Refusal
from app.rooms.lobby import check_host
from app.rooms.notifier import Notifier
from app.rooms.records import LiveRoom
from app.rooms.storage import RoomStorage


class ChatSettings:
    """The host's verbs on a room's chat."""

    def __init__(self, storage: RoomStorage, notifier: Notifier) -> None:
        self.storage = storage
        self.notifier = notifier

    async def mute(self, room: LiveRoom, *, user_id: str, person: str, muted: bool) -> None:
        """Mute ``person`` here (their messages and reactions are refused), or unmute."""
        async with room.lock:
            check_host(room, user_id)
            if person == user_id:
                raise Refusal("bad_request", N_("The host cannot mute themselves."), 422)
            wanted = sorted({*room.muted, person} if muted else set(room.muted) - {person})
            if wanted == room.muted:
                return
            # A mute covers the person's browsers and, for guests made after it, their
            # addresses too (app/chat/mutes.py); unmuting lets both go.
            marks = await self.storage.call(
                store.set_muted,
                room_id=room.id,
                muted=wanted,
                person=person,
                marks=room.mute_marks,
                at=utcnow() if muted else None,
            )
            if marks is None:
                raise Refusal("user_not_found", N_("There is no such person."), 404)
            room.muted, room.mute_marks = wanted, marks
            room.described()
            self.notifier.room_changed(room)

    async def set_watchers_chat(self, room: LiveRoom, *, user_id: str, on: bool) -> None:
        """Whether the players read (and write in) the watchers' channel."""
        async with room.lock:
            check_host(room, user_id)
            if room.watchers_chat == on:
                return
            await self.storage.call(store.set_watchers_chat, room_id=room.id, on=on)
            room.watchers_chat = on
            room.described()
            self.notifier.room_changed(room)
