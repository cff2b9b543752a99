"""Rooms: the live tables of this process and the only code that changes them.

One module per concern:

- ``records``       — ``LiveRoom`` and ``SeatHolder``: what a table is in memory;
- ``registry``      — which rooms are in memory: loading (by id or code), resuming at
                      start, reloading from the log, releasing idle ones;
- ``lobby``         — the verbs around a match: create, join, leave, computer players, free
                      a seat, start, rematch; the host role handed on, stale tables closed;
- ``chat_settings`` — the host's chat settings: mute a person, the watchers' channel;
- ``stand_ins``     — computers standing in for people mid-match, and seats taken back;
- ``referee``       — act and preview: the only code that changes a room's game state,
                      version and turn clocks;
- ``follower``      — this process's copies of rooms other processes referee, kept in step
                      with their owners' notices;
- ``turn_clocks``   — the seats' turn clocks as immutable values;
- ``pace``          — live or turn-based: days per move, deadlines, who ran out of time;
- ``turn_signals``  — what a turn-based table tells the notification channels;
- ``turn_sweep``    — deadlines near found in the database, dormant tables let go;
- ``your_tables``   — a person's unfinished tables, those awaiting them first;
- ``time_source``   — ``TimeSource``: wall time and timers, injected;
- ``away``          — since when each seat's person is away, stamped by the owner;
- ``timers``        — one timer per room on its owner, for the next thing due;
- ``bot_driver``    — plays computer players' turns, surviving database outages;
- ``thinking``      — the process pool the searching computer players think in;
- ``render``        — the room description and each seat's state message, cached per
                      version;
- ``storage``       — every transaction the rooms need, injectable;
- ``event_log``     — appends events in grouped transactions (batches of moves on
                      PostgreSQL from the event loop, the rest on a writer thread);
- ``notifier``      — the interfaces through which the rooms announce changes and ask who
                      is connected (implemented by app.connections.hub);
- ``ownership``     — which process referees a room (``SoleProcess`` alone);
- ``service``       — ``Rooms``: the parts wired together for the routes.
"""

from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.service import Rooms

__all__ = ["LiveRoom", "Rooms", "SeatHolder"]
