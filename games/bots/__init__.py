"""Computer players over the Rules protocol: pure functions of (rules, state, seat, seed)."""

from games.bots.simple import choose

__all__ = ["choose"]
