"""Several server processes sharing the rooms, through Redis (used only when REDIS_URL is set).

- ``leases``   — which process referees which room: a Redis key per room with a time limit,
                 renewed by its owner;
- ``bus``      — Redis pub/sub: publishing in batches, subscriptions that survive a Redis
                 restart;
- ``channels`` — the names of the Redis channels and keys;
- ``presence`` — who is connected to a room over every process, and telling the others;
- ``calls``    — verbs asked of a room's owner and their answers;
- ``room_description`` — what a notice says of a room besides its match;
- ``upkeep``   — every third of a lease: renewing, taking over dead owners' rooms;
- ``cluster``  — the rooms' ownership and notifier for several processes: claims and
                 takeovers, forwarding verbs to a room's owner, and keeping this process's
                 copies of other processes' rooms in step with their owners' notices.

PostgreSQL stays the one truth; Redis carries only what moves between processes, and the
unique (match, seq) key of the event log stays the last guard against two writers.
"""
