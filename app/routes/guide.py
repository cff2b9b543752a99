"""What the table tells a newcomer about its game, handed to the room page with its boot data.

- The help on each action: the "The actions at the table" section of docs/rules/<game>.md,
  one list item per action type — ``- **Uprise** (`uprise`): play any card face down…`` —
  read into ``{"uprise": {"name": "Uprise", "text": "Play any card face down…"}}``. The
  table shows it beside every button that takes that action.
- The first-match walkthrough: the game's presentation (games/<game>/presentation.py), its
  lobby sentence first and then its steps, in the reader's language (their words are listed
  in app/routes/game_texts.py).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import games
from app.i18n.catalogues import words
from app.i18n.languages import DEFAULT

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
ACTIONS = "## The actions at the table"
ITEM = re.compile(r"^- \*\*(?P<name>[^*]+)\*\* \(`(?P<type>[a-z_]+)`\): (?P<text>.+)$")
MARKUP = re.compile(r"[*`]")


@lru_cache(maxsize=16)
def _action_help(path: Path, mtime: float) -> dict[str, dict[str, str]]:
    text = path.read_text(encoding="utf-8")
    start = text.find(ACTIONS)
    if start < 0:
        return {}
    end = text.find("\n## ", start + len(ACTIONS))
    section = text[start : end if end >= 0 else None]
    helps: dict[str, dict[str, str]] = {}
    for line in section.splitlines():
        found = ITEM.match(line.strip())
        if found:
            words = MARKUP.sub("", found["text"]).strip()
            helps[found["type"]] = {"name": found["name"], "text": words[:1].upper() + words[1:]}
    return helps


def action_help(game: str) -> dict[str, dict[str, str]]:
    """Each action type of ``game`` with its name and what it does, from its rules."""
    path = RULES_DIR / f"{game}.md"
    if not path.exists():
        return {}
    return _action_help(path, path.stat().st_mtime)


def table_guide(game: str, language: str = DEFAULT) -> dict[str, Any]:
    """The room page's ``guide``: ``actions`` (the help on each action type) and
    ``walkthrough`` (``[{"title", "text"}]``, the game's lobby sentence first), in
    ``language``."""
    said = words(language)
    presentation = games.game(game).presentation
    steps = [{"title": games.get(game).title, "text": said.gettext(presentation.blurb)}]
    steps += [
        {"title": said.gettext(title), "text": said.gettext(text)}
        for title, text in presentation.walkthrough
    ]
    return {"actions": action_help(game), "walkthrough": steps}
