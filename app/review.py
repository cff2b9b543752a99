"""Match records and reviews built from the event log (GET /api/matches/...).

A finished match is public in full: its seed is revealed (anyone can check it against
the hash shown from the first move) and every step can be replayed with every hand shown.
While a match is being played its record holds no events and no seed.
"""

from __future__ import annotations

from typing import Any

import games
from app.models import Match, MatchEvent, iso
from games import Rules


def match_summary(match: Match) -> dict[str, Any]:
    return {
        "id": match.id,
        "room_id": match.room_id,
        "game": match.game,
        "title": games.get(match.game).title,
        "status": match.status,
        "seats": match.players,
        "scores": match.scores,
        "winners": match.winners,
        "created_at": iso(match.created_at),
        "finished_at": iso(match.finished_at),
    }


def match_record(match: Match, events: list[MatchEvent]) -> dict[str, Any]:
    finished = match.status == "finished"
    return {
        **match_summary(match),
        "seat_count": match.seat_count,
        "options": match.options,
        "seed_hash": match.seed_hash,
        "seed": match.seed if finished else None,
        "deck": None,
        "version": len(events),
        "events": [
            {"seq": e.seq, "seat": e.seat, "action": e.action, "at": iso(e.at)} for e in events
        ]
        if finished
        else [],
    }


def review_frames(match: Match, events: list[MatchEvent]) -> list[dict[str, Any]]:
    """Every step of a finished match: the public view, every hand, the scores."""
    rules = games.get(match.game)
    steps = games.states(
        rules,
        match.seat_count,
        int(match.seed),
        match.options,
        None,
        ((event.seat, event.action) for event in events),
    )
    return [
        _frame(rules, state, match.seat_count, event)
        for state, event in zip(steps, [None, *events], strict=True)
    ]


def _frame(rules: Rules[Any], state: Any, seats: int, event: MatchEvent | None) -> dict[str, Any]:
    return {
        "seq": event.seq if event else 0,
        "event": {"seat": event.seat, "action": event.action} if event else None,
        "view": rules.view(state, None),
        "hands": [rules.view(state, seat)["hand"] for seat in range(seats)],
        "scores": rules.scores(state),
    }
