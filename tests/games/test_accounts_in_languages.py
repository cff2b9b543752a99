"""The games' accounts of moves in Spanish and French (games.kit.account rendered through
the ``games`` catalogue, app/i18n/accounts.py): every message of every account of whole
seeded matches is translated, every placeholder filled, card names agree with their
articles, and counts with their nouns."""

from __future__ import annotations

import re
from typing import Any

import pytest

import games
from app.i18n.accounts import account_text
from app.i18n.catalogues import words
from games import describe
from games.kit.account import card, ngettext, render, say, seat, sentence
from tests.games.randomplay import all_games, random_match, seat_counts

NAMES = ["Ana", "Bruno", "Carla", "Dani", "Eva", "Fede", "Gala", "Hugo"]
# English words an account could leave behind were a message not translated.
ENGLISH = re.compile(r"\b(the|played|took|trick|Seat|and|of|cards?|Hand|Round|wins?|over|deals)\b")


class Checked:
    """A language that fails on any message its catalogue does not hold."""

    def __init__(self, language: str) -> None:
        self.words = words(language, "games")
        # The compiled catalogue's own table: a message is translated when its key is there.
        self.catalogue: dict[Any, str] = self.words.translations._catalog  # type: ignore[attr-defined]

    def _has(self, key: Any) -> None:
        assert key in self.catalogue, f"not translated: {key!r}"

    def gettext(self, message: str, /, **params: Any) -> str:
        self._has(message)
        return self.words.gettext(message, **params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        self._has((singular, 0))
        self._has((singular, 1))
        return self.words.ngettext(singular, plural, n, **params)

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        self._has(f"{context}\x04{message}")
        return self.words.pgettext(context, message, **params)


@pytest.mark.parametrize("language", ["es", "fr"])
@pytest.mark.parametrize("name", all_games())
def test_every_account_of_a_whole_match_is_told_in_the_language(name: str, language: str) -> None:
    rules = games.get(name)
    checked = Checked(language)
    for seats in seat_counts(rules):
        played = random_match(rules, seats, seed=41)
        for step, (seat_no, action) in enumerate(played.log):
            before, after = played.states[step], played.states[step + 1]
            says = describe(rules, before, seat_no, action, after)["says"]
            text = render(says, checked, lambda s: NAMES[s])
            assert text and text[0].isupper() and text.endswith("."), text
            assert "{" not in text and "}" not in text, text
            found = ENGLISH.search(text)
            assert found is None, f"{name} step {step}: English {found.group(0)!r} in {text!r}"


PLACEHOLDER = re.compile(r"\{(\w*)\}")


def test_every_translation_fills_the_placeholders_of_its_message() -> None:
    from babel.messages.pofile import read_po

    from app.i18n.catalogues import catalogue_path

    for language in ("es", "fr"):
        with catalogue_path(language, "games").open("rb") as po:
            catalog = read_po(po)
        for message in catalog:
            if not message.id:
                continue
            assert not message.fuzzy, (language, message.id)
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            wanted = set().union(*(set(PLACEHOLDER.findall(i)) for i in ids))
            for form in forms:
                assert form and set(PLACEHOLDER.findall(form)) == wanted, (language, message.id)


def test_the_catalogues_hold_every_message_of_the_games_in_every_form() -> None:
    from app.i18n.extraction import extract

    template = extract("games")
    for language in ("es", "fr"):
        catalogue = words(language, "games").translations._catalog  # type: ignore[attr-defined]
        for message in template:
            if not message.id:
                continue
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            if message.context:
                key = f"{message.context}\x04{key}"
            if isinstance(message.id, tuple):
                assert catalogue.get((key, 0)) and catalogue.get((key, 1)), (language, key)
            else:
                assert catalogue.get(key), (language, key)


@pytest.mark.parametrize(
    ("code", "pack", "es", "fr"),
    [
        ("QD", "french", "la reina de diamantes", "la dame de carreau"),
        ("AS", "french", "el as de picas", "l'as de pique"),
        ("JK", "french", "el comodín", "le joker"),
        ("AO", "spanish", "el as de oros", "l'as d'Oros"),
        ("JC", "spanish", "la sota de copas", "le valet (Sota) de Copas"),
        ("NS", "spanish", "el caballo de espadas", "le cavalier (Caballo) d'Espadas"),
        ("7B", "spanish", "el 7 de bastos", "le 7 de Bastos"),
        ("QC", "tarot", "la reina de copas", "la reine de Coupes"),
        ("PW", "tarot", "la sota de bastos", "le valet de Bâtons"),
    ],
)
def test_card_names_agree_with_their_articles(code: str, pack: str, es: str, fr: str) -> None:
    told = card(code, pack)
    assert account_text(told, "es") == es
    assert account_text(told, "fr") == fr
    assert account_text(told, "en") == render(told)


def test_a_character_card_keeps_its_title_and_counts_agree_with_their_nouns() -> None:
    told = sentence(
        say("{seat} played {card}", seat=seat(1), card=card("QD", "french", "Anima")),
        say(
            "{seat} took the trick ({points})",
            seat=seat(0),
            points=ngettext("{n} point", "{n} points", 1),
        ),
    )
    assert account_text(told, "en") == (
        "Seat 2 played the queen of diamonds (Anima); Seat 1 took the trick (1 point)."
    )
    assert account_text(told, "es", ["Ana", "Bruno"]) == (
        "Bruno jugó la reina de diamantes (Anima); Ana se llevó la baza (1 punto)."
    )
    assert account_text(told, "fr", ["Ana", "Bruno"]) == (
        "Bruno a joué la dame de carreau (Anima)\u00a0; Ana a remporté le pli (1 point)."
    )
    two = ngettext("{n} point", "{n} points", 2)
    assert [account_text(two, lang) for lang in ("en", "es", "fr")] == [
        "2 points",
        "2 puntos",
        "2 points",
    ]


def test_on_the_wire_seats_stay_tokens_for_the_client_to_name() -> None:
    told = say("{seat} played {card}", seat=seat(2), card=card("5O", "spanish"))
    assert account_text(told, "es") == "Seat 3 jugó el 5 de oros"
    assert account_text(told, "fr", ["Ana"]) == "Seat 3 a joué le 5 d'Oros"
