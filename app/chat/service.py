"""``Chat``: what people say at a table and the reactions they send — checked, stored,
and handed on to be delivered.

A chat line is checked (identity, channel, mute, text, the speaker's rate, a moderator's
site-wide mute), stored —
the commit comes before anyone is told, so a restart keeps every line anyone read — then
remembered in the room's recent messages and handed to this process's connections and,
with several processes, to the others. A reaction is checked the same way and handed on,
never stored. The rate is per person: 1 a second with bursts of 5 by default, for lines
and for reactions separately.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from app import store
from app.chat.access import CHANNELS, check_channel, check_speaker
from app.chat.outlet import ChatOutlet, ChatReaders, Spoken
from app.chat.recent import KEPT, RecentChat, RecentChats
from app.chat.text import REACTIONS, checked_text
from app.i18n.marks import N_
from app.limits.buckets import PerKey
from app.models import ChatMessage, iso, utcnow
from app.moderation.sanctions import refuse_if_muted
from app.people.origins import Speaker
from app.refusal import Refusal
from app.rooms.records import LiveRoom
from app.store.database_thread import DatabaseThread


def chat_body(message: ChatMessage) -> dict[str, Any]:
    """A stored line as every reader is sent it."""
    return {
        "type": "chat",
        "id": message.id,
        "channel": message.channel,
        "seat": message.seat,
        "name": message.name,
        "user_id": message.user_id,
        "text": message.text,
        "at": iso(message.at),
    }


class Chat:
    """Table talk for every room this process serves connections of."""

    def __init__(
        self,
        database: DatabaseThread,
        readers: ChatReaders,
        *,
        rate: float,
        burst: int,
        others: ChatOutlet | None = None,
        recent_chats: RecentChats | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.database = database
        self.readers = readers
        self.recent_chats = recent_chats or RecentChats()
        self.others = others
        self.clock = clock
        self.rate, self.burst = rate, burst
        self._lines = PerKey(rate, burst)
        self._reactions = PerKey(rate, burst)

    def _check_rate(self, limits: PerKey, user_id: str) -> None:
        if not limits.allow(user_id, self.clock()):
            raise Refusal(
                "rate_limited",
                N_("Slow down: {rate:g} a second, bursts of {burst}. Wait a moment."),
                429,
                rate=self.rate,
                burst=self.burst,
            )

    async def say(
        self,
        room: LiveRoom,
        *,
        user_id: str | None,
        channel: str,
        text: str,
        origin: Speaker | None = None,
        reads_watchers: bool = False,
    ) -> None:
        """Store a line and hand it on; Refusal (nothing stored) when it is refused.
        ``origin`` is who is speaking as far as the server can tell (for the mutes);
        ``reads_watchers``: whether the speaker's connection chose to read the watchers'
        channel (app/chat/access.py)."""
        speaker = check_speaker(room, user_id, origin)
        seat = room.seat_of(speaker)
        check_channel(room, seat, channel, reads_watchers)
        cleaned = checked_text(text)
        self._check_rate(self._lines, speaker)
        holder = room.seats[seat] if seat is not None else None
        line = ChatMessage(
            room_id=room.id,
            match_id=room.match_id,
            version=room.version,
            channel=channel,
            seat=seat,
            user_id=speaker,
            # A player speaks under the name at the table; a watcher under their own.
            name=holder.name if holder is not None else "",
            text=cleaned,
            at=utcnow(),
        )

        # A moderator's mute holds on every process: it is read from the database.
        await self.database.call(refuse_if_muted, user_id=speaker)
        stored = await self.database.call(store.add_chat, message=line)
        if stored is None:
            raise Refusal("no_session", N_("Start a session first (POST /api/session)."), 401)
        self._spread(room, Spoken.of(channel, chat_body(stored)))

    async def react(
        self, room: LiveRoom, *, user_id: str | None, reaction: str, origin: Speaker | None = None
    ) -> None:
        """Hand on a player's reaction (never stored); Refusal when it is refused."""
        if reaction not in REACTIONS:
            raise Refusal(
                "unknown_reaction",
                N_("Reactions are {reactions}."),
                422,
                reactions=", ".join(REACTIONS),
            )
        speaker = check_speaker(room, user_id, origin)
        seat = room.seat_of(speaker)
        holder = room.seats[seat] if seat is not None else None
        if seat is None or holder is None:
            raise Refusal("not_seated", N_("Only the players send reactions."), 403)
        self._check_rate(self._reactions, speaker)
        # A moderator's mute covers reactions too, on every process (read from the database).
        await self.database.call(refuse_if_muted, user_id=speaker)
        body = {
            "type": "reaction",
            "seat": seat,
            "name": holder.name,
            "user_id": speaker,
            "reaction": reaction,
            "at": iso(utcnow()),
        }
        self._spread(room, Spoken.of(None, body))

    def _spread(self, room: LiveRoom, spoken: Spoken) -> None:
        self.heard(room, spoken)
        if self.others is not None:
            self.others.spoken(room, spoken)

    def retract(self, room: LiveRoom, *, chat_id: int, channel: str) -> None:
        """A moderator deleted a line (from the database already): it leaves the recent
        lines here and on the other processes, and every page showing it is told."""
        gone = {"type": "chat_deleted", "id": chat_id, "channel": channel}
        self._spread(room, Spoken.of(channel, gone))

    def heard(self, room: LiveRoom, spoken: Spoken) -> None:
        """A message said here or on another process: remember it, deliver it here."""
        if spoken.is_chat:
            self.recent_chats.of(room.id).remember(spoken.body)
        elif spoken.body["type"] == "chat_deleted":
            self.recent_chats.of(room.id).drop(spoken.body["channel"], spoken.body["id"])
        self.readers.spoken(room, spoken)

    async def recent(self, room: LiveRoom) -> None:
        """Make sure the room's recent messages are known (read once from the database)."""
        chat = self.recent_chats.of(room.id)
        if chat.loaded:
            return
        async with chat.lock:
            if chat.loaded:
                return
            stored = await self.database.call(
                store.recent_messages, room_id=room.id, channels=CHANNELS, limit=KEPT
            )
            chat.fill(chat_body(message) for message in stored)

    async def catch_up(self, room: LiveRoom) -> None:
        """Messages may have been missed (Redis was away): read them again, and send every
        connection of the room its chat log anew."""
        self.recent_chats.of(room.id).forget()
        await self.recent(room)
        self.readers.chat_reloaded(room)

    def recent_of(self, room: LiveRoom) -> RecentChat:
        """The room's recent messages as this process knows them."""
        return self.recent_chats.of(room.id)

    def room_made(self, room: LiveRoom) -> None:
        """A room just made here has said nothing yet: its first connection need not
        read its messages from the database."""
        self.recent_chats.of(room.id).fill(())

    def room_released(self, room: LiveRoom) -> None:
        """The room is no longer held here: its recent messages are let go too."""
        self.recent_chats.drop(room.id)
