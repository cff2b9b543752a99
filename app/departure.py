"""What a server process does when it is told to stop (SIGTERM, a deploy), so that no table
drops: its rooms play on in another process at once, and nothing acknowledged is lost.

app/serve.py runs this when uvicorn begins its graceful shutdown, after closing the
listening sockets (no new connection reaches this process) and before uvicorn's own
shutdown closes what is left:

1. the sockets take nothing new — an action, a chat line or a reaction is refused
   ``unavailable`` (send it again) — and the messages already being done are answered;
2. the rooms are handed over (``Rooms.hand_over``): every change under way is committed,
   and with several processes each room's lease is released and the others are told to
   take the rooms over now (app/cluster/cluster.py), rather than after the lease lapses;
   alone, the process simply stops refereeing;
3. every socket is closed with SERVICE_RESTART (1012) after what is queued for it, so each
   browser gets its last acknowledgements, then reconnects at once — through the reverse
   proxy, to a process that referees its room by then;
4. the event log drains: every event handed to it is committed.

Then uvicorn closes what is left, the lifespan's shutdown stops the services, and the
process exits 0. Each step is bounded, and the whole within STOP_SECONDS, so a process
always exits within the 15 s a deploy gives it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from app.connections.hub import SERVICE_RESTART, Hub
from app.rooms import Rooms

log = logging.getLogger("parlour")

STOP_SECONDS = 10.0  # the whole departure; uvicorn's own shutdown and the lifespan follow
SETTLE_SECONDS = 2.0  # messages being done get their answers
CLOSE_SECONDS = 3.0  # clients answer the close frame (then uvicorn closes the rest)


class Departure:
    """Hands this process's rooms and sockets on; called once, when the process stops."""

    def __init__(self, hub: Hub, rooms: Rooms) -> None:
        self.hub = hub
        self.rooms = rooms

    async def __call__(self) -> None:
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            async with asyncio.timeout(STOP_SECONDS):
                await self._depart()
        except TimeoutError:
            log.warning("stopping took over %.0f s; closing what is left", STOP_SECONDS)
        log.info("stopped serving in %.2f s", loop.time() - began)

    async def _depart(self) -> None:
        hub = self.hub
        hub.stop_serving()
        await _within(SETTLE_SECONDS, hub.settled(), "answering the messages under way")
        await self.rooms.hand_over()
        hub.close_all(SERVICE_RESTART, "server restarting")
        await _within(CLOSE_SECONDS, hub.emptied(), "closing the sockets")
        await self.rooms.drain()


async def _within(seconds: float, step: Coroutine[Any, Any, None], what: str) -> None:
    try:
        async with asyncio.timeout(seconds):
            await step
    except TimeoutError:
        log.warning("stopping: %s took over %.0f s; going on", what, seconds)
