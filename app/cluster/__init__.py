"""Several server processes sharing the rooms, through Redis (used only when REDIS_URL is set).

- ``cluster``       — ``Cluster``: the rooms' ownership and notifier for several processes:
                      claims, notices after every committed change, forwarding verbs to a
                      room's owner, and what arrives on the bus;
- ``leases``        — which process referees which room: a Redis key per room with a time
                      limit, renewed by a thread of its own;
- ``upkeep``        — every third of a lease: giving up lost leases, taking over dead
                      owners' rooms, forgetting stopped processes (behind ``Holder``);
- ``calls``         — verbs asked of a room's owner and their answers;
- ``talk``          — table talk between processes (behind ``Listener``, the chat);
- ``presence``      — who is connected to a room over every process, and telling the others;
- ``bus``           — Redis pub/sub: publishing in batches, subscriptions that survive a
                      Redis restart;
- ``channels``      — the names of the Redis channels and keys;
- ``redis_clients`` — the event loop's Redis client and the leases' blocking one.

The copies of rooms another process referees are kept in step by app/rooms/follower.py:
the cluster only carries the notices. PostgreSQL stays the one truth; Redis carries only
what moves between processes, and the unique (match, seq) key of the event log stays the
last guard against two writers.
"""
