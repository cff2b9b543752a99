"""Shared helpers for the games' tests: seeded random play and card-code scanning."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import games
from games.bots.selfplay import play_match
from games.kit.base import Rules


@dataclass
class Played:
    """A random match: its settings, every state it passed through and its action log."""

    name: str
    seats: int
    seed: int
    options: dict[str, Any]
    deck: list[str] | None
    states: list[Any] = field(default_factory=list)
    log: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.states[-1]


def random_match(
    rules: Rules,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    deck: list[str] | None = None,
    *,
    keep_states: bool = True,
) -> Played:
    """Play a match to the end by self-play (games.bots.selfplay), keeping what it passed."""
    opts = dict(options or {})
    played = Played(rules.name, seats, seed, opts, deck)

    def keep(state: Any) -> None:
        if keep_states or not played.states:
            played.states.append(state)
        else:
            played.states[-1] = state

    _, played.log = play_match(rules, seats, seed, opts, deck, on_state=keep)
    return played


def seat_counts(rules: Rules) -> list[int]:
    return list(range(rules.min_seats, rules.max_seats + 1))


def option_combinations(rules: Rules) -> list[dict[str, Any]]:
    """Every combination of the game's choice and bool options (the rest at defaults)."""
    axes: list[list[tuple[str, Any]]] = []
    for entry in rules.options_schema():
        if entry["type"] == "choice":
            axes.append([(entry["name"], value) for value in entry["choices"]])
        elif entry["type"] == "bool":
            axes.append([(entry["name"], False), (entry["name"], True)])
    return [dict(combo) for combo in itertools.product(*axes)]


def current_deal(rules: Rules, view: Mapping[str, Any]) -> dict[str, Any]:
    """The view without the keys that sum up a deal already over (``Rules.past_deal_keys``).

    ``hidden_cards`` is about the deal in play: those keys name a finished deal's cards,
    public since it ended, which may have been dealt again since.
    """
    return {k: v for k, v in view.items() if k not in rules.past_deal_keys}


def card_codes_in(value: Any, deck: frozenset[str]) -> set[str]:
    """Every card code that appears anywhere in a JSON value, including inside sentences."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            for token in _tokens(item):
                if token in deck:
                    found.add(token)
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def _tokens(text: str) -> Iterator[str]:
    word = []
    for char in text:
        if char.isalnum():
            word.append(char)
        elif word:
            yield "".join(word)
            word = []
    if word:
        yield "".join(word)


def all_games() -> list[str]:
    return sorted(games.REGISTRY)
