"""The pseudo-language ``qps``: every message is the English one with its letters accented
and the whole bracketed (``⟦Ƥļàýéđ {card}⟧``), placeholders left as they are.

Offered only with ``PSEUDO_LANGUAGE=on`` (tests, and a translator's look at a page): a page,
a socket or an account in it shows at once any text built outside the catalogues, which
stays plain English, and any message too cramped for longer languages.
"""

from __future__ import annotations

import gettext
import io
import re
from functools import cache

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from app.i18n.languages import PSEUDO

__all__ = ["PSEUDO", "pseudo", "pseudo_catalog", "pseudo_translations"]
OPEN, CLOSE = "⟦", "⟧"
ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
# What is left as it is: {placeholders}, and HTML tags and entities inside a message.
KEPT = re.compile(r"\{[^{}]*\}|<[^<>]*>|&\w+;")


def pseudo(text: str) -> str:
    """``text`` accented and bracketed, its placeholders and markup unchanged."""
    if not text:
        return text
    parts, last = [], 0
    for kept in KEPT.finditer(text):
        parts.append(text[last : kept.start()].translate(ACCENTED))
        parts.append(kept.group())
        last = kept.end()
    parts.append(text[last:].translate(ACCENTED))
    return f"{OPEN}{''.join(parts)}{CLOSE}"


@cache
def pseudo_catalog(domain: str) -> Catalog:
    """``domain``'s messages, as found in the sources now, in the pseudo-language."""
    from app.i18n.extraction import extract  # reads the sources: only when asked for

    template = extract(domain)
    catalog = Catalog(locale="en", domain=domain, fuzzy=False)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            string: str | tuple[str, ...] = tuple(pseudo(form) for form in message.id)
        else:
            string = pseudo(message.id)
        catalog.add(message.id, string, context=message.context)
    return catalog


@cache
def pseudo_translations(domain: str) -> gettext.GNUTranslations:
    compiled = io.BytesIO()
    write_mo(compiled, pseudo_catalog(domain))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)
