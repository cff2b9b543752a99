"""The engines' quick legality paths agree with ``legal_actions``.

``apply`` accepts the common actions through a game's ``plainly_legal`` without listing
every legal action (games.kit.base.require_legal), and Royal Wife-Swap takes a listed layout's
outcome without validating it again. Both are only shortcuts: whatever they accept,
``legal_actions`` lists, and a listed layout settles exactly as the full validation says.
"""

from __future__ import annotations

from typing import Any

import pytest

import games
from games.coins import rules as coins
from games.cupid import rules as cupid
from games.cups import rules as cups
from games.kit.base import Action
from games.wifeswap import rules as wifeswap
from tests.games.randomplay import option_combinations, random_match, seat_counts

QUICK = {
    "coins": coins._plainly_legal,
    "cupid": cupid._plainly_legal,
    "cups": cups._plainly_legal,
    "wifeswap": wifeswap._plainly_legal,
}


def _candidates(rules: Any, state: Any, deck: list[str]) -> list[tuple[int, object]]:
    """Every seat with every action anyone may take now, every card played, and odd shapes."""
    seats = len(rules.scores(state))
    acts: list[object] = []
    for seat in range(seats):
        acts.extend(rules.legal_actions(state, seat))
    for card in deck:
        acts.append({"type": "play", "card": card})
        acts.append({"type": "play", "card": card, "extra": 1})
    acts += [{"type": "play", "card": None}, {"type": "play"}, ["play"], {"card": deck[0]}]
    return [(seat, act) for seat in range(-1, seats + 1) for act in acts]


@pytest.mark.parametrize("name", sorted(QUICK))
def test_plainly_legal_accepts_only_listed_actions(name: str) -> None:
    rules = games.get(name)
    quick = QUICK[name]
    accepted = 0
    for i, (seats, options) in enumerate(
        (s, o) for s in seat_counts(rules) for o in option_combinations(rules)[::9]
    ):
        played = random_match(rules, seats, seed=7000 + i, options=options)
        deck = rules.deck(seats, options)
        for state in played.states[::3]:
            for seat, act in _candidates(rules, state, deck):
                if quick(state, seat, act):
                    accepted += 1
                    assert act in rules.legal_actions(state, seat), (seat, act)
    assert accepted > 0


def test_a_listed_layout_settles_as_the_full_validation_says() -> None:
    rules = games.get("wifeswap")
    checked = 0
    for seed in range(6):
        played = random_match(rules, 3 + seed % 3, seed=7100 + seed)
        for state in played.states:
            if state.arranger < 0 or state.over:
                continue
            for action in rules.legal_actions(state, state.arranger):
                if action["type"] != "arrange":
                    continue
                act: Action = dict(action)
                listed = wifeswap._listed_outcome(state, act)
                assert listed == wifeswap.resolve_arrangement(state, act)
                checked += 1
            moved = {"type": "arrange", "families": [], "orphans": ["AS"]}
            assert wifeswap._listed_outcome(state, moved) is None
    assert checked > 0
