"""Option declarations (games.kit.options): the schema, the defaults and the checks of new_game
all follow from one declaration per option, and the refusals read as they always have."""

from __future__ import annotations

from typing import Any

import pytest

import games
from games.kit.base import IllegalAction
from games.kit.options import Choice, Flag, IntRange, defaults, for_rematch, schema, settle

DECLARED = (
    IntRange("target", "Points to win", 100, 10, 500),
    Choice("pace", "Pace", "slow", ("slow", "fast")),
    Flag("jokers", "Jokers", False),
)


def test_the_schema_and_defaults_come_from_the_declarations() -> None:
    assert defaults(DECLARED) == {"target": 100, "pace": "slow", "jokers": False}
    target, pace, jokers = schema(DECLARED)
    assert target == {
        "name": "target",
        "label": "Points to win",
        "type": "int",
        "default": 100,
        "min": 10,
        "max": 500,
    }
    assert pace == {
        "name": "pace",
        "label": "Pace",
        "type": "choice",
        "default": "slow",
        "choices": ["slow", "fast"],
    }
    assert jokers == {"name": "jokers", "label": "Jokers", "type": "bool", "default": False}


def test_settle_fills_defaults_and_passes_the_dealer_through() -> None:
    assert settle(DECLARED, None) == defaults(DECLARED)
    settled = settle(DECLARED, {"target": 10, "jokers": True, "dealer": 1})
    assert settled == {"target": 10, "pace": "slow", "jokers": True, "dealer": 1}


def test_a_rematch_keeps_the_options_but_the_first_dealer() -> None:
    settled = settle(DECLARED, {"target": 10, "dealer": 1})
    assert for_rematch(settled) == {"target": 10, "pace": "slow", "jokers": False}
    assert for_rematch({"target": 10}) == {"target": 10}


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"target": 501}, "Option 'target' must be a whole number from 10 to 500, not 501."),
        ({"target": 15.0}, "Option 'target' must be a whole number from 10 to 500, not 15.0."),
        ({"target": True}, "Option 'target' must be a whole number from 10 to 500, not True."),
        ({"pace": "odd"}, "Option 'pace' must be one of 'slow', 'fast', not 'odd'."),
        ({"jokers": 1}, "Option 'jokers' must be a bool, not 1."),
        ({"speed": 1}, "Unknown option 'speed'; this game knows: dealer, jokers, pace, target."),
        ([1], "Options must be a JSON object."),
    ],
)
def test_settle_refuses_with_a_sentence(given: Any, message: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        settle(DECLARED, given)
    assert str(refused.value) == message


# What each game has always said (these sentences reach players through the server).
GAME_REFUSALS = [
    ("cupid", {"target": 9}, "Option 'target' must be a whole number from 10 to 500, not 9."),
    ("cupid", {"x": 1}, "Unknown option 'x'; this game knows: dealer, target."),
    ("coins", {"target": 15.0}, "Option 'target' must be one of 10, 15, 20, not 15.0."),
    ("cups", {"cups_aside": 1}, "Option 'cups_aside' must be a bool, not 1."),
    (
        "cups",
        {"shortfall": "x"},
        "Option 'shortfall' must be one of 'forgiven', 'democratic_league', 'magellan', not 'x'.",
    ),
    ("cups", {"dealer": 9}, "Option 'dealer' must be a seat from 0 to 1."),
    ("usurp", {"reveal_pile": 1}, "Option 'reveal_pile' must be one of False, True, not 1."),
    (
        "usurp",
        {"game_points": 9},
        "Option 'game_points' must be a whole number from 1 to 8, not 9.",
    ),
    ("wifeswap", {"rounds": 51}, "Option 'rounds' must be a whole number from 0 to 50, not 51."),
]


@pytest.mark.parametrize(("name", "given", "message"), GAME_REFUSALS)
def test_each_games_refusals_are_worded_as_before(
    name: str, given: dict[str, Any], message: str
) -> None:
    rules = games.get(name)
    with pytest.raises(IllegalAction) as refused:
        rules.new_game(rules.min_seats, 1, given)
    assert str(refused.value) == message


def test_options_are_worded_for_players_with_labels_and_values() -> None:
    wording = {
        name: games.get(name).options_text({**games.get(name).default_options(), "dealer": 0})
        for name in games.REGISTRY
    }
    assert wording["cups"] == [
        "Played Cups go to a side pile: no",
        "Empty-handed players sit out (children's game): no",
        "Drawing from a short stack: forgiven",
        "Graveyard cards count: single",
    ]
    assert wording["wifeswap"] == ["Play to this many points: 500", "Rounds: no fixed number"]
    assert games.get("wifeswap").options_text({"rounds": 3}) == ["Rounds: 3"]
    assert games.get("cups").options_text({"shortfall": "democratic_league"}) == [
        "Drawing from a short stack: democratic league"
    ]
    assert all("_" not in line for lines in wording.values() for line in lines)
