"""No English is built outside the catalogues: every page the server renders, read in the
pseudo-language (app/i18n/pseudo.py, every message accented and bracketed), shows no plain
English word but the names of people, games and languages. (The browser's own text is
checked the same way by tests/e2e/test_languages_at_one_table.py.)"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from tests.app.helpers import account, make_app, running, started_room

# Words a page shows as they are in every language: the site's, the games' and the
# languages' own names (the picker), and what people chose to be called.
NAMES = {
    "Parlour", "Cupid", "Coins", "Cups", "Royal", "Wife-Swap", "Usurp",
    "English", "Español", "Français", "Ann", "Bob", "AnnAccount", "nobody-here",
}  # fmt: skip
# An example of an address or a link (a field's placeholder) is no sentence.
ADDRESS = re.compile(r"^\S+@\S+$|://")
SHOWN_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder", "aria-description"}
# An English word: two ASCII letters or more standing alone (not a code like ABC234, not an
# initial). The pseudo-language writes every letter of a message accented, so no word of a
# message from the catalogues is one.
WORD = re.compile(r"(?<!\w)[A-Za-z]{2,}(?:[-'][A-Za-z]+)*(?!\w)")


class ShownText(HTMLParser):
    """The text a page shows: its text outside scripts and styles, the shown attributes,
    the title and the meta description; the rules' own text (translated by whole files,
    docs/rules/<language>/) left out."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[str] = []
        self._hidden: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        # Code (a header's name, a URL) is the same in every language.
        hides = tag in ("script", "style", "code") or "rules-text" in (found.get("class") or "")
        if hides or (self._hidden and tag == self._hidden[-1]):
            self._hidden.append(tag)  # nested in a hidden element of the same tag
        if tag == "meta":
            if found.get("name") == "description" and found.get("content"):
                self.shown.append(str(found["content"]))
            return
        self.shown.extend(
            v for n, v in attrs if v and n in SHOWN_ATTRIBUTES and not ADDRESS.search(v)
        )

    def handle_endtag(self, tag: str) -> None:
        if self._hidden and tag == self._hidden[-1]:
            self._hidden.pop()

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.shown.append(data.strip())


def english_left(html: str, code: str) -> list[str]:
    """What the page shows in plain English; ``code``, a table's short code (random letters,
    at times with no digit), is no word."""
    parser = ShownText()
    parser.feed(html)
    left = []
    for text in parser.shown:
        words = [w for w in WORD.findall(text) if w not in {*NAMES, code}]
        if words:
            left.append(text)
    return left


def test_every_page_is_built_from_the_catalogues(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path, pseudo_language=True)
    with running(app) as new_client:
        ann = account(new_client, "AnnAccount")
        bob = new_client("Bob")
        room = started_room(ann, [bob])
        paths = [
            "/", "/tables", "/friends", "/history", "/leaderboard", "/notifications",
            "/players/AnnAccount", f"/rooms/{room['id']}", f"/rooms/{room['id']}/watch",
            "/rules/cupid", "/rules/coins", "/rules/cups", "/rules/wifeswap", "/rules/usurp",
            "/players/nobody-here", "/matches/none", "/rooms/none",
        ]  # fmt: skip
        for path in paths:
            response = ann.get(path, params={"lang": "qps"})
            assert 'lang="qps"' in response.text, path
            assert english_left(response.text, room["code"]) == [], path
