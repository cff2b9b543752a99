"""A token bucket: bursts are fine, floods are refused."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``; each message takes one."""

    rate: float
    burst: int
    tokens: float = field(init=False)
    refilled_at: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)

    def allow(self, now: float) -> bool:
        """Take one token; False when the bucket is empty."""
        if self.refilled_at is not None:
            self.tokens = min(float(self.burst), self.tokens + (now - self.refilled_at) * self.rate)
        self.refilled_at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
