"""When a failed delivery is tried again: exponential backoff, then giving up."""

from __future__ import annotations

from datetime import datetime, timedelta

# The first retry waits this long, each next one twice as long, never more than the cap.
FIRST_RETRY = timedelta(seconds=30)
LONGEST_WAIT = timedelta(hours=1)
# A notification that failed this many times is given up (about six hours of trying).
MAX_ATTEMPTS = 10


def next_try(now: datetime, attempts: int) -> datetime | None:
    """When to try again after the ``attempts``-th failure (1 for the first); None: give
    up."""
    if attempts >= MAX_ATTEMPTS:
        return None
    wait: timedelta = min(FIRST_RETRY * 2 ** (attempts - 1), LONGEST_WAIT)
    return now + wait
