"""Computer players over the Rules protocol: pure functions of (rules, state, seat, seed)."""

from games.bots.players import KINDS, SEARCHING, choose

__all__ = ["KINDS", "SEARCHING", "choose"]
