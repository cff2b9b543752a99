"""The catalogues: one :class:`Words` per (language, domain), read from the compiled
gettext files of app/i18n/locale.

A message id is the English text, with named ``{placeholders}`` filled in after
translation (``words.gettext("{name} joined.", name=name)``); plural forms come from the
catalogue (``words.ngettext("{n} point", "{n} points", n)``). A compiled file missing or
older than its catalogue is compiled again first (``compile_all``, as `make translations`
does), so a checkout works whichever way it is started.
"""

from __future__ import annotations

import gettext
import tempfile
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from babel.dates import format_date, format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from app.i18n.languages import DEFAULT, LANGUAGES
from app.i18n.paths import DOMAINS, catalogue_path
from app.i18n.pseudo import PSEUDO, pseudo_translations


def compile_all() -> list[Path]:
    """Compile every catalogue whose compiled file is missing or older; returns those."""
    compiled = []
    for language in LANGUAGES:
        for domain in DOMAINS:
            source = catalogue_path(language, domain)
            if source.exists() and _compile(source):
                compiled.append(source.with_suffix(".mo"))
    return compiled


def _compile(source: Path) -> bool:
    target = source.with_suffix(".mo")
    if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
        return False
    with source.open("rb") as po:
        catalog = read_po(po)
    # Written aside under a name of its own and moved into place: a process reading it
    # meanwhile sees either file, and processes compiling at once don't share a file.
    with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".partial", delete=False) as mo:
        write_mo(mo, catalog)
    Path(mo.name).replace(target)
    return True


# How many numbers each language's words keep as written (a bound on the memory they take).
KEPT_NUMBERS = 4096


class Words:
    """What one language says in one domain: messages, plural forms, numbers and dates."""

    def __init__(
        self, language: str, translations: gettext.NullTranslations, locale: str | None = None
    ) -> None:
        self.language = language
        self.translations = translations
        # How numbers and dates are written (the pseudo-language writes them as English).
        self.locale = locale or language
        # Numbers as written, kept: Babel takes tens of microseconds a number, and the
        # accounts of moves write the same few counts over and over.
        self._numbers: dict[tuple[type, float], str] = {}

    def gettext(self, message: str, /, **params: Any) -> str:
        text = self.translations.gettext(message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form for ``n`` (given to the text as ``{n}``, in the language's digits)."""
        text = self.translations.ngettext(singular, plural, n)
        return text.format(n=self.number(n), **params)

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        """A message whose translation depends on where it is used (a card's rank
        "Knight" is not the same word as a chess knight)."""
        text = self.translations.pgettext(context, message)
        return text.format(**params) if params else text

    def number(self, value: float) -> str:
        key = (type(value), value)
        said = self._numbers.get(key)
        if said is None:
            said = format_decimal(value, locale=self.locale)
            if len(self._numbers) < KEPT_NUMBERS:
                self._numbers[key] = said
        return said

    def date(self, when: datetime, style: str = "medium") -> str:
        return format_date(when, format=style, locale=self.locale)

    def datetime(self, when: datetime, style: str = "medium") -> str:
        return format_datetime(when, format=style, locale=self.locale)


@cache
def words(language: str, domain: str = "messages") -> Words:
    """The words of ``language`` (one Parlour speaks, or the pseudo-language) in ``domain``."""
    if language == PSEUDO and domain in DOMAINS:
        return Words(PSEUDO, pseudo_translations(domain), locale=DEFAULT)
    if language not in LANGUAGES:
        raise ValueError(f"Parlour does not speak {language!r}")
    if domain not in DOMAINS:
        raise ValueError(f"there is no catalogue domain {domain!r}")
    translations: gettext.NullTranslations = gettext.NullTranslations()
    source = catalogue_path(language, domain)
    if language != DEFAULT or source.exists():
        _compile(source)
        with source.with_suffix(".mo").open("rb") as mo:
            translations = gettext.GNUTranslations(mo)
    return Words(language, translations)
