"""Look-alike names share a key: besides Unicode's confusables, every small capital folds
as the capital letter it copies, and the letters of other scripts drawn as Latin ones fold
as those — wherever Unicode's own table has nothing to say of them."""

from __future__ import annotations

import unicodedata

import pytest

from app.people.confusables import LOOKALIKES, name_key, small_capitals


def test_the_reported_look_alikes_share_the_key_of_the_name_they_copy() -> None:
    for lookalike in ("\u1d00nn2", "\u1d00\u0274\u02742", "An\u19522", "\u1d00\u1db0n2"):
        assert name_key(lookalike) == name_key("Ann2") == "ann2"
    assert name_key("B\u1959n") == name_key("Bun")


@pytest.mark.parametrize("letter", "ABCDEFGHJLNPRTZ")
def test_a_latin_small_capital_folds_as_its_capital(letter: str) -> None:
    small = unicodedata.lookup(f"LATIN LETTER SMALL CAPITAL {letter}")
    assert small_capitals()[small] == letter
    assert name_key(f"x{small}y") == name_key(f"x{letter}y")


def test_the_look_alike_letters_fold_as_the_letters_they_are_drawn_as() -> None:
    for char, letter in LOOKALIKES.items():
        assert name_key(char) == name_key(letter), unicodedata.name(char)
