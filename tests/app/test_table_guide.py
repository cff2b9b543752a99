"""The table's word of help for a newcomer: every action a game can offer has its name and a
sentence from the game's rules (docs/rules/<game>.md, "The actions at the table"), and the
room page hands them to the table with the game's first-match walkthrough."""

from __future__ import annotations

import json

import pytest

import games
from app.routes.guide import action_help, table_guide
from tests.app.helpers import NewClient
from tests.app.test_page_data import boot_block
from tests.games.randomplay import all_games, random_match, seat_counts


def offered_types(game: str) -> set[str]:
    """Every action type the game offered anyone in a few seeded random matches."""
    rules = games.get(game)
    found: set[str] = set()
    for seats in seat_counts(rules)[:2]:
        for seed in range(3):
            played = random_match(rules, seats, seed, games.game(game).short_match)
            for state in played.states:
                for seat in rules.to_act(state):
                    found |= {action["type"] for action in rules.legal_actions(state, seat)}
    return found


@pytest.mark.parametrize("game", all_games())
def test_every_action_a_game_offers_has_help_from_its_rules(game: str) -> None:
    helps = action_help(game)
    missing = offered_types(game) - set(helps)
    assert not missing, f"{game}: no help for {missing}"
    for kind, help_ in helps.items():
        assert help_["name"] and help_["text"].endswith("."), (kind, help_)
        assert "*" not in help_["text"] and "`" not in help_["text"], help_


def test_usurp_says_what_uprise_and_sluff_off_mean() -> None:
    helps = action_help("usurp")
    assert helps["uprise"]["name"] == "Uprise"
    assert "face down" in helps["uprise"]["text"]
    assert helps["sluff"]["name"] == "Sluff Off"
    assert "free play" in helps["sluff"]["text"]


@pytest.mark.parametrize("game", all_games())
def test_each_game_has_a_walkthrough_opening_with_its_lobby_sentence(game: str) -> None:
    steps = table_guide(game)["walkthrough"]
    presentation = games.game(game).presentation
    assert steps[0] == {"title": games.get(game).title, "text": presentation.blurb}
    assert len(steps) >= 4
    assert all(step["title"] and step["text"] for step in steps)


def test_the_room_page_hands_the_table_its_guide(new_client: NewClient) -> None:
    ann = new_client("Ann")
    room = ann.post("/api/rooms", json={"game": "usurp"}).json()
    for path in (f"/rooms/{room['id']}", f"/rooms/{room['id']}/watch"):
        boot = json.loads(boot_block(ann.get(path).text))
        assert boot["guide"] == table_guide("usurp"), path
