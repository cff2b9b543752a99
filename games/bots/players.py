"""Every kind of computer player, by name, and the one call that asks any of them to move.

``heuristic`` (offered as "easy") and ``random`` are games.bots.simple; ``normal`` and
``strong`` search (games.bots.search) with growing budgets. A search also stops when
``out_of_time()`` says so: the caller, which has a clock, decides the wall time (games/
has none). Every kind is a pure function of (rules, state, seat, seed) when
``out_of_time`` never fires.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from games.bots import simple
from games.bots.search import Budget, search
from games.kit.base import Action, Rules
from games.kit.cards import rng_for

# What each searching kind may spend per decision (the wall time is the caller's).
BUDGETS: dict[str, Budget] = {
    "normal": Budget(simulations=150, playout=30),
    "strong": Budget(simulations=700, playout=40),
}
KINDS: tuple[str, ...] = (*simple.KINDS, *BUDGETS)
SEARCHING = frozenset(BUDGETS)
S = TypeVar("S")


def choose(
    rules: Rules[S],
    state: S,
    seat: int,
    seed: int | str,
    kind: str = "heuristic",
    out_of_time: Callable[[], bool] | None = None,
) -> Action:
    """The action a computer player of ``kind`` in ``seat`` takes now."""
    budget = BUDGETS.get(kind)
    if budget is None:
        return simple.choose(rules, state, seat, seed, kind)
    return search(rules, state, seat, rng_for(seed, 0), budget, out_of_time)
