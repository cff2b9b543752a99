"""The views' messages (what is awaited now), the reasons a move is refused and a table's
options, in Spanish and French: every view of whole seeded matches of every game, for
every seat and a spectator, every refusal of the moves a player might try along them and
every combination of options is told through the ``games`` catalogue with every message
translated, every placeholder filled and no English left; its English rendering is the
view's own ``message``, the refusal's own sentence, the game's ``options_text``."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import games
from app.i18n.accounts import view_in
from games import IllegalAction
from games.kit.account import render
from tests.games.randomplay import all_games, option_combinations, random_match, seat_counts
from tests.games.test_accounts_in_languages import NAMES, Checked

# English words a view's message could leave behind were a message not translated.
ENGLISH = re.compile(
    r"\b(the|You|Your|you|your|play|plays|lead|leads|trick|turn|Seat|and|of|to|Hand|Round"
    r"|wins?|over|deals?|must|share|Downcard|Order|Regal|Common|free|won|took|reached)\b"
)


def _viewers(seats: int) -> list[int | None]:
    return [*range(seats), None]


@pytest.mark.parametrize("language", ["es", "fr"])
@pytest.mark.parametrize("name", all_games())
def test_every_view_message_of_a_whole_match_is_told_in_the_language(
    name: str, language: str
) -> None:
    rules = games.get(name)
    checked = Checked(language)
    seen = 0
    for seats in seat_counts(rules):
        played = random_match(rules, seats, seed=43)
        for step, state in enumerate(played.states):
            for viewer in _viewers(seats):
                view = rules.view(state, viewer)
                says = view["message_says"]
                assert render(says) == view["message"], (name, step, viewer)
                text = render(says, checked, lambda s: NAMES[s])
                assert text and text[0].isupper() and text.endswith("."), text
                assert "{" not in text and "}" not in text, text
                found = ENGLISH.search(text)
                assert found is None, f"{name} step {step}: English {found.group(0)!r} in {text!r}"
                seen += 1
    assert seen


def test_a_view_goes_out_with_its_message_in_the_readers_language() -> None:
    rules = games.get("cupid")
    state = rules.new_game(2, 5, None, None)
    seat = rules.to_act(state)[0]
    view = rules.view(state, seat)
    assert view["message"].startswith("Round 1: ")
    spanish, french = view_in(view, "es"), view_in(view, "fr")
    assert "message_says" not in spanish and "message_says" not in french
    assert spanish["message"].startswith("Ronda 1: ")
    assert french["message"].startswith("Manche 1 : ")
    # Everything else is the view itself; English is the view's own message.
    assert {**spanish, "message": view["message"]} == {
        k: v for k, v in view.items() if k != "message_says"
    }
    assert view_in(view, "en")["message"] == view["message"]


def test_a_tie_of_three_is_listed_as_each_language_lists() -> None:
    from games.kit.account import N_, say, seats

    told = say(N_("The match is over: {seats} share the win."), seats=seats([0, 2, 3]))
    assert render(told) == "The match is over: Seat 1, Seat 3 and Seat 4 share the win."
    spanish = render(told, Checked("es"))
    assert "Seat 1, Seat 3 y Seat 4 comparten" in spanish
    french = render(told, Checked("fr"))
    assert "Seat 1, Seat 3 et Seat 4 se partagent" in french


KINDS = (
    "play",
    "draw",
    "gift",
    "graveyard",
    "order",
    "score",
    "usurp",
    "sluff",
    "uprise",
    "free_play",
    "give_in",
    "challenge",
    "pass",
)


def _attempts(rules: Any, state: Any, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    """Actions a player might try at ``state``, most of them refused: each kind of move
    with a card of their hand and one they do not hold, and for Royal Wife-Swap families
    made of cards picked at random."""
    hand = list(rules.view(state, seat)["hand"])
    deck = list(rules.deck(len(rules.scores(state)), rules.default_options()))
    cards = [*rng.sample(hand, min(2, len(hand))), rng.choice(deck)]
    tried: list[dict[str, Any]] = []
    for kind in KINDS:
        tried.append({"type": kind})
        tried += [{"type": kind, "card": card} for card in cards]
    tried.append({"type": "draw", "source": "stock"})
    tried.append({"type": "usurp", "card": cards[0], "order": "regal"})
    if rules.name == "wifeswap":
        pool = [*hand, *(c for _, c in state.trick)]
        for _ in range(6):
            family = rng.sample(pool, min(len(pool), rng.randint(1, 4)))
            orphans = rng.sample(pool, 1) if pool and rng.random() < 0.3 else []
            tried.append({"type": "arrange", "families": [family], "orphans": orphans})
    return tried


@pytest.mark.parametrize("language", ["es", "fr"])
@pytest.mark.parametrize("name", all_games())
def test_every_reason_a_move_is_refused_is_told_in_the_language(name: str, language: str) -> None:
    rules = games.get(name)
    checked = Checked(language)
    rng = random.Random(47)
    told = 0
    for seats in seat_counts(rules):
        played = random_match(rules, seats, seed=47)
        for state in played.states[::3]:
            for seat in range(seats):
                for action in _attempts(rules, state, seat, rng):
                    try:
                        rules.apply(state, seat, action)
                    except IllegalAction as refused:
                        if refused.says is None:
                            continue  # a program's mistake, said in English as the protocol is
                        assert render(refused.says) == str(refused)
                        text = render(refused.says, checked, lambda s: NAMES[s])
                        assert "{" not in text and "}" not in text, text
                        found = ENGLISH.search(text)
                        assert found is None, f"{name}: English {found.group(0)!r} in {text!r}"
                        told += 1
    assert told


OPTION_ENGLISH = re.compile(r"\b(yes|to win|Graveyard|Played|Reveal|Point table|Rounds)\b")


@pytest.mark.parametrize("language", ["es", "fr"])
@pytest.mark.parametrize("name", all_games())
def test_a_tables_options_are_told_in_the_language(name: str, language: str) -> None:
    rules = games.get(name)
    checked = Checked(language)
    for combo in option_combinations(rules):
        options = {**rules.default_options(), **combo}
        lines = rules.options_says(options)
        assert [render(line) for line in lines] == rules.options_text(options)
        for line in lines:
            text = render(line, checked)
            assert "{" not in text and "}" not in text, text
            assert not OPTION_ENGLISH.search(text), text


def test_a_tables_options_are_worded_as_each_language_words_them() -> None:
    cups = games.get("cups")
    says = cups.options_says({**cups.default_options(), "sit_out": True})
    assert [render(line, Checked("fr")) for line in says] == [
        "Les Coupes jouées vont sur une pile à part : non",
        "Les joueurs sans cartes sortent du jeu (jeu pour enfants) : oui",
        "Piocher dans une pioche insuffisante : pardonné",
        "Les cartes du cimetière comptent : simple",
    ]
