"""Rooms: the live tables of this process and the only code that changes them.

One module per concern:

- ``records``   — ``LiveRoom`` and ``SeatHolder``: what a table is in memory;
- ``registry``  — which rooms are in memory: loading (by id or code), resuming at start,
                  releasing finished ones;
- ``lobby``     — the verbs around a match: create, join, leave, computer players, free a
                  seat, start, rematch;
- ``chat_settings`` — the host's chat settings: mute a person, the watchers' channel;
- ``referee``   — act and preview: the only code that changes a room's game state and
                  version;
- ``bot_driver``— plays computer players' turns, surviving database outages;
- ``thinking``  — the process pool the searching computer players think in;
- ``render``    — the room description and each seat's state message, cached per version;
- ``storage``   — every transaction the rooms need, injectable;
- ``notifier``  — the interfaces through which the rooms announce changes and ask who is
                  connected (implemented by app.connections.hub);
- ``service``   — ``Rooms``: the parts wired together for the routes.
"""

from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.service import Rooms

__all__ = ["LiveRoom", "Rooms", "SeatHolder"]
