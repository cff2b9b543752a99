"""The games on offer, as data: the lobby and the tables read everything about a game here,
its sentence and its options' labels in the reader's language."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

import games
from app.i18n.accounts import game_text
from app.i18n.languages import DEFAULT
from app.i18n.requests import request_language
from games import Rules

router = APIRouter(prefix="/api")


def game_facts(rules: Rules[Any], language: str = DEFAULT) -> dict[str, Any]:
    """What the pages and the client know of a game (GET /api/games, the pages' boot data),
    its blurb and option labels in ``language``."""
    presentation = games.game(rules.name).presentation
    return {
        "name": rules.name,
        "title": rules.title,
        "min_seats": rules.min_seats,
        "max_seats": rules.max_seats,
        "pack": presentation.pack,
        "blurb": game_text(presentation.blurb, language),
        "lower_scores_win": rules.lower_scores_win,
        "default_options": rules.default_options(),
        "options": [
            {**option, "label": game_text(option["label"], language)}
            for option in rules.options_schema()
        ],
    }


@router.get("/games")
def list_games(request: Request) -> list[dict[str, Any]]:
    language = request_language(request)
    return [game_facts(games.get(name), language) for name in sorted(games.REGISTRY)]
