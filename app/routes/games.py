"""The games on offer, as data: the lobby and the tables read everything about a game here.

Their descriptive words (the lobby sentence, the options' names and choices) are in the
reader's language (app/routes/game_texts.py); a game's name is the same in every language.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

import games
from app.i18n.catalogues import words
from app.i18n.languages import DEFAULT
from app.i18n.requests import request_language
from app.routes.game_texts import CHOICE_LABELS
from games import Rules

router = APIRouter(prefix="/api")


def _options(rules: Rules[Any], language: str) -> list[dict[str, Any]]:
    """The game's options with their names, and the words for their choices
    (``choice_labels``, beside ``choices``), in ``language``."""
    said = words(language)
    options = []
    for option in rules.options_schema():
        label: str = option["label"]
        worded = {**option, "label": said.gettext(label)}
        if option.get("choices") is not None:
            worded["choice_labels"] = [
                said.gettext(CHOICE_LABELS[choice])
                if isinstance(choice, str) and choice in CHOICE_LABELS
                else said.number(choice)
                if isinstance(choice, int | float)
                else str(choice)
                for choice in option["choices"]
            ]
        options.append(worded)
    return options


def game_facts(rules: Rules[Any], language: str = DEFAULT) -> dict[str, Any]:
    """What the pages and the client know of a game (GET /api/games, the pages' boot data),
    its words in ``language``."""
    presentation = games.game(rules.name).presentation
    return {
        "name": rules.name,
        "title": rules.title,
        "min_seats": rules.min_seats,
        "max_seats": rules.max_seats,
        "pack": presentation.pack,
        "blurb": words(language).gettext(presentation.blurb),
        "lower_scores_win": rules.lower_scores_win,
        "default_options": rules.default_options(),
        "options": _options(rules, language),
    }


@router.get("/games")
def list_games(request: Request) -> list[dict[str, Any]]:
    language = request_language(request)
    return [game_facts(games.get(name), language) for name in sorted(games.REGISTRY)]
