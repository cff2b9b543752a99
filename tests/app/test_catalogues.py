"""Every catalogue is complete: each message the sources hold now (extracted afresh, per
domain) is in each language's catalogue, translated (every plural form), not fuzzy, and with
the same {placeholders} as its English id."""

from __future__ import annotations

from string import Formatter

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from app.i18n.extraction import extract
from app.i18n.languages import DEFAULT, LANGUAGES
from app.i18n.paths import DOMAINS, catalogue_path

TRANSLATED = [language for language in LANGUAGES if language != DEFAULT]


def placeholders(text: str) -> set[str]:
    """The names of ``text``'s {placeholders} (``{n}``, ``{kind!r}``, ``{rate:g}``: n, kind,
    rate)."""
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


def key(message_id: str | tuple[str, ...] | list[str], context: str | None) -> tuple[str, str]:
    singular = message_id[0] if isinstance(message_id, tuple | list) else message_id
    return (context or "", singular)


@pytest.fixture(scope="module", params=DOMAINS)
def domain(request: pytest.FixtureRequest) -> tuple[str, Catalog]:
    return request.param, extract(request.param)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(
    domain: tuple[str, Catalog], language: str
) -> None:
    name, template = domain
    with catalogue_path(language, name).open("rb") as po:
        catalogue = read_po(po, locale=language, domain=name)
    translated = {key(message.id, message.context): message for message in catalogue if message.id}
    problems = []
    for message in template:
        if not message.id:
            continue
        found = translated.get(key(message.id, message.context))
        if found is None:
            problems.append(f"missing: {message.id!r}")
            continue
        if found.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        ids = list(message.id) if isinstance(message.id, tuple | list) else [message.id]
        strings = list(found.string) if isinstance(found.string, tuple | list) else [found.string]
        if not strings or not all(strings):
            problems.append(f"untranslated: {message.id!r}")
            continue
        wanted = set().union(*(placeholders(text) for text in ids))
        for string in strings:
            # A plural form may leave out {n} (French "une" for 1), never add or misname one.
            if placeholders(string) - wanted or (
                not isinstance(message.id, tuple | list) and placeholders(string) != wanted
            ):
                problems.append(f"placeholders differ: {message.id!r} -> {string!r}")
    assert not problems, f"{name}.po ({language}): " + "; ".join(problems)
