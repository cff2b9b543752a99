"""Every Prometheus metric the server exports, defined in one place.

The rest of the app only calls these objects (``MOVES.labels(...).inc()``); ``/metrics``
(app/routes/operations.py) renders them. Names and labels are a contract: dashboards
(deploy/grafana/) and alerts read them, and tests/app/test_metrics.py checks that the
dashboard names nothing that is not here.

Several processes: ``python -m app.serve`` points ``PROMETHEUS_MULTIPROC_DIR`` at a
directory of its own before anything imports prometheus_client (app/observability/
metrics_directory.py), every process writes its samples there, and ``/metrics`` of any of
them adds up the whole directory. Gauges say how to add up: ``livesum`` counts only the
processes still alive (a restarted process's connections are gone). Without the variable
(tests, an app built in-process) the metrics live in this process's default registry.
"""

from __future__ import annotations

from functools import cache

from prometheus_client import Counter, Gauge, Histogram

# Seconds, from a fraction of a millisecond (a move committed in a group with others) to
# a few seconds (a database in trouble, a forwarded move waiting for its owner).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# Events per event-log transaction: one when the server is quiet, up to MAX_BATCH (500).
BATCH_BUCKETS = (1, 2, 5, 10, 20, 50, 100, 200, 500)
# Seconds a computer player takes to decide: a millisecond (easy) to a search's 0.85 s.
THINKING_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.5)

MOVES = Counter(
    "parlour_moves",
    "Moves sent to the referee that refereed them, by game and outcome (accepted: "
    "committed to the event log; refused: answered with a refusal, nothing written).",
    ["game", "outcome"],
)
MOVE_SECONDS = Histogram(
    "parlour_move_seconds",
    "Seconds from a move's receipt on a socket to its commit (stage=committed: the "
    "acknowledgement, forwarded to the room's owner if need be) and to the new state "
    "handed to the mover's socket (stage=delivered).",
    ["game", "stage"],
    buckets=LATENCY_BUCKETS,
)


# A move's own children, looked up once per label values: ``labels()`` with keywords costs
# several times the increment it leads to, and these run for every move. The values are
# few (the games, two outcomes, two stages).
@cache
def moves(game: str, outcome: str) -> Counter:
    return MOVES.labels(game=game, outcome=outcome)


@cache
def move_seconds(game: str, stage: str) -> Histogram:
    return MOVE_SECONDS.labels(game=game, stage=stage)


CONNECTIONS = Gauge(
    "parlour_connections",
    "Open play sockets (WebSockets to a room).",
    multiprocess_mode="livesum",
)
ROOMS_HELD = Gauge(
    "parlour_rooms_held",
    "Rooms held in memory (refereed here or followed as another process's copy).",
    multiprocess_mode="livesum",
)
EVENT_LOG_COMMIT_SECONDS = Histogram(
    "parlour_event_log_commit_seconds",
    "Seconds one event-log transaction took to write and commit (a batch of events).",
    buckets=LATENCY_BUCKETS,
)
EVENT_LOG_BATCH_EVENTS = Histogram(
    "parlour_event_log_batch_events",
    "Events written together in one event-log transaction (group commit).",
    buckets=BATCH_BUCKETS,
)
COMPUTER_THINKING_SECONDS = Histogram(
    "parlour_computer_thinking_seconds",
    "Seconds a computer player took to choose its move, by kind (easy players decide on "
    "the event loop; the searching ones in the worker processes, waiting included).",
    ["kind"],
    buckets=THINKING_BUCKETS,
)
DATABASE_ERRORS = Counter(
    "parlour_database_errors",
    "Database calls that failed because the database could not be used (an outage).",
)
REDIS_ERRORS = Counter(
    "parlour_redis_errors",
    "Redis calls that failed (unreachable, timed out, refused), by what the call was for.",
    ["operation"],
)
REFUSALS = Counter(
    "parlour_refusals",
    "Requests and socket messages refused, by the error code they were answered with "
    "(docs/protocol.md lists the codes).",
    ["code"],
)

# Notifications to people outside the game (e-mail, push, webhooks), counted by whoever
# sends them: one per message handed to its channel, one per message the channel refused
# or that could not be delivered.
NOTIFICATION_CHANNELS = ("email", "push", "webhook")
NOTIFICATIONS_SENT = Counter(
    "parlour_notifications_sent",
    "Notifications delivered to their channel (email, push or webhook).",
    ["channel"],
)
NOTIFICATIONS_FAILED = Counter(
    "parlour_notifications_failed",
    "Notifications that could not be delivered to their channel (email, push or webhook).",
    ["channel"],
)
for _channel in NOTIFICATION_CHANNELS:
    # Present at 0 from the start, so that a rate over them is defined before the first.
    NOTIFICATIONS_SENT.labels(channel=_channel)
    NOTIFICATIONS_FAILED.labels(channel=_channel)
