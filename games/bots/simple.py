"""Computer players that need nothing but the rules contract and the game's sampler.

``heuristic`` (offered as "easy"): a one-move rule of thumb. It tries each legal action and
keeps the one that leaves its own match score best against the best opponent (lower is
better where the game says so); ties, which are most moves, are broken by a seeded coin so
that it does not always play the same card. ``random``: any legal action. Both always
return one of ``legal_actions``, so a computer player can never hang a match.

The heuristic knows only what its seat knows. An action's outcome can turn on cards the
seat cannot see (the Downcard that decides Usurp's last Uprising, the Downcards turned at a
hand's end), so it never tries an action on the real state: it tries each one in a few
worlds the game's sampler deals from the seat's point of view (games.kit.game.Sampler, the
searching player's too), which read only the set of unseen cards, and judges it by its
average there.
"""

from __future__ import annotations

from typing import Any, TypeVar

import games
from games.kit.base import Action, Rules
from games.kit.cards import rng_for

KINDS = ("heuristic", "random")
# Games with many choices (layouts) are sampled rather than tried exhaustively.
MAX_TRIED = 40
# The worlds each action is tried in: enough to weigh a hidden card that decides a hand,
# few enough that the heuristic stays cheap on the event loop.
WORLDS = 4
# What winning the match is worth beside any score difference.
WIN = 1_000_000
S = TypeVar("S")


def choose(
    rules: Rules[S], state: S, seat: int, seed: int | str, kind: str = "heuristic"
) -> Action:
    """The action a computer player in ``seat`` takes now (``seed`` varies its choices)."""
    legal = rules.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    rng = rng_for(seed, 0)
    if kind == "random" or len(legal) == 1:
        return rng.choice(legal)
    candidates = legal if len(legal) <= MAX_TRIED else rng.sample(legal, MAX_TRIED)
    sample = games.game(rules.name).sampler.sample
    worlds = [sample(state, seat, rng) for _ in range(WORLDS)]
    best: list[Action] = []
    best_value: float | None = None
    for action in candidates:
        value = sum(_value(rules, world, seat, action) for world in worlds)
        if best_value is None or value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return rng.choice(best)


def _value(rules: Rules[Any], world: Any, seat: int, action: Action) -> float:
    """How ``action`` leaves ``seat`` in ``world``: its score against the best opponent's,
    and a win above everything."""
    sign = -1 if rules.lower_scores_win else 1
    after = rules.apply(world, seat, action)
    scores = rules.scores(after)
    others = [s for i, s in enumerate(scores) if i != seat]
    value = float(sign * (scores[seat] - (max(others) if sign > 0 else min(others))))
    if rules.is_over(after) and seat in rules.winners(after):
        value += WIN
    return value
