"""The Redis clients a process uses when several processes share the rooms.

- The event loop's client (quotas, leases claimed and released, pub/sub, forwarded verbs)
  draws from a *blocking* pool: in a burst — a thousand tables opened at once — a call
  waits briefly for a free connection rather than failing with "too many connections";
  only a Redis that stays out of reach turns into a refusal (``unavailable``).
- The leases' renewal thread has a blocking client of its own (app/cluster/leases.py),
  whose socket timeouts keep a hung Redis from holding renewals past the leases' time.
"""

from __future__ import annotations

from redis import Redis as BlockingRedis
from redis.asyncio import BlockingConnectionPool, Redis

CONNECTIONS = 100  # connections the event loop may hold at once
WAIT = 2.0  # seconds a call may wait for one of them to come free


def event_loop_client(url: str) -> Redis:
    pool = BlockingConnectionPool.from_url(url, max_connections=CONNECTIONS, timeout=WAIT)
    return Redis(connection_pool=pool)


def lease_keeper_client(url: str, lease_seconds: float) -> BlockingRedis:
    return BlockingRedis.from_url(
        url, socket_timeout=lease_seconds / 3, socket_connect_timeout=lease_seconds / 3
    )
