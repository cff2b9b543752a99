"""The scripts' words are all in the client catalogue, and translated.

Every sentence the browser's scripts (static/js) show goes through ``t``, ``tn`` or ``tc``
of static/js/lib/i18n.js with a string literal first, so that Babel's extractor finds it
(``python -m app.i18n update``); the Spanish and French catalogues translate every one of
them. A scan for text put on the page as a bare English literal catches a sentence that
escaped the catalogue.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app.i18n.catalogues import catalogue_path
from app.i18n.extraction import extract

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "static" / "js"
I18N = SCRIPTS / "lib" / "i18n.js"

STRING = r'"(?:[^"\\\n]|\\.)*"'
# A call of t, tn or tc (not a method, not their own definitions in i18n.js).
CALL = re.compile(r"(?<![\w.$])(t|tn|tc)\(\s*")
LITERAL_CALL = re.compile(rf"(?<![\w.$])(t|tn|tc)\(\s*({STRING})(?:\s*,\s*({STRING}))?", re.S)
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# Text put on the page or read out: an assignment, an attribute, an h() child.
SHOWN = [
    re.compile(rf"\.textContent\s*=\s*({STRING})"),
    re.compile(rf"""["']?(?:aria-label|title|placeholder|label|alt)["']?\s*:\s*({STRING})"""),
    re.compile(rf'setAttribute\(\s*"(?:aria-label|title|placeholder|alt)",\s*({STRING})'),
    re.compile(rf"(?<![\w.])announce\(\s*({STRING})"),
    re.compile(rf"(?<![\w.])showError\(\s*[^,()]+(?:\([^()]*\))?\s*,\s*({STRING})"),
    re.compile(rf"\.showError\(\s*({STRING})"),
    # h("tag", {...}, "Text") on one line.
    re.compile(rf"\bh\(\s*{STRING}\s*,\s*\{{[^{{}}]*\}}\s*,\s*({STRING})"),
]
# A literal alone on its line: an h() child, an item of a list, unless it opens a call (a
# tag, a message) or is the plural beside its singular.
ALONE = re.compile(rf"^[ \t]*({STRING}),?[ \t]*$", re.M)
# Literals that may stand there: what is not a word (marks, symbols, class names, keys).
ALLOWED = {
    "Parlour",  # the site's name, the same in every language
    "Well played",  # the reaction as the server knows it; shown through reactionText()
}
# Words a person reads: a capitalised word or words with a space between them (class names,
# keys, event names and HTTP methods have neither).
WORDS = re.compile(r"^[A-Z][a-z]|[A-Za-z]{2,}\W* \W*[A-Za-z]")
COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def code_of(path: Path) -> str:
    """The script without its comments (each kept as blank space, so lines still count)."""
    return COMMENTS.sub(lambda c: re.sub(r"[^\n]", " ", c.group()), path.read_text("utf-8"))


def shown_literals(text: str) -> list[re.Match[str]]:
    found = [match for pattern in SHOWN for match in pattern.finditer(text)]
    for match in ALONE.finditer(text):
        before = text[: match.start()].rstrip()
        if before.endswith("(") or ALONE.search(before.rsplit("\n", 1)[-1]):
            continue
        found.append(match)
    return found


def scripts() -> list[Path]:
    return sorted(path for path in SCRIPTS.rglob("*.js") if path != I18N)


def line_of(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def extracted() -> set[tuple[str | None, str]]:
    ids = set()
    for message in extract("client"):
        if not message.id:
            continue
        singular = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
        ids.add((message.context, singular))
    return ids


def test_every_message_call_starts_with_a_string_literal() -> None:
    bad = []
    for path in scripts():
        text = path.read_text(encoding="utf-8")
        for call in CALL.finditer(text):
            if not text.startswith('"', call.end()):
                bad.append(f"{path.relative_to(ROOT)}:{line_of(text, call.start())}")
    assert not bad, f"t()/tn()/tc() without a string literal first: {bad}"


def test_every_message_call_is_found_by_the_extractor() -> None:
    """Babel reads neither template literals' ${...} nor calls nested in a call's arguments:
    a message written there would never be translated."""
    ids = extracted()
    missed = []
    for path in scripts():
        text = path.read_text(encoding="utf-8")
        for call in LITERAL_CALL.finditer(text):
            keyword, first, second = call.groups()
            key = (
                (json.loads(first), json.loads(second))
                if keyword == "tc"
                else (None, json.loads(first))
            )
            if key not in ids:
                missed.append(f"{path.relative_to(ROOT)}:{line_of(text, call.start())} {key}")
    assert not missed, f"messages the extractor does not see: {missed}"


def test_no_english_is_shown_outside_the_catalogue() -> None:
    found = []
    for path in scripts():
        text = code_of(path)
        for match in shown_literals(text):
            words = json.loads(match.group(1))
            if WORDS.search(words) and words not in ALLOWED:
                found.append(f"{path.relative_to(ROOT)}:{line_of(text, match.start())} {words!r}")
    assert not found, f"English shown without t(): {found}"


@pytest.mark.parametrize("language", ["es", "fr"])
def test_the_client_catalogue_is_complete(language: str) -> None:
    with catalogue_path(language, "client").open("rb") as po:
        catalog = read_po(po, locale=language, domain="client")
    messages = {
        (m.context, m.id[0] if isinstance(m.id, (tuple, list)) else m.id): m
        for m in catalog
        if m.id
    }
    missing = extracted() - set(messages)
    assert not missing, (
        f"not in the {language} catalogue (run python -m app.i18n update): {missing}"
    )
    problems = []
    for key, message in messages.items():
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        wanted = set().union(*(PLACEHOLDER.findall(i) for i in ids))
        if message.fuzzy:
            problems.append(f"fuzzy: {key}")
        if isinstance(message.id, (tuple, list)) and len(strings) != catalog.num_plurals:
            problems.append(f"plural forms: {key}")
        for string in strings:
            if not string:
                problems.append(f"untranslated: {key}")
            # {n} may be left out of a form that says the number in words.
            elif PLACEHOLDER.findall(string) and set(PLACEHOLDER.findall(string)) - wanted:
                problems.append(f"unknown placeholder: {key} {string!r}")
            elif wanted - {"n"} - set(PLACEHOLDER.findall(string)):
                problems.append(f"lost placeholder: {key} {string!r}")
    assert not problems, problems
