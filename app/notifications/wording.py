"""What a notification says: one line per event, the same on every channel (the webhook's
``content``, a push notification's body, a line of an e-mail), in the recipient's language
(the account's setting, else the language a guest's push subscription was made in, else
English)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from babel.dates import format_datetime
from babel.lists import format_list

import games
from app.i18n.catalogues import Words
from app.i18n.marks import N_

# Outbox kinds (app/models.py OutboxItem.kind) of the four signals, and their subjects.
TURN, REMINDER, ENDED, CONFIRM = "turn", "reminder", "ended", "confirm"
INVITED = "invited"
HEADINGS = {
    TURN: N_("Your turn"),
    REMINDER: N_("Your time is nearly out"),
    ENDED: N_("A match ended"),
    INVITED: N_("An invitation to a table"),
}
# A deadline as people read it: "Fri 27 Nov, 14:05 UTC" (in each language's words).
DEADLINE = "EEE dd MMM, HH:mm"


def heading(kind: str, said: Words) -> str:
    return said.gettext(HEADINGS[kind]) if kind in HEADINGS else "Parlour"


def game_title(game: str | None, said: Words) -> str:
    """A game's name (the same in every language), or "a table" when none is known."""
    if game is not None and game in games.REGISTRY:
        return games.get(game).title
    return game or said.gettext(N_("a table"))


def deadline_text(iso: str | None, said: Words) -> str:
    """A stored deadline as people read it: "Fri 27 Nov, 14:05 UTC"."""
    if not iso:
        return ""
    moment = datetime.fromisoformat(iso.removesuffix("Z"))
    written = format_datetime(moment, DEADLINE, locale=said.locale)
    return said.gettext(N_("{when} UTC"), when=written)


def line(kind: str, game: str | None, details: dict[str, Any], said: Words) -> str:
    """The event in one sentence, without the link."""
    title = game_title(game, said)
    if kind == TURN:
        due = deadline_text(details.get("deadline"), said)
        if due:
            return said.gettext(N_("It is your turn at {game} (until {due})."), game=title, due=due)
        return said.gettext(N_("It is your turn at {game}."), game=title)
    if kind == INVITED:
        sender = details.get("from")
        if sender:
            return said.gettext(
                N_("{name} invites you to a seat at {game}."), name=sender, game=title
            )
        return said.gettext(N_("Someone invites you to a seat at {game}."), game=title)
    if kind == REMINDER:
        return said.gettext(
            N_("Your time to move at {game} runs out at {due}."),
            game=title,
            due=deadline_text(details["deadline"], said),
        )
    summary = _summary(details, said)
    if summary:
        return said.gettext(
            N_("The match of {game} is over: {summary}"), game=title, summary=summary
        )
    return said.gettext(N_("The match of {game} is over."), game=title)


def _summary(details: dict[str, Any], said: Words) -> str:
    """How the match ended, in the recipient's words when the signal gave them (a list of
    names joined as their language joins them: "Ann y Bob")."""
    worded = details.get("summary_words")
    if isinstance(worded, dict) and isinstance(worded.get("id"), str):
        params = {
            name: format_list([str(v) for v in value], locale=said.locale)
            if isinstance(value, list)
            else value
            for name, value in (worded.get("params") or {}).items()
        }
        message_id: str = worded["id"]
        return said.gettext(message_id, **params).strip()
    return str(details.get("summary") or "").strip()


def with_link(text: str, url: str) -> str:
    return f"{text} {url}"
