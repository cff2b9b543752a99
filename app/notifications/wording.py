"""What a notification says: one line per event, the same on every channel (the webhook's
``content``, a push notification's body, a line of an e-mail)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import games

# Outbox kinds (app/models.py OutboxItem.kind) of the four signals, and their subjects.
TURN, REMINDER, ENDED, CONFIRM = "turn", "reminder", "ended", "confirm"
INVITED = "invited"
HEADINGS = {
    TURN: "Your turn",
    REMINDER: "Your time is nearly out",
    ENDED: "A match ended",
    INVITED: "An invitation to a table",
}


def game_title(game: str | None) -> str:
    if game is not None and game in games.REGISTRY:
        return games.get(game).title
    return game or "a table"


def deadline_text(iso: str | None) -> str:
    """A stored deadline as people read it: "Fri 27 Nov, 14:05 UTC"."""
    if not iso:
        return ""
    moment = datetime.fromisoformat(iso.removesuffix("Z"))
    return moment.strftime("%a %d %b, %H:%M UTC")


def line(kind: str, game: str | None, details: dict[str, Any]) -> str:
    """The event in one sentence, without the link."""
    title = game_title(game)
    if kind == TURN:
        due = deadline_text(details.get("deadline"))
        return f"It is your turn at {title}" + (f" (until {due})." if due else ".")
    if kind == INVITED:
        return f"{details.get('from') or 'Someone'} invites you to a seat at {title}."
    if kind == REMINDER:
        return f"Your time to move at {title} runs out at {deadline_text(details['deadline'])}."
    summary = str(details.get("summary") or "").strip()
    return f"The match of {title} is over" + (f": {summary}" if summary else ".")


def with_link(text: str, url: str) -> str:
    return f"{text} {url}"
