"""Words kept once worded: numbers as each language writes them, and accounts of moves as
each language tells them — the same every time, apart for each language and kind of number,
and never more of them kept than their bound."""

from __future__ import annotations

import tracemalloc

from app.i18n import accounts
from app.i18n.accounts import KEPT_ACCOUNTS, account_text
from app.i18n.catalogues import KEPT_NUMBERS, Words, words
from games.kit.account import card, ngettext, render, say, seat, sentence


def test_numbers_read_as_the_language_writes_them_every_time() -> None:
    spanish, english = words("es", "games"), words("en", "games")
    for _ in range(2):  # written, then kept
        assert spanish.number(12345) == "12.345"
        assert english.number(12345) == "12,345"
        assert spanish.number(1.5) == "1,5"
        assert spanish.number(1) == "1"
        assert spanish.number(2.25) == "2,25"


def test_an_integer_and_a_float_of_one_value_are_kept_apart() -> None:
    fresh = Words("fr", words("fr", "games").translations)
    assert fresh.number(0.5) == "0,5"
    assert fresh.number(3) == "3"
    assert fresh.number(3.0) == fresh.number(3.0)
    assert (int, 3) in fresh._numbers and (float, 3.0) in fresh._numbers


def test_the_numbers_kept_are_bounded() -> None:
    fresh = Words("es", words("es", "games").translations)
    for n in range(KEPT_NUMBERS + 50):
        fresh.number(n)
    assert len(fresh._numbers) == KEPT_NUMBERS
    assert fresh.number(KEPT_NUMBERS + 10) == f"{KEPT_NUMBERS + 10:,}".replace(",", ".")


def test_an_account_kept_reads_as_worded_in_its_own_language() -> None:
    says = sentence(
        say("{who} played {card}", who=seat(1), card=card("QD", "french")),
        ngettext("{n} card left", "{n} cards left", 3),
    )
    for _ in range(2):  # worded, then kept
        for language in ("en", "es", "fr"):
            assert account_text(says, language) == render(says, words(language, "games"))
    assert account_text(says, "es") != account_text(says, "en")
    assert account_text(says, "en", ["Ann", "Bob"]).startswith("Bob played")


def test_the_accounts_kept_are_bounded() -> None:
    for n in range(KEPT_ACCOUNTS + 5):
        account_text(say("{who} played", who=n), "fr")
    assert 0 < len(accounts._worded) <= KEPT_ACCOUNTS


def test_an_account_kept_holds_about_its_own_size() -> None:
    """What a kept account costs is its key and its words: a thousand accounts of about
    150 bytes each hold well under a kilobyte apiece (orjson's own bytes would keep the
    whole buffer it wrote into, 8 KB each)."""
    accounts._worded.clear()
    padding = "x" * 100
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(1000):
            account_text(say("{who} played {padding}", who=n, padding=padding), "en")
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(accounts._worded) == 1000
    assert held / 1000 < 1024, f"{held / 1000:.0f} bytes held per account kept"
