"""Database reads and writes: every function is keyword-only and takes the session.

One module per kind of record — ``people`` (users, sessions), ``rooms``, ``matches``,
``ratings``, ``chat`` — and every function is here under ``store.<name>``; the removal of
idle guests, which touches most of them, is ``idle_guests`` (app/people/idle_guests.py
calls it). Beside them:
``turn_based``, the deadlines the sweep reminds of and the tables a person plays at;
``events``, the event log's transaction, and ``events_on_loop``, PostgreSQL's batches of
moves sent from the event loop; ``analyses``, the queue of the computer's
analyses of finished matches; ``credit``, who played each seat's moves (written
into a match's record when it ends); ``database_thread``, ``DatabaseThread``, which runs
any of it on a worker thread; ``outage``, database outages told once. The notifications'
records — ``outbox``, ``notification_settings``, ``push_subscriptions`` — are used as
modules by app/notifications/ alone.

The rooms (app/rooms/) decide and call these through their storage
(app/rooms/storage.py); the routes read through them too. These functions only persist and
load. Events are written by ``events`` (app/store/events.py), in batches that the event
log (app/rooms/event_log.py) groups. Appending an event relies on the unique
``(match_id, seq)`` constraint, so a concurrent double submit or a second process acting
on the same match fails cleanly with IntegrityError.
"""

from __future__ import annotations

from app.store.chat import (
    add_chat,
    match_chat,
    recent_chat,
    recent_messages,
    set_muted,
    set_watchers_chat,
)
from app.store.matches import (
    MatchFilters,
    abandon_match,
    end_match,
    finished_matches,
    load_event,
    load_events,
    load_match,
    match_visible_to,
    open_begun_rematch,
    start_match,
)
from app.store.people import (
    close_session,
    close_user_sessions,
    extend_session,
    get_user,
    languages_of,
    live_sessions,
    mark_session_used,
    open_session,
    origins_mark,
    save_user,
    session_origins,
    session_user,
    set_language,
    users_by_id,
    users_by_username_keys,
)
from app.store.ratings import (
    leaderboard,
    rating_changes_of,
    rating_history,
    ratings_of,
    results_by_game,
)
from app.store.rooms import (
    code_exists,
    find_room,
    free_seat,
    insert_room,
    listed_room_ids,
    load_room,
    open_room_ids,
    put_seat,
    update_room,
)
from app.store.turn_based import (
    Reminder,
    claim_reminders,
    unfinished_tables,
)

__all__ = [
    "MatchFilters",
    "Reminder",
    "abandon_match",
    "add_chat",
    "claim_reminders",
    "close_session",
    "close_user_sessions",
    "code_exists",
    "end_match",
    "extend_session",
    "find_room",
    "finished_matches",
    "free_seat",
    "get_user",
    "insert_room",
    "languages_of",
    "leaderboard",
    "listed_room_ids",
    "live_sessions",
    "load_event",
    "load_events",
    "load_match",
    "load_room",
    "mark_session_used",
    "match_chat",
    "match_visible_to",
    "open_begun_rematch",
    "open_room_ids",
    "open_session",
    "origins_mark",
    "put_seat",
    "rating_changes_of",
    "rating_history",
    "ratings_of",
    "recent_chat",
    "recent_messages",
    "results_by_game",
    "save_user",
    "session_origins",
    "session_user",
    "set_language",
    "set_muted",
    "set_watchers_chat",
    "start_match",
    "unfinished_tables",
    "update_room",
    "users_by_id",
    "users_by_username_keys",
]
