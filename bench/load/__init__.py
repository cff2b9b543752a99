"""Load benchmark: how many tables one server referees, end to end, against the bare transport.

``python -m bench.load`` starts the real server (``uvicorn app.main:create_app --factory``,
as `make run` does, with ``--ws-per-message-deflate false``) as a separate process on a
fresh SQLite database (``--database-url`` for PostgreSQL), opens real rooms through the
HTTP API, connects one WebSocket client per seat and plays legal actions:

* saturated: every seat acts the moment it may (the server's per-connection rate limit is
  raised through RATE_PER_SECOND / RATE_BURST for this run only, and the report says so);
* paced: every seat acts every ``--pace`` seconds when it may (default rate limit);
* idle: ``--idle`` connections that never act, to measure server memory per connection.

Finished matches start a rematch, so the load is steady. The same generator then drives
``bench/echo_server.py`` (same uvicorn stack, echo + fan-out to the room, no game, no
database) with messages of the size the real server sent, and the ratio of the two rates
is what our own code costs. Latency is from sending an action to the last connection of
its room receiving a state at least that new. The generator runs in this process (uvloop)
and reports its own CPU, so a saturated generator is visible.

Figures are printed, and the run is recorded as a new file in bench/results/
(``<date>-<time>-load-<database>.md``: the command, date, machine, commit and every figure)
unless ``--no-write``; ``--results-dir`` records it elsewhere. The ``profile`` run attaches
py-spy to the server during an extra saturated run and prints where the server's time goes.

The package, one concern a module:

* ``cli``: the command line; ``runs``: each run and the order they are made in;
* ``servers``: the server processes (the real server, several sharing Redis, the echo, and
  boardgame.io's for bench/versus.py);
* ``generator``, ``protocols``, ``api``: the load generator (tables, seats, what they say);
  ``bgio``: what the seats say to boardgame.io (bench/versus.py);
* ``drive``: one measured run; ``measure``: CPU, memory and percentiles;
* ``report``: the printed figures and the recorded entry; ``profiling``, ``stalls``: the
  py-spy profile and the stall probe's report.
"""

# bench.persistence empties its PostgreSQL database the same way.
from bench.load.servers import reset_postgres

__all__ = ["reset_postgres"]
