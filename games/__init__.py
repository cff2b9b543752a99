"""Parlour's games: pure rules engines behind one contract (games.base.Rules).

``REGISTRY`` maps each game's name to its rules object. It is written out explicitly
(no registration by import side effect) so that reading this file tells you every game.
``states`` and ``replay`` rebuild a match from its seed and action log.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games import coins, cupid, cups, usurp, wifeswap
from games.base import Action, IllegalAction, Rules, states

REGISTRY: dict[str, Rules[Any]] = {
    # registry entries (one line per game, alphabetical):
    "coins": coins.RULES,
    "cupid": cupid.RULES,
    "cups": cups.RULES,
    "usurp": usurp.RULES,
    "wifeswap": wifeswap.RULES,
}


def get(name: str) -> Rules[Any]:
    """The rules of the game called ``name``; ``KeyError`` names the known games."""
    try:
        return REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(REGISTRY))
        raise KeyError(f"Unknown game {name!r}; known games: {known}.") from None


def replay(
    name: str,
    seats: int,
    seed: int | str,
    options: Mapping[str, Any] | None,
    deck: Sequence[str] | None,
    actions: Iterable[tuple[int, Action]],
) -> Any:
    """Rebuild a match: the last of ``states`` (``new_game``, then every action in order)."""
    # A deque of length one keeps only the newest state, not the whole match.
    return deque(states(get(name), seats, seed, options, deck, actions), maxlen=1).pop()


__all__ = ["REGISTRY", "IllegalAction", "Rules", "get", "replay", "states"]
