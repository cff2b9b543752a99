"""Parlour's games: pure rules engines behind one contract (games.base.Rules).

``REGISTRY`` maps each game's name to its rules object. It is written out explicitly
(no registration by import side effect) so that reading this file tells you every game.
"""

from __future__ import annotations

from games import coins, cupid, cups, usurp, wifeswap
from games.base import IllegalAction, Rules, replay

REGISTRY: dict[str, Rules] = {
    # registry entries (one line per game, alphabetical):
    "coins": coins.RULES,
    "cupid": cupid.RULES,
    "cups": cups.RULES,
    "usurp": usurp.RULES,
    "wifeswap": wifeswap.RULES,
}


def get(name: str) -> Rules:
    """The rules of the game called ``name``; ``KeyError`` names the known games."""
    try:
        return REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(REGISTRY))
        raise KeyError(f"Unknown game {name!r}; known games: {known}.") from None


__all__ = ["REGISTRY", "IllegalAction", "Rules", "get", "replay"]
