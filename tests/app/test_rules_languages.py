"""The rules pages and the table's rules drawer in the reader's language: the rules written in
it (docs/rules/<language>/<game>.md) where they are, else the English ones; and every
translation keeps the English rules' sections and the links between them."""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest

import games
from app.routes.guide import action_help
from app.routes.pages import _rules_summary
from app.rules_texts import RULES_DIR
from tests.app.helpers import NewClient

SPANISH = RULES_DIR / "es"
# Each language's rules, and the name of their first section (the table's summary).
TRANSLATED = {"es": "## En resumen", "fr": "## En bref"}


def sections(path: Path) -> list[str]:
    return [
        line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("## ")
    ]


def test_the_rules_page_is_in_spanish_for_a_spanish_reader(new_client: NewClient) -> None:
    browser = new_client(None)
    spanish = browser.get("/rules/coins?lang=es")
    assert spanish.status_code == 200
    assert '<html lang="es">' in spanish.text
    assert '<h2 id="en-resumen">En resumen</h2>' in spanish.text
    assert "Copas gana a Oros" in spanish.text
    assert "In short" not in spanish.text


def test_the_rules_page_is_in_french_for_a_french_reader(new_client: NewClient) -> None:
    french = new_client(None).get("/rules/coins", headers={"Accept-Language": "fr-FR,fr"})
    assert '<html lang="fr">' in french.text
    assert '<h2 id="en-bref">En bref</h2>' in french.text
    assert "In short" not in french.text


def test_the_rules_page_stays_in_english_for_an_english_reader(new_client: NewClient) -> None:
    english = new_client(None).get("/rules/coins")
    assert '<html lang="en">' in english.text
    assert '<h2 id="in-short">In short</h2>' in english.text
    assert "En resumen" not in english.text


def test_a_language_the_rules_are_not_written_in_falls_back_to_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game without a translation in a language still has its rules, in English."""
    for name in ("coins.md", "cupid.md"):
        (tmp_path / name).write_text((RULES_DIR / name).read_text(encoding="utf-8"))
    (tmp_path / "es").mkdir()
    (tmp_path / "es" / "coins.md").write_text((SPANISH / "coins.md").read_text(encoding="utf-8"))
    monkeypatch.setattr("app.rules_texts.RULES_DIR", tmp_path)
    assert "Tres jugadores" in _rules_summary("coins", "es")
    assert "Two players" in _rules_summary("cupid", "es")
    assert "Three players" in _rules_summary("coins", "en")
    assert "Three players" in _rules_summary("coins", "fr")


def test_the_table_s_rules_drawer_is_in_the_reader_s_language(new_client: NewClient) -> None:
    ann = new_client("Ann")
    room = ann.post("/api/rooms", json={"game": "coins"}).json()
    spanish = ann.get(f"/rooms/{room['id']}?lang=es").text
    assert "Tres jugadores, la baraja española de 48 cartas" in spanish
    assert "Las acciones en la mesa" not in spanish  # the first section alone
    english = ann.get(f"/rooms/{room['id']}?lang=en").text
    assert "Three players, the Spanish 48-card deck" in english
    assert "The actions at the table" not in english


@pytest.mark.parametrize("language", sorted(TRANSLATED))
@pytest.mark.parametrize("game", sorted(games.REGISTRY))
def test_every_game_s_translated_rules_keep_the_english_sections(game: str, language: str) -> None:
    english, translated = RULES_DIR / f"{game}.md", RULES_DIR / language / f"{game}.md"
    assert translated.is_file(), f"{game} has no rules in {language}"
    assert len(sections(translated)) == len(sections(english))
    assert sections(english)[0] == "## In short"
    assert sections(translated)[0] == TRANSLATED[language]
    # What is code (card codes, option keys, action types) is never translated.
    code = re.compile(r"`[^`]+`")
    assert sorted(code.findall(translated.read_text(encoding="utf-8"))) == sorted(
        code.findall(english.read_text(encoding="utf-8"))
    )


@pytest.mark.parametrize("language", sorted(TRANSLATED))
@pytest.mark.parametrize("game", sorted(games.REGISTRY))
def test_every_link_within_the_translated_rules_finds_its_section(game: str, language: str) -> None:
    html = markdown.markdown(
        (RULES_DIR / language / f"{game}.md").read_text(encoding="utf-8"),
        extensions=["tables", "sane_lists", "toc"],
    )
    anchors = set(re.findall(r'id="([^"]+)"', html))
    links = set(re.findall(r'href="#([^"]+)"', html))
    assert links and links <= anchors


@pytest.mark.parametrize("language", sorted(TRANSLATED))
@pytest.mark.parametrize("game", sorted(games.REGISTRY))
def test_the_help_on_each_action_is_in_the_reader_s_language(game: str, language: str) -> None:
    """Every action the English rules explain is explained in the translation too, under
    its translated name."""
    english, translated = action_help(game), action_help(game, language)
    assert english and set(translated) == set(english)
    assert [h["name"] for h in translated.values()] != [h["name"] for h in english.values()]
