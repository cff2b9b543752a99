"""Token buckets: bursts are fine, floods are refused (per connection, or per person)."""

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


class PerKey:
    """A token bucket per key (a person): ``rate`` a second, bursts of ``burst``.

    Buckets that have filled up again are forgotten once there are many, so memory follows
    the people talking now, not everyone who ever did.
    """

    prune_above = 1024

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, TokenBucket] = {}

    def allow(self, key: str, now: float) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.prune_above:
                self._prune(now)
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
        return bucket.allow(now)

    def _prune(self, now: float) -> None:
        refill = self.burst / self.rate if self.rate > 0 else float("inf")
        self._buckets = {
            key: bucket
            for key, bucket in self._buckets.items()
            if bucket.refilled_at is None or now - bucket.refilled_at < refill
        }
