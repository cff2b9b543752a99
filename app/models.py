"""The database tables (SQLAlchemy 2.0 ORM). Alembic (migrations/) creates them.

A match is event-sourced: ``matches`` holds its settings and secret seed,
``match_events`` its actions with a unique ``(match_id, seq)``; the state is always
``games.replay`` of those, never stored as the truth. A person is a ``users`` row, a guest
or (with a username and a password hash) an account; ``auth_sessions`` are the signed-in
browsers. ``ratings`` holds each account's current rating per game and ``rating_changes``
what every rated match changed: the ratings can always be rebuilt from the matches.
``chat_messages`` holds the table talk of each room, with the match and version it was
said at. ``match_analyses`` holds the computer's analysis of each finished match, queued
when it finishes and done later (app/records/analysis.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import JSON, ForeignKey, Index, String, Table, UniqueConstraint, false, text, true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def iso(value: datetime | None) -> str | None:
    """A stored (naive UTC) time on the wire: ISO 8601 with a Z."""
    return value.isoformat() + "Z" if value is not None else None


class Base(DeclarativeBase):
    pass


def table(model: type[Base]) -> Table:
    """A model's table, for statements run without the ORM's bookkeeping: an ORM-enabled
    insert or update goes through its bulk machinery and keeps the session in step, which
    costs more than the statement itself on the paths every match takes."""
    return cast(Table, model.__table__)


class User(Base):
    """A person: a guest, or an account once it has a username and a password."""

    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    username: Mapped[str | None] = mapped_column(String(20), default=None)
    # The username's confusable skeleton (app/people/confusables.py): unique, so "Ann" spelt with
    # a Cyrillic A cannot be taken once "Ann" is.
    username_key: Mapped[str | None] = mapped_column(
        String(100), default=None, unique=True, index=True
    )
    password_hash: Mapped[str | None] = mapped_column(String(255), default=None)
    # The language an account chose (app/i18n/languages.py; None: the request's own): its
    # pages, errors, e-mails and notifications speak it.
    language: Mapped[str | None] = mapped_column(String(8), default=None)


class AuthSession(Base):
    """A signed-in browser: the cookie carries this id, signed. Deleting the row revokes it."""

    __tablename__ = "auth_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)
    # When the session was last used, to the day (app/people/sessions.py): a guest none of
    # whose sessions was used for a month, and who played no match, is removed.
    used_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Where it was opened: the browser's mark (app/people/browser_mark.py) and the network
    # address. A mute at a table covers fresh guests coming from either (app/chat/mutes.py).
    browser: Mapped[str | None] = mapped_column(String(64), default=None)
    address: Mapped[str | None] = mapped_column(String(64), default=None)


class Room(Base):
    """A live table: a game, its options, clock and seats, and (once started) its match.

    ``status`` is ``waiting`` -> ``playing`` -> ``finished``; a table nobody sits at any
    more ends ``closed`` (it never started) or ``abandoned`` (its match was cut short).
    """

    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    # The short code a public room is joined by while it is open; None for a private room
    # (reachable only by its id's unguessable link) and once the room has ended (freed).
    code: Mapped[str | None] = mapped_column(String(12), unique=True)
    game: Mapped[str] = mapped_column(String(20))
    seat_count: Mapped[int]
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    visibility: Mapped[str] = mapped_column(String(10))
    status: Mapped[str] = mapped_column(String(10), index=True)
    # Indexed, as are the other columns naming a person, for the removal of idle guests.
    host_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id"), default=None)
    rematch_id: Mapped[str | None] = mapped_column(String(32), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # A rated table: accounts only, no computer players; its matches change ratings.
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The turn clock chosen at creation, {"turn": T, "bank": B} in seconds (None: no clock),
    # and while a match runs its clocks (app/rooms/turn_clocks.py), written with each event.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    clock_state: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    # Who ended the table before its time: "moderator" (app/moderation/), or None when it
    # ended by itself (closed or abandoned because nobody stayed). Shown on the room page.
    closed_by: Mapped[str | None] = mapped_column(String(16), default=None)
    # The host's chat settings: whether the players read the watchers' channel, and the
    # people muted at this table (user ids).
    watchers_chat: Mapped[bool] = mapped_column(default=True, server_default=true())
    muted: Mapped[list[str]] = mapped_column(JSON, default=list, server_default=text("'[]'"))
    # Per muted person, what their mute also covers: {user id: {"at": when muted (ISO),
    # "browsers": [...], "addresses": [...]}} (app/chat/mutes.py). Never sent to clients.
    mute_marks: Mapped[dict[str, Any]] = mapped_column(
        JSON, default=dict, server_default=text("'{}'")
    )

    # The pace of play: "live" (everyone at the table at once) or "turn_based" (a match over
    # days: each move has ``days_per_move`` days, app/rooms/pace.py).
    pace: Mapped[str] = mapped_column(String(12), default="live", server_default="live")
    days_per_move: Mapped[int | None] = mapped_column(default=None)
    # A turn-based match's next deadline: the earliest of the awaited people's (None while
    # no person is awaited), written with each move; the sweep finds deadlines by it.
    deadline: Mapped[datetime | None] = mapped_column(default=None, index=True)
    # The deadline whose "deadline near" reminder was sent (once per awaited move).
    reminded_deadline: Mapped[datetime | None] = mapped_column(default=None)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="room", order_by="Seat.seat", cascade="all, delete-orphan"
    )


class Seat(Base):
    """A place at a room's table, held by a user or a computer player.

    A computer that took a person's seat during a match (the person was away, or ran out
    of time twice) names that person in ``stand_in_for``: they may take the seat back.
    """

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int]
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), default=None, index=True)
    bot: Mapped[str | None] = mapped_column(String(20), default=None)
    name: Mapped[str] = mapped_column(String(40))
    stand_in_for: Mapped[str | None] = mapped_column(
        ForeignKey("users.id"), default=None, index=True
    )
    stand_in_name: Mapped[str | None] = mapped_column(String(40), default=None)

    room: Mapped[Room] = relationship(back_populates="seats")


class Match(Base):
    """One played game: its settings, secret seed and result. Its events are its log."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(String(32))
    game: Mapped[str] = mapped_column(String(20))
    seat_count: Mapped[int]
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The 128-bit seed as a decimal string: secret until the match is over.
    seed: Mapped[str] = mapped_column(String(60))
    seed_hash: Mapped[str] = mapped_column(String(64))
    # Who sat where; once the match is over, also who played which of each seat's moves
    # and whose the seat's result is (app/store/credit.py).
    players: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    # "playing" -> "finished", or "abandoned" when nobody stayed at the table.
    status: Mapped[str] = mapped_column(String(10), index=True)
    scores: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    winners: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    # Rated when its room was; a computer standing in for a person who left changes
    # nothing (they are rated last: app/ratings/ledger.py).
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Set in the transaction that finishes the match and writes its rating changes, so
    # they are written once, whatever is retried or replayed.
    ratings_applied: Mapped[bool] = mapped_column(default=False, server_default=false())


