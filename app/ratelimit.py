"""A token bucket per connection: bursts are fine, floods are refused."""

from __future__ import annotations

from app.hub import Connection


def allow(connection: Connection, now: float, *, rate: float, burst: int) -> bool:
    """Take one token from the connection's bucket; False when it is empty."""
    if connection.refilled_at == 0.0:
        connection.tokens, connection.refilled_at = float(burst), now
    connection.tokens = min(float(burst), connection.tokens + (now - connection.refilled_at) * rate)
    connection.refilled_at = now
    if connection.tokens < 1.0:
        return False
    connection.tokens -= 1.0
    return True
