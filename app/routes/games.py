"""The games on offer, as data: the lobby and the tables read everything about a game here."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

import games
from games import Rules

router = APIRouter(prefix="/api")


def game_facts(rules: Rules[Any]) -> dict[str, Any]:
    """What the pages and the client know of a game (GET /api/games, the pages' boot data)."""
    presentation = games.game(rules.name).presentation
    return {
        "name": rules.name,
        "title": rules.title,
        "min_seats": rules.min_seats,
        "max_seats": rules.max_seats,
        "pack": presentation.pack,
        "blurb": presentation.blurb,
        "lower_scores_win": rules.lower_scores_win,
        "default_options": rules.default_options(),
        "options": rules.options_schema(),
    }


@router.get("/games")
def list_games() -> list[dict[str, Any]]:
    return [game_facts(games.get(name)) for name in sorted(games.REGISTRY)]
