"""Wire types (pydantic): HTTP request bodies and WebSocket messages.

Every incoming message is validated here; unknown fields are refused so that a typo is
an error, not a silent no-op.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SessionIn(Strict):
    name: str


class AccountIn(Strict):
    username: str
    password: str


class LoginIn(Strict):
    username: str
    password: str


class LanguageIn(Strict):
    """An account's language: a code of app/i18n/languages.py, or ``null`` for none (the
    request's own: the picker's cookie or the browser's)."""

    language: str | None


class NotificationsIn(Strict):
    """An account's notification settings; a field left out keeps its value, and ``null``
    for ``email`` or ``webhook_url`` removes it."""

    email: str | None = None
    email_turns: bool | None = None
    email_reminders: bool | None = None
    email_endings: bool | None = None
    webhook_url: str | None = None
    webhook_turns: bool | None = None
    webhook_reminders: bool | None = None
    webhook_endings: bool | None = None
    push_turns: bool | None = None
    push_reminders: bool | None = None
    push_endings: bool | None = None


class PushKeysIn(Strict):
    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=100)


class PushSubscriptionIn(Strict):
    """A browser's ``PushSubscription`` as its ``toJSON()`` gives it."""

    model_config = ConfigDict(extra="ignore")  # expirationTime and what browsers add

    endpoint: str
    keys: PushKeysIn


class PushEndpointIn(Strict):
    endpoint: str


class ClockIn(Strict):
    """A turn clock in seconds (its limits are checked by app/rooms/turn_clocks.py)."""

    turn: int
    bank: int


class RoomIn(Strict):
    game: str
    seats: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    visibility: Literal["public", "private"] = "public"
    # Rated: accounts only, no computer players; the match changes ratings.
    rated: bool = False
    clock: ClockIn | None = None
    # A match over days: each move has days_per_move days (app/rooms/pace.py checks them).
    pace: Literal["live", "turn_based"] = "live"
    days_per_move: StrictInt | None = None


class SeatIn(Strict):
    seat: int | None = None


class BotIn(Strict):
    seat: int
    kind: Literal["heuristic", "random", "normal", "strong"] = "heuristic"


class MuteIn(Strict):
    user_id: str = Field(max_length=32)
    muted: bool = True


class RoomSettingsIn(Strict):
    watchers_chat: bool


class InvitationIn(Strict):
    """Whom the host invites to a seat (a username)."""

    username: str = Field(min_length=1, max_length=40)


# --- Reports and moderation ------------------------------------------------------------


class ReportIn(Strict):
    username: str = Field(max_length=40)
    reason: str = Field(max_length=20)
    text: str = Field(default="", max_length=4000)
    room_id: str | None = Field(default=None, max_length=32)
    chat_id: int | None = None


class ModerationIn(Strict):
    """A moderator's action on a person: named by username (or, a guest, by user id); the
    reports it answers are resolved with it."""

    username: str = Field(max_length=40)
    reason: str = Field(max_length=2000)
    report_ids: list[StrictInt] = Field(default_factory=list, max_length=100)


class MuteSiteWideIn(ModerationIn):
    minutes: StrictInt  # "5" or true is a mistake to point out, not to guess at


class BanIn(ModerationIn):
    until: datetime | None = None  # None: until lifted


class ReasonIn(Strict):
    reason: str = Field(max_length=2000)


class ReportHandledIn(Strict):
    status: Literal["resolved", "dismissed"]
    reason: str = Field(default="", max_length=2000)


# --- WebSocket: client -> server ------------------------------------------------------


class StrictMessage(BaseModel):
    # No coercion either: "version": "3" is a bad message, not version 3.
    model_config = ConfigDict(extra="forbid", strict=True)


class ActMessage(StrictMessage):
    type: Literal["act"]
    version: int
    action: dict[str, Any]


class PreviewMessage(StrictMessage):
    """What an action would do at ``version``, without playing it (docs/protocol.md)."""

    type: Literal["preview"]
    version: int
    action: dict[str, Any]


class PingMessage(StrictMessage):
    type: Literal["ping"]


class ChatLine(StrictMessage):
    """A line of table talk to one of the room's channels (app/chat)."""

    type: Literal["chat"]
    channel: Literal["table", "watchers"]
    text: str


class ReadWatchersMessage(StrictMessage):
    """A player's choice whether this connection reads the watchers' channel (app/chat)."""

    type: Literal["read_watchers"]
    on: bool


class ReactMessage(StrictMessage):
    """A reaction from a player; which ones exist is the chat's to say (app/chat/text.py)."""

    type: Literal["react"]
    reaction: str


class RematchMessage(StrictMessage):
    """A player's word on a rematch at the end of a match: propose or accept it (``accept``
    true), or decline the one proposed (app/rooms/rematch_offers.py)."""

    type: Literal["rematch"]
    accept: bool


ClientMessage = TypeAdapter(
    Annotated[
        ActMessage
        | PreviewMessage
        | ChatLine
        | ReactMessage
        | ReadWatchersMessage
        | RematchMessage
        | PingMessage,
        Field(discriminator="type"),
    ]
)

# Error codes sent as {"type": "error", "code": ..., "message": ...} (docs/protocol.md); a
# refused preview carries one of them in {"type": "preview", "ok": false, "code": ...}.
ERROR_CODES = (
    "bad_message",
    "message_too_large",
    "rate_limited",
    "not_seated",
    "match_not_started",
    "match_over",
    "stale_version",
    "not_your_turn",
    "illegal_action",
    "room_not_found",
    "unavailable",
    "room_closed",
    "seat_taken_over",
    "no_session",
    "muted",
    "site_muted",
    "watchers_chat_off",
    "watchers_chat_rated",
    "watchers_chat_unread",
    "chat_empty",
    "chat_invisible",
    "chat_too_long",
    "unknown_reaction",
    "not_finished",
    "rematch_open",
    "no_rematch_offer",
)
