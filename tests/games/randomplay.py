"""Shared helpers for the games' tests: seeded random play and card-code scanning."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import games
from games.base import Rules

MAX_STEPS = 100_000


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
    """Play a match to the end, each awaited seat choosing a legal action at random.

    The chooser has its own ``random.Random``: the global RNG is never touched.
    """
    chooser = random.Random(seed * 7919 + 17)
    opts = dict(options or {})
    state = rules.new_game(seats, seed, opts, deck)
    played = Played(rules.name, seats, seed, opts, deck, [state])
    for _ in range(MAX_STEPS):
        to_act = rules.to_act(state)
        if not to_act:
            assert rules.is_over(state), "nobody is awaited but the match is not over"
            return played
        seat = chooser.choice(to_act)
        legal = rules.legal_actions(state, seat)
        assert legal, f"seat {seat} is awaited but has no legal action"
        action = chooser.choice(legal)
        state = rules.apply(state, seat, action)
        played.log.append((seat, action))
        if keep_states:
            played.states.append(state)
        else:
            played.states[-1:] = [state]
    raise AssertionError(f"{rules.name}: match with seed {seed} did not end in {MAX_STEPS} steps")


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
