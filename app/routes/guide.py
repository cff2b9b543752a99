"""What the table tells a newcomer about its game, handed to the room page with its boot data.

- The help on each action: the section of the game's rules in the reader's language
  (app/rules_texts.py) that lists the actions at the table, one list item per action type —
  ``- **Uprise** (`uprise`): play any card face down…`` — read into ``{"uprise": {"name":
  "Uprise", "text": "Play any card face down…"}}``. The table shows it beside every button
  that takes that action.
- The first-match walkthrough: the game's presentation (games/<game>/presentation.py), its
  lobby sentence first and then its steps.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import games
from app.i18n.languages import DEFAULT
from app.rules_texts import rules_path

ITEM = re.compile(r"^- \*\*(?P<name>[^*]+)\*\* \(`(?P<type>[a-z_]+)`\): (?P<text>.+)$")
MARKUP = re.compile(r"[*`]")


@lru_cache(maxsize=16)
def _action_help(path: Path, mtime: float) -> dict[str, dict[str, str]]:
    # The first section listing actions (its heading differs with the language).
    for section in path.read_text(encoding="utf-8").split("\n## "):
        helps: dict[str, dict[str, str]] = {}
        for line in section.splitlines():
            found = ITEM.match(line.strip())
            if found:
                words = MARKUP.sub("", found["text"]).strip()
                helps[found["type"]] = {
                    "name": found["name"],
                    "text": words[:1].upper() + words[1:],
                }
        if helps:
            return helps
    return {}


def action_help(game: str, language: str = DEFAULT) -> dict[str, dict[str, str]]:
    """Each action type of ``game`` with its name and what it does, from its rules in
    ``language``."""
    path = rules_path(game, language)
    if not path.exists():
        return {}
    return _action_help(path, path.stat().st_mtime)


def table_guide(game: str, language: str = DEFAULT) -> dict[str, Any]:
    """The room page's ``guide``: ``actions`` (the help on each action type) and
    ``walkthrough`` (``[{"title", "text"}]``, the game's lobby sentence first)."""
    presentation = games.game(game).presentation
    steps = [{"title": games.get(game).title, "text": presentation.blurb}]
    steps += [{"title": title, "text": text} for title, text in presentation.walkthrough]
    return {"actions": action_help(game, language), "walkthrough": steps}
