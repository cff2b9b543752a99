"""Match records and reviews built from the event log (GET /api/matches/...).

A match that is over — finished, or abandoned — is public in full: its seed is revealed
(anyone can check it against the hash shown from the first move), every step can be
replayed with every hand shown, each move says who made it, and what was said at the
table from the start on is shown beside the move it was said at. While a match is being
played its record holds no events and no seed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import games
from app.i18n.accounts import account_text, told_in, view_in
from app.i18n.languages import DEFAULT
from app.models import ChatMessage, Match, MatchEvent, RatingChange, iso
from app.store.credit import with_defaults
from games import Rules, describe

OVER = ("finished", "abandoned")


def event_record(event: MatchEvent) -> dict[str, Any]:
    """One move of the log as a match record shows it."""
    return {
        "seq": event.seq,
        "seat": event.seat,
        "action": event.action,
        "at": iso(event.at),
        "by": event.played_by,
        "timeout": event.timeout,
    }


def rating_change(change: RatingChange, left: bool) -> dict[str, Any]:
    """One player's rating change; ``left``: they walked away and were rated last."""
    return {
        "seat": change.seat,
        "user_id": change.user_id,
        "before": change.rating_before,
        "after": change.rating_after,
        "change": change.rating_after - change.rating_before,
        "left": left,
    }


def match_summary(
    match: Match,
    changes: Sequence[RatingChange] = (),
    usernames: Mapping[str, str | None] | None = None,
) -> dict[str, Any]:
    """A match as history lists it: who sat where (with their usernames, for accounts),
    the result, and what it did to the ratings (``changes``, when it was rated)."""
    usernames = usernames or {}
    left = {player["seat"] for player in match.players if player.get("left")}
    return {
        "id": match.id,
        "room_id": match.room_id,
        "game": match.game,
        "title": games.get(match.game).title,
        "status": match.status,
        "seats": [
            {**with_defaults(player), "username": usernames.get(player.get("user_id") or "")}
            for player in match.players
        ],
        "scores": match.scores,
        "winners": match.winners,
        "rated": match.rated,
        "ratings": [rating_change(change, change.seat in left) for change in changes],
        "created_at": iso(match.created_at),
        "finished_at": iso(match.finished_at),
    }


def match_record(
    match: Match,
    events: list[MatchEvent],
    changes: Sequence[RatingChange] = (),
    usernames: Mapping[str, str | None] | None = None,
    language: str = DEFAULT,
) -> dict[str, Any]:
    """A match's record, its options worded in ``language``."""
    over = match.status in OVER
    rules = games.get(match.game)
    return {
        **match_summary(match, changes, usernames),
        "seat_count": match.seat_count,
        "options": match.options,
        "options_text": [
            account_text(line, language) for line in rules.options_says(match.options)
        ],
        "seed_hash": match.seed_hash,
        "seed": match.seed if over else None,
        "deck": None,
        "version": len(events),
        "events": [event_record(e) for e in events] if over else [],
    }


def replayed(match: Match, events: Sequence[MatchEvent]) -> Iterator[Any]:
    """Every state of a match: the deal, then the state after each event of its log."""
    return games.states(
        games.get(match.game),
        match.seat_count,
        int(match.seed),
        match.options,
        None,
        ((event.seat, event.action) for event in events),
    )


def review_frames(
    match: Match, events: list[MatchEvent], language: str = DEFAULT
) -> list[dict[str, Any]]:
    """Every step of a match that is over: the public view, every hand, the scores, and the
    move that led to it with the game's account of it (the words the table's log used), in
    ``language``."""
    rules = games.get(match.game)
    steps = replayed(match, events)
    frames = []
    before = None
    for state, event in zip(steps, [None, *events], strict=True):
        frames.append(_frame(rules, before, state, match.seat_count, event, language))
        before = state
    return frames


def _frame(
    rules: Rules[Any],
    before: Any,
    state: Any,
    seats: int,
    event: MatchEvent | None,
    language: str,
) -> dict[str, Any]:
    """One step: the move that led to it, told as the table told it (games.describe)."""
    return {
        "seq": event.seq if event else 0,
        "event": {
            "seat": event.seat,
            "action": event.action,
            "by": event.played_by,
            "timeout": event.timeout,
            **told_in(describe(rules, before, event.seat, event.action, state), language),
        }
        if event
        else None,
        "view": view_in(rules.view_says(state, None), language),
        "hands": [rules.view_says(state, seat)["hand"] for seat in range(seats)],
        "scores": rules.scores(state),
    }


def review_talk(messages: list[ChatMessage]) -> list[dict[str, Any]]:
    """What was said during (and after) a match, each line with the version it was said at:
    after that many moves."""
    return [
        {
            "id": m.id,
            "channel": m.channel,
            "seat": m.seat,
            "name": m.name,
            "text": m.text,
            "at": iso(m.at),
            "version": m.version,
        }
        for m in messages
    ]
