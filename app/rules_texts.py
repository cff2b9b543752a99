"""Where each game's rules are written, in each language: docs/rules/<game>.md in English,
docs/rules/<language>/<game>.md in the others — translated whole, section for section, rather
than through the catalogues (they are pages of prose, not messages). The rules page, the
table's summary drawer and the help on each action (app/routes/guide.py) read them."""

from __future__ import annotations

from pathlib import Path

from app.i18n.languages import DEFAULT

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"


def rules_path(game: str, language: str = DEFAULT) -> Path:
    """The rules of ``game`` in ``language`` if they are written in it, else in English."""
    translated = RULES_DIR / language / f"{game}.md"
    if language != DEFAULT and translated.is_file():
        return translated
    return RULES_DIR / f"{game}.md"
