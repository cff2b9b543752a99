"""Who reads and who writes which channel of a room's chat.

``table`` is the players' channel: only seated people write in it, and everyone connected
to the room reads it. ``watchers`` is everyone else's: anyone connected writes in it and
the watchers always read it. A player reads it (and so may write in it) only on a
connection where they chose to (``chosen``: the ``read_watchers`` message), while the host
leaves the room's ``watchers_chat`` setting on, and never at a rated table, where watchers
could coach. Reactions are the players' (they are shown at a player's plate), and everyone
reads them. A person the host muted writes nothing and reacts with nothing, and so does a
fresh identity the mute covers (app/chat/mutes.py).
"""

from __future__ import annotations

from app.chat.mutes import is_muted
from app.i18n.marks import N_
from app.people.origins import Speaker
from app.refusal import Refusal
from app.rooms.records import LiveRoom

TABLE = "table"
WATCHERS = "watchers"
CHANNELS = (TABLE, WATCHERS)

_EVERY_CHANNEL = frozenset(CHANNELS)
_TABLE_ONLY = frozenset((TABLE,))


def players_may_read_watchers(room: LiveRoom) -> bool:
    """Whether a player may choose to read the watchers' channel here at all."""
    return room.watchers_chat and not room.rated


def readable(room: LiveRoom, seat: int | None, chosen: bool = False) -> frozenset[str]:
    """The channels a connection acting as ``seat`` (None: watching) reads; ``chosen``:
    whether its player chose to read the watchers' channel."""
    if seat is None or (chosen and players_may_read_watchers(room)):
        return _EVERY_CHANNEL
    return _TABLE_ONLY


def check_speaker(room: LiveRoom, user_id: str | None, speaker: Speaker | None = None) -> str:
    """A speaker needs an identity, and the host must not have muted them — nor, as far
    as the server can tell, the person behind them (app/chat/mutes.py)."""
    if user_id is None:
        raise Refusal("no_session", N_("Start a session first (POST /api/session)."), 401)
    if is_muted(room, speaker if speaker is not None else Speaker(user_id)):
        raise Refusal("muted", N_("The host has muted you at this table."), 403)
    return user_id


def check_channel(room: LiveRoom, seat: int | None, channel: str, chosen: bool = False) -> None:
    """Refuse a message to a channel its writer may not write in (``chosen``: whether a
    player's connection chose to read the watchers' channel)."""
    if channel == TABLE and seat is None:
        raise Refusal(
            "not_seated", N_("Only the players write to the table; write to the watchers."), 403
        )
    if channel != WATCHERS or seat is None:
        return
    if room.rated:
        raise Refusal(
            "watchers_chat_rated",
            N_("At a rated table the players neither read nor write the watchers' chat."),
            403,
        )
    if not room.watchers_chat:
        raise Refusal(
            "watchers_chat_off", N_("The host has closed the watchers' chat to the players."), 403
        )
    if not chosen:
        raise Refusal(
            "watchers_chat_unread",
            N_("Choose to read the watchers' chat before writing in it."),
            403,
        )
