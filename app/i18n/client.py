"""The browser's catalogue: the ``client`` domain of one language, as the scripts read it.

Sent in each page (``<script type="application/json" id="catalogue">``, none in English,
whose message ids are the English text) and read by static/js/lib/i18n.js. A plural
message carries all its forms, and ``plurals`` maps each of the language's plural
categories (as ``Intl.PluralRules`` names them) to the form the catalogue gives it, so the
browser needs no formula of its own.
"""

from __future__ import annotations

import gettext
from functools import cache
from typing import Any

from babel import Locale
from babel.messages.pofile import read_po

from app.i18n.languages import DEFAULT
from app.i18n.paths import catalogue_path
from app.i18n.pseudo import PSEUDO, pseudo_catalog

# Numbers enough to meet every plural category of the languages Parlour speaks
# (French and Spanish say "many" of a million).
SAMPLES = [*range(0, 1001), 1_000_000, 2_000_000, 1_000_001]
CONTEXT_SEPARATOR = "\x04"  # gettext's, between a message's context and its id


@cache
def client_catalogue(language: str) -> dict[str, Any] | None:
    """The catalogue a page in ``language`` sends its scripts (None in English)."""
    if language == DEFAULT:
        return None
    if language == PSEUDO:
        catalog = pseudo_catalog("client")
    else:
        with catalogue_path(language, "client").open("rb") as po:
            catalog = read_po(po, locale=language)
    formula = gettext.c2py(catalog.plural_expr)
    cldr = Locale.parse(DEFAULT if language == PSEUDO else language)
    plurals: dict[str, int] = {}
    for n in SAMPLES:
        plurals.setdefault(cldr.plural_form(n), formula(n))
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        if message.context:
            key = f"{message.context}{CONTEXT_SEPARATOR}{key}"
        string = message.string
        messages[key] = list(string) if isinstance(string, tuple | list) else string
    return {"language": language, "plurals": plurals, "messages": messages}
