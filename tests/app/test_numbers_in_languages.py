"""Numbers as each language writes them, kept once written: the same number in the same
language reads the same every time, whatever kind of number it is, and the words keep no
more numbers than their bound."""

from __future__ import annotations

from app.i18n.catalogues import KEPT_NUMBERS, Words, words


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
