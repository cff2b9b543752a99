"""Computer players that need nothing but the rules contract.

``heuristic``: a one-move rule of thumb. It tries each legal action and keeps the one that
leaves its own match score best against the best opponent (lower is better where the game
says so); ties, which are most moves, are broken by a seeded coin so that it does not
always play the same card. ``random``: any legal action. Both always return one of
``legal_actions``, so a computer player can never hang a match.

The lookahead reads only the scores after its own action, which every player at the
table would see too; it never looks at another hand.
"""

from __future__ import annotations

from typing import TypeVar

from games.kit.base import Action, Rules
from games.kit.cards import rng_for

KINDS = ("heuristic", "random")
# Games with many choices (layouts) are sampled rather than tried exhaustively.
MAX_TRIED = 40
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
    sign = -1 if rules.lower_scores_win else 1
    best: list[Action] = []
    best_value: float | None = None
    for action in candidates:
        after = rules.apply(state, seat, action)
        scores = rules.scores(after)
        others = [s for i, s in enumerate(scores) if i != seat]
        value = sign * (scores[seat] - (max(others) if sign > 0 else min(others)))
        if rules.is_over(after) and seat in rules.winners(after):
            value += 1_000_000
        if best_value is None or value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return rng.choice(best)
