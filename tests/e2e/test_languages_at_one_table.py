"""One table, three languages: Ana plays Cupid in Spanish and Bernard in French, each reading
the table, its buttons, its live log and the result in their own language, while a watcher
reads it in the pseudo-language — where any text the browser shows that escaped the
catalogues would stand out as plain English (app/i18n/pseudo.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.flows import api_json, create_room, play_to_end, wait_table

pytestmark = pytest.mark.e2e

# What a page shows as it is in every language: the site's, the games' and the languages'
# names, the people's, and Cupid's character cards' own names.
NAMES = {
    "Parlour", "Cupid", "Coins", "Cups", "Royal", "Wife-Swap", "Usurp",
    "English", "Español", "Français", "Ana", "Bernard", "Anima", "Monster", "Zephyr",
}  # fmt: skip
# An English word: two ASCII letters or more standing alone (not a code like ABC234, not an
# initial). The pseudo-language writes every letter of a message accented, so no word of a
# message from the catalogues is one.
GUEST = re.compile(r"\bGuest \d+")
WORD = re.compile(r"(?<!\w)[A-Za-z]{2,}(?:[-'][A-Za-z]+)*(?!\w)")
# Every text the page shows: visible text nodes and the words it gives assistive
# technology (aria-label, title, placeholder, alt).
SHOWN = """() => {
  const shown = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, template")) continue;
    if (parent.getClientRects().length === 0) continue; // not shown
    if (node.textContent.trim()) shown.push(node.textContent.trim());
  }
  for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value && value.trim()) shown.push(value.trim());
    }
  }
  return shown;
}"""


@pytest.fixture
def server(live_server_factory: Callable[..., object]) -> object:
    return live_server_factory(BOT_DELAY="0.02", PSEUDO_LANGUAGE="on")


def english_left(page: Page, code: str) -> list[str]:
    """What the page shows in plain English; ``code``, the table's short code (random
    letters, at times with no digit), is no word."""
    left = []
    for text in page.evaluate(SHOWN):
        # A guest's name is "Guest" and a number, whatever the language of the page.
        words = [w for w in WORD.findall(GUEST.sub(" ", text)) if w not in {*NAMES, code}]
        if words:
            left.append(text)
    return left


def test_a_match_between_a_spanish_and_a_french_player_watched_in_the_pseudo_language(
    pages: Any,
) -> None:
    ana = pages.open("ana")
    ana.goto("/?lang=es")
    room_id = create_room(ana, game="cupid", name="Ana", options={"target": 10})
    expect(ana.locator("html")).to_have_attribute("lang", "es")

    bernard = pages.open("bernard", width=390, height=844)
    bernard.goto("/?lang=fr")
    bernard.goto(f"/rooms/{room_id}")
    expect(bernard.locator("html")).to_have_attribute("lang", "fr")
    bernard.locator("#sit-name").fill("Bernard")
    bernard.locator('[data-action="sit"][data-seat="1"]').click()

    watcher = pages.open("watcher")
    watcher.goto(f"/rooms/{room_id}/watch?lang=qps")
    expect(watcher.locator("#lobby")).to_be_visible()
    code = api_json(watcher, f"/api/rooms/{room_id}")["code"]
    assert english_left(watcher, code) == [], "the lobby"

    expect(ana.locator('.seat[data-seat="1"]')).to_contain_text("Bernard")
    ana.locator("#start-btn").click()
    for page in (ana, bernard, watcher):
        wait_table(page)
    play_to_end([ana, bernard])
    for page in (ana, bernard, watcher):
        expect(page.locator(".table .result")).to_be_visible()
    assert english_left(watcher, code) == [], "the finished table"
    # Each player reads the end of the match, and what to do next, in their own language.
    spanish, french = (p.locator(".table .result") for p in (ana, bernard))
    expect(spanish).to_contain_text("puntos")
    expect(spanish).to_contain_text("Proponer una revancha")
    expect(spanish).to_contain_text("Revisar la partida")
    expect(french).to_contain_text("points")
    expect(french).to_contain_text("Proposer une revanche")
    expect(french).to_contain_text("Revoir la partie")
