"""Self-play: a whole match in which every awaited seat picks a legal action at random.

Used by the contract test and the engine benchmark. The chooser has its own seeded
``random.Random``, so the global RNG is never touched and a seed replays the same match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from games.kit.base import Action, Rules

MAX_STEPS = 100_000
S = TypeVar("S")


def play_match(
    rules: Rules[S],
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    deck: Sequence[str] | None = None,
    on_state: Callable[[S], None] | None = None,
) -> tuple[S, list[tuple[int, Action]]]:
    """Play to the end; return the final state and the action log.

    ``on_state`` sees every state, the first included. Raises ``RuntimeError`` if the match
    does not end within ``MAX_STEPS`` actions or an awaited seat has nothing to do.
    """
    chooser = random.Random(seed * 7919 + 17)
    state = rules.new_game(seats, seed, dict(options or {}), deck)
    log: list[tuple[int, Action]] = []
    if on_state is not None:
        on_state(state)
    for _ in range(MAX_STEPS):
        to_act = rules.to_act(state)
        if not to_act:
            if not rules.is_over(state):
                raise RuntimeError("nobody is awaited but the match is not over")
            return state, log
        seat = chooser.choice(to_act)
        legal = rules.legal_actions(state, seat)
        if not legal:
            raise RuntimeError(f"seat {seat} is awaited but has no legal action")
        action = chooser.choice(legal)
        state = rules.apply(state, seat, action)
        log.append((seat, action))
        if on_state is not None:
            on_state(state)
    raise RuntimeError(f"{rules.name}: the match with seed {seed} did not end in {MAX_STEPS} steps")
