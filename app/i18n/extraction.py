"""Finding every message in the sources, and bringing the catalogues up to date with them.

Each domain's messages come from its own files: ``messages`` from the server (app/) and
its pages (templates/), ``games`` from the games' describers (games/), ``client`` from the
browser's scripts (static/js/). In Python and Jinja2 the usual gettext names mark a
message (``gettext``, ``ngettext``, ``pgettext``, ``_``, and ``N_`` for a message
translated later); in the scripts ``t("...")``, ``tn("singular", "plural", n)`` and
``tc("context", "...")``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from app.i18n.languages import DEFAULT, LANGUAGES
from app.i18n.paths import DOMAINS, catalogue_path

ROOT = Path(__file__).resolve().parents[2]

Keywords = Mapping[str, Any]
PYTHON_KEYWORDS: Keywords = {**DEFAULT_KEYWORDS, "N_": None}
SCRIPT_KEYWORDS: Keywords = {"t": None, "tn": (1, 2), "tc": ((1, "c"), 2)}

# Per domain: (the method of each file pattern, the keywords that mark a message).
SOURCES: dict[str, tuple[Sequence[tuple[str, str]], Keywords]] = {
    "messages": (
        [("app/**.py", "python"), ("templates/**.html", "jinja2")],
        PYTHON_KEYWORDS,
    ),
    "games": ([("games/**.py", "python")], PYTHON_KEYWORDS),
    "client": ([("static/js/**.js", "javascript")], SCRIPT_KEYWORDS),
}
OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}}


def extract(domain: str) -> Catalog:
    """Every message of ``domain`` in the sources, as a template catalogue."""
    method_map, keywords = SOURCES[domain]
    catalog = Catalog(project="Parlour", domain=domain, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT, method_map, OPTIONS, keywords, comment_tags=("Translators:",), strip_comment_tags=True
    ):
        catalog.add(
            message,
            None,
            [(filename, lineno)],
            auto_comments=comments,
            context=context,
        )
    return catalog


def update() -> list[Path]:
    """Bring every language's catalogues up to date with the sources: new messages added
    untranslated, messages gone dropped. Returns the catalogues written."""
    written = []
    for domain in DOMAINS:
        template = extract(domain)
        for language in LANGUAGES:
            if language == DEFAULT:
                continue
            path = catalogue_path(language, domain)
            if path.exists():
                with path.open("rb") as po:
                    catalog = read_po(po, locale=language, domain=domain)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                catalog = Catalog(
                    locale=language,
                    domain=domain,
                    project="Parlour",
                    copyright_holder="the Parlour authors",
                    fuzzy=False,
                )
            created = catalog.creation_date
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            # Only what changed shows in a diff: no line numbers, no new creation date.
            catalog.creation_date = created
            with path.open("wb") as po:
                write_po(po, catalog, width=100, include_lineno=False)
            written.append(path)
    return written