class MatchPlayer(Base):
    """Who sat where in a match: lets history be filtered by user."""

    __tablename__ = "match_players"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int]
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), default=None, index=True)
    # Whether this seat won; set when the match finishes (history's result filter).
    won: Mapped[bool | None] = mapped_column(default=None)


class MatchEvent(Base):
    """One acknowledged action. ``(match_id, seq)`` is unique: a double submit fails cleanly."""

    __tablename__ = "match_events"
    # The unique index also serves "all events of a match, in order".
    __table_args__ = (UniqueConstraint("match_id", "seq", name="uq_match_events_match_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int]
    seat: Mapped[int]
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    # Who made the move: {"user_id": ...} or {"bot": kind} (None for events logged before
    # moves were attributed); ``timeout`` marks a move the clock played for a person.
    played_by: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    timeout: Mapped[bool] = mapped_column(default=False, server_default=false())


class Rating(Base):
    """An account's current rating in one game (OpenSkill's mu and sigma)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_rating", "game", "rating"),)

    user_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    mu: Mapped[float]
    sigma: Mapped[float]
    # The rating shown (app/ratings/model.py), kept beside mu and sigma for ordering.
    rating: Mapped[int]
    matches: Mapped[int]
    # When the last match rated here finished: a later match of this player finishes later.
    updated_at: Mapped[datetime]


class RatingChange(Base):
    """What one rated match did to one player's rating."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        UniqueConstraint("match_id", "seat"),
        Index("ix_rating_changes_user_game", "user_id", "game"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int]
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(20))
    mu_before: Mapped[float]
    sigma_before: Mapped[float]
    rating_before: Mapped[int]
    mu_after: Mapped[float]
    sigma_after: Mapped[float]
    rating_after: Mapped[int]
    at: Mapped[datetime]


class ChatMessage(Base):
    """One line of table talk: where and by whom it was said, and when in the match."""

    __tablename__ = "chat_messages"
    # A room's last messages of a channel; a match's talk for its review.
    __table_args__ = (Index("ix_chat_messages_room_channel_id", "room_id", "channel", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    # The room's match when it was said (None: before the first start) and its version.
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id"), default=None, index=True)
    version: Mapped[int] = mapped_column(default=0)
    channel: Mapped[str] = mapped_column(String(10))
    seat: Mapped[int | None] = mapped_column(default=None)  # None: a watcher
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(500))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class NotificationSettings(Base):
    """How an account is told about its tables when it is not looking (app/notifications/):
    which channels, for which events, and each channel's state. No row: the defaults."""

    __tablename__ = "notification_settings"

    user_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    email: Mapped[str | None] = mapped_column(String(254), default=None)
    # When the address was confirmed by its link (None: not yet; nothing else is sent).
    email_confirmed_at: Mapped[datetime | None] = mapped_column(default=None)
    email_turns: Mapped[bool] = mapped_column(default=True, server_default=true())
    email_reminders: Mapped[bool] = mapped_column(default=True, server_default=true())
    email_endings: Mapped[bool] = mapped_column(default=True, server_default=true())
    # When the last e-mail went out: the next waits for the digest interval.
    email_sent_at: Mapped[datetime | None] = mapped_column(default=None)
    webhook_url: Mapped[str | None] = mapped_column(String(2000), default=None)
    # Keys the HMAC of each webhook body; shown to the account on its settings page.
    webhook_secret: Mapped[str | None] = mapped_column(String(64), default=None)
    webhook_turns: Mapped[bool] = mapped_column(default=True, server_default=true())
    webhook_reminders: Mapped[bool] = mapped_column(default=True, server_default=true())
    webhook_endings: Mapped[bool] = mapped_column(default=True, server_default=true())
    # Failed deliveries in a row; past the limit the webhook is disabled, with a note why,
    # until its URL is saved again.
    webhook_failures: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    webhook_disabled_note: Mapped[str | None] = mapped_column(String(500), default=None)
    push_turns: Mapped[bool] = mapped_column(default=True, server_default=true())
    push_reminders: Mapped[bool] = mapped_column(default=True, server_default=true())
    push_endings: Mapped[bool] = mapped_column(default=True, server_default=true())


class PushSubscription(Base):
    """A browser's Web Push subscription (an account's or a guest's): where its push
    service takes messages for it, and the keys they are encrypted to."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(2000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The language the browser read the site in when it subscribed: a guest's push
    # notifications speak it (an account's speak the account's setting first).
    language: Mapped[str | None] = mapped_column(String(8), default=None)


class OutboxItem(Base):
    """One notification still to deliver on one channel (the outbox): written when the
    rooms emit a signal, deleted once delivered or given up. ``due_at`` is when it may go
    (later after each failure); a process delivering it holds it until ``lease_until``."""

    __tablename__ = "notification_outbox"
    __table_args__ = (Index("ix_notification_outbox_due", "due_at"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    # "email", "webhook" or "push".
    channel: Mapped[str] = mapped_column(String(10))
    # "turn", "reminder", "ended", "invited" (to a seat), or "confirm" (an address's
    # confirmation link).
    kind: Mapped[str] = mapped_column(String(10))
    room_id: Mapped[str | None] = mapped_column(String(32), default=None)
    game: Mapped[str | None] = mapped_column(String(20), default=None)
    # What the message says beyond its kind: the deadline, the match's summary, the
    # address to confirm, the push subscription's id.
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    due_at: Mapped[datetime] = mapped_column(default=utcnow)
    attempts: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    lease_until: Mapped[datetime | None] = mapped_column(default=None)
    leased_by: Mapped[str | None] = mapped_column(String(32), default=None)


class MatchAnalysis(Base):
    """The computer's analysis of a match: queued (``pending``) in the transaction that
    finishes it, ``done`` once every person's decision is judged (app/records/analysis.py).

    ``claimed_at`` is when a process last said it was working on it: a claim older than
    the lease (app/store/analyses.py) is another process's to take, so a job outlives the
    process that had it. ``decisions`` and ``accuracy`` are the analysis's wire form."""

    __tablename__ = "match_analyses"
    __table_args__ = (Index("ix_match_analyses_status_queued_at", "status", "queued_at"),)

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(10))
    queued_at: Mapped[datetime] = mapped_column(default=utcnow)
    claimed_at: Mapped[datetime | None] = mapped_column(default=None)
    done_at: Mapped[datetime | None] = mapped_column(default=None)
    decisions: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    accuracy: Mapped[dict[str, float] | None] = mapped_column(JSON, default=None)


# --- Friends, invitations and blocks (app/social/) ------------------------------------------


class Friendship(Base):
    """An ask of friendship from ``from_id`` to ``to_id``: pending until the other accepts
    (``accepted_at``). One row per pair, whoever asked first; declining or removing deletes
    it."""

    __tablename__ = "friendships"

    from_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    to_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    accepted_at: Mapped[datetime | None] = mapped_column(default=None)


class Block(Base):
    """``blocker_id`` blocked ``blocked_id``: no friendship, no invitation, no seat at the
    blocker's tables, and none of the blocked person's chat delivered to the blocker."""

    __tablename__ = "blocks"

    blocker_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Invitation(Base):
    """A host's invitation of ``to_id`` to a seat at ``room_id``; deleted once accepted or
    declined, and no longer offered once the table has filled up, or marked expired once it
    started or was closed."""

    __tablename__ = "invitations"
    __table_args__ = (UniqueConstraint("room_id", "to_id"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    from_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    to_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # When its table started or was closed: no longer offered; a late answer is told so
    # (410 ``invitation_expired``), and the row then goes.
    expired_at: Mapped[datetime | None] = mapped_column(default=None)


# --- Reports and moderation (app/moderation/) ---------------------------------------------


class Moderator(Base):
    """An account that may see the reports and act on them (``python -m app.admin``)."""

    __tablename__ = "moderators"

    user_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    granted_at: Mapped[datetime] = mapped_column(default=utcnow)


class Report(Base):
    """One person reporting another: the reason, their words, and the evidence the server
    attached (the chat lines, the room and match) — copied, so deleting a line later does
    not take the evidence with it from the moderators."""

    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_status_id", "status", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    reported_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    # abuse, cheating, spam or other (app/moderation/reports.py).
    reason: Mapped[str] = mapped_column(String(20))
    text: Mapped[str] = mapped_column(String(1000))
    room_id: Mapped[str | None] = mapped_column(String(32), default=None)
    match_id: Mapped[str | None] = mapped_column(String(32), default=None)
    chat_id: Mapped[int | None] = mapped_column(default=None)
    evidence: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # open -> resolved or dismissed, by a moderator.
    status: Mapped[str] = mapped_column(String(10), default="open")
    handled_by: Mapped[str | None] = mapped_column(ForeignKey("users.id"), default=None)
    handled_at: Mapped[datetime | None] = mapped_column(default=None)


class Sanction(Base):
    """A site-wide mute or ban of a person, in force until ``until`` (None: until lifted).

    One of each kind per person: a new one replaces the old. A ban also keeps where the
    person's live sessions were opened — browser marks and network addresses, and when
    (``{"at", "browsers", "addresses"}``, as a mute at a table keeps them) — and refuses a
    new guest from one of those browsers, or made since from one of those addresses
    (app/chat/mutes.py ``covers``)."""

    __tablename__ = "sanctions"

    user_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)  # "mute" or "ban"
    reason: Mapped[str] = mapped_column(String(500))
    until: Mapped[datetime | None] = mapped_column(default=None)
    by_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), default=None)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    marks: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class ModerationEntry(Base):
    """The audit log: one row per moderator action — who, when, what, on whom, why.

    ``moderator_id`` is None for what the command line did (granting the role)."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    moderator_id: Mapped[str | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    action: Mapped[str] = mapped_column(String(20))
    target_id: Mapped[str | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None, index=True
    )
    reason: Mapped[str] = mapped_column(String(500), default="")
    # What the action was about besides the person: a report, a room, a chat line's words.
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
