"""The load generator: a table per room, a WebSocket client per seat, acting when it may.

What the seats say is a ``TableProtocol`` (bench/load/protocols.py: real rooms on the real
server, or the echo baseline's turns; bench/load/bgio.py: boardgame.io's socket.io); the
generator itself only connects, times and counts. A table plays until its match is over,
asks for the rematch and plays that, until the run stops.

With ``reconnect`` (the restart run, bench/load/restarts.py) a seat whose server closes its
socket with 1012 (the process is stopping: docs/protocol.md) connects again at once, as the
browser does, to a server that is up; a move's latency then counts from its first send, so
the longest one is the longest a table stalled.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.load.api import Api, cookie_header
from bench.load.servers import Server

SERVICE_RESTART = 1012  # the close code of a server process that is stopping


def told_to_reconnect(error: BaseException) -> bool:
    """Whether ``error`` is a socket the server closed because its process is stopping."""
    return (
        isinstance(error, ConnectionClosed)
        and error.rcvd is not None
        and error.rcvd.code == SERVICE_RESTART
    )


@dataclass
class Stats:
    """Everything the generator observes; latencies are (completed_at, seconds)."""

    done: list[tuple[float, float]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    sent: int = 0
    received: int = 0
    received_bytes: int = 0
    state_messages: int = 0
    state_bytes: int = 0
    matches_finished: int = 0
    rematches: int = 0
    reconnects: int = 0  # sockets told 1012 and connected again
    refused_restarting: int = 0  # acts a stopping process refused (sent again)

    def error(self, code: str) -> None:
        self.errors[code] += 1


class TableProtocol(Protocol):
    """What a table's seats say to the server they are connected to."""

    async def setup(self, table: Table) -> None:
        """Make the table's room (and its users) before the first connection."""

    def path(self, table: Table, seat: int) -> str:
        """Where on the server ``seat``'s WebSocket connects."""

    def begin(self, table: Table) -> None:
        """Called once every seat of the table is connected."""

    async def rematch(self, table: Table) -> None:
        """The match is over: move the table to its next room."""

    def on_message(self, table: Table, seat: int, raw: str | bytes) -> None:
        """A message reached ``seat``."""


ProtocolFactory = Callable[["Generator"], TableProtocol]


class Generator:
    """The tables of one run: where each seat connects, the shared counts, and the stop."""

    def __init__(
        self,
        servers: list[Server],
        pace: float | None,
        protocol: ProtocolFactory,
        *,
        reconnect: bool = False,
        seats_at_referee: bool = False,
    ) -> None:
        # Table i's seat s talks to server (i + s) % n: with two processes, every room has
        # one seat on each, so every action crosses between them. With
        # ``seats_at_referee``, every seat of table i talks to server i % n, which opened
        # its rooms and so referees them: where the proxy sends a room's sockets by the
        # name its page gives (deploy/nginx.conf).
        self.seats_at_referee = seats_at_referee
        self.ws_urls = [server.ws for server in servers]
        self.apis = [Api(server.http) for server in servers]
        self.reconnect = reconnect
        self.down: set[int] = set()  # servers being restarted: nobody connects to them
        self.pace = pace
        self.stats = Stats()
        self.stopping = False
        self.connected = 0
        self.started_tables = 0
        self.failed_tables = 0
        self.notes: list[str] = []
        # Restart run: (room, seq) -> the action a seat saw acknowledged at that seq.
        self.acknowledged: dict[tuple[str, int], Any] = {}
        self.handshakes = asyncio.Semaphore(64)
        self.stop_future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.protocol = protocol(self)

    def check_send(self, task: asyncio.Future[None]) -> None:
        if task.cancelled() or self.stopping or (error := task.exception()) is None:
            return
        if self.reconnect and told_to_reconnect(error):
            return  # the act is sent again once the seat has reconnected
        self.stats.error(f"send:{type(error).__name__}")

    def note(self, text: str) -> None:
        """Keep the first few failures verbatim, to print them."""
        if len(self.notes) < 5:
            self.notes.append(text)
            print(f"  ! {text}", file=sys.stderr, flush=True)

    def stop(self) -> None:
        self.stopping = True
        if not self.stop_future.done():
            self.stop_future.set_result(None)

    def up(self, wanted: int) -> int:
        """Server ``wanted`` (modulo their number), or the next one that is up."""
        count = len(self.ws_urls)
        for step in range(count):
            index = (wanted + step) % count
            if index not in self.down:
                return index
        return wanted % count

    def api(self, table: Table) -> Api:
        """Where a table's rooms are opened (and so which process referees them)."""
        return self.apis[self.up(table.index)]

    def ws_url(self, table: Table, seat: int) -> str:
        if self.seats_at_referee:
            return self.ws_urls[self.up(table.index)]
        return self.ws_urls[self.up(table.index + seat)]

    async def close(self) -> None:
        for api in self.apis:
            await api.close()


class Table:
    """One room and its seats' connections; plays until told to stop."""

    def __init__(self, gen: Generator, index: int, game: str, seats: int) -> None:
        self.gen = gen
        self.index = index
        self.game = game
        self.seat_count = seats
        self.room_id = ""
        self.cookies: list[str] = []
        self.sockets: list[ClientConnection | None] = [None] * seats
        self.seen = [-1] * seats  # newest version each seat has received
        self.acted = [-1] * seats  # the version each seat last acted on
        self.ready: list[str | None] = [None] * seats  # paced: the act to send at the tick
        self.ready_version = [-1] * seats
        self.ready_sole: list[Any] = [None] * seats  # the ready act's action, if alone awaited
        # Reconnected with an act unanswered: the next one goes at once, not at the tick.
        self.resend = [False] * seats
        self.pending: dict[int, list[float]] = {}  # version -> [sent_at, seats still to see]
        # Restart run: per seat, the version it alone was awaited at and the action it last
        # sent there (not merely chose: a state shown again at that version, as a reconnect's
        # greeting is, may choose anew after the first choice went out).
        self.chosen: dict[int, tuple[int, Any]] = {}
        self.over = asyncio.Event()
        self.rng = random.Random(index)

    def state_received(self, seat: int, version: int, size: int) -> None:
        """A state message of ``size`` bytes for ``version`` reached ``seat``: count it."""
        stats = self.gen.stats
        stats.state_messages += 1
        stats.state_bytes += size
        self.arrived(seat, version, time.perf_counter())

    def arrived(self, seat: int, version: int, now: float) -> None:
        """A state (or echo) for ``version`` reached ``seat``: time the actions it completes."""
        previous = self.seen[seat]
        if version <= previous:
            return
        self.seen[seat] = version
        for wanted in [v for v in self.pending if previous < v <= version]:
            entry = self.pending[wanted]
            entry[1] -= 1
            if entry[1] <= 0:
                del self.pending[wanted]
                self.gen.stats.done.append((now, now - entry[0]))

    def may_act(self, seat: int, version: int, text: str, sole: Any = None) -> None:
        """It is ``seat``'s turn at ``version``; ``text`` is the act message to send and
        ``sole`` its action when the seat alone is awaited (the restart run checks it)."""
        if self.acted[seat] >= version:
            return
        if self.gen.pace is None or self.resend[seat]:
            self.resend[seat] = False
            self.send(seat, version, text, sole)
        else:
            self.ready[seat], self.ready_version[seat] = text, version
            self.ready_sole[seat] = sole

    def send(self, seat: int, version: int, text: str, sole: Any = None) -> None:
        ws = self.sockets[seat]
        if ws is None or self.gen.stopping:
            return
        self.acted[seat] = version
        if sole is not None:
            self.chosen[seat] = (version, sole)
        # Sent again after a reconnect: the wait counts from the first send.
        self.pending.setdefault(version + 1, [time.perf_counter(), float(self.seat_count)])
        self.gen.stats.sent += 1
        task = asyncio.ensure_future(ws.send(text))
        task.add_done_callback(self.gen.check_send)

    def say(self, seat: int, text: str) -> None:
        """Send ``seat``'s server something that is not an action (a handshake, a pong)."""
        ws = self.sockets[seat]
        if ws is None or self.gen.stopping:
            return
        task = asyncio.ensure_future(ws.send(text))
        task.add_done_callback(self.gen.check_send)

    async def ticker(self, seat: int) -> None:
        """Paced mode: at every tick, send the action prepared for the current version."""
        pace = self.gen.pace
        assert pace is not None
        loop = asyncio.get_running_loop()
        next_tick = loop.time() + self.rng.random() * pace
        while not self.gen.stopping:
            await asyncio.sleep(max(0.0, next_tick - loop.time()))
            next_tick += pace
            text, version = self.ready[seat], self.ready_version[seat]
            if text is not None and version == self.seen[seat] and self.acted[seat] < version:
                self.ready[seat] = None
                self.send(seat, version, text, self.ready_sole[seat])

    async def reader(self, seat: int, ws: ClientConnection) -> None:
        gen, stats = self.gen, self.gen.stats
        while True:
            try:
                async for raw in ws:
                    stats.received += 1
                    stats.received_bytes += len(raw)
                    gen.protocol.on_message(self, seat, raw)
            except ConnectionClosed:
                pass  # its close code says what comes next
            except Exception as error:
                if not gen.stopping and not self.over.is_set():
                    stats.error(f"connection:{type(error).__name__}")
                return
            if gen.stopping or self.over.is_set() or self.sockets[seat] is not ws:
                return
            if not (gen.reconnect and ws.close_code == SERVICE_RESTART):
                stats.error(f"closed:{ws.close_code}")
                return
            # The server process is stopping: connect again at once, elsewhere. The greeting
            # says where the table stands; an act that was not taken is sent again.
            stats.reconnects += 1
            self.sockets[seat] = None  # nothing is sent on the closed socket meanwhile
            self.resend[seat] = self.acted[seat] >= self.seen[seat]
            self.acted[seat] = -1
            try:
                ws = await self.connect(seat)
            except Exception as error:
                stats.error(f"reconnect:{type(error).__name__}")
                gen.note(f"table {self.index} seat {seat} reconnect: {error}")
                return
            self.sockets[seat] = ws

    async def connect(self, seat: int) -> ClientConnection:
        headers = cookie_header(self.cookies[seat]) if self.cookies else None
        url = self.gen.ws_url(self, seat) + self.gen.protocol.path(self, seat)
        async with self.gen.handshakes:
            return await connect(
                url,
                additional_headers=headers,
                compression=None,
                ping_interval=None,
                max_size=2**22,
                open_timeout=60,
            )

    async def connect_all(self) -> list[asyncio.Task[None]]:
        self.seen = [-1] * self.seat_count
        self.acted = [-1] * self.seat_count
        self.ready = [None] * self.seat_count
        self.pending.clear()
        self.chosen.clear()
        tasks = []
        for seat in range(self.seat_count):
            ws = await self.connect(seat)
            self.sockets[seat] = ws
            tasks.append(asyncio.ensure_future(self.reader(seat, ws)))
        return tasks

    async def close_all(self, tasks: list[asyncio.Task[None]]) -> None:
        # Every seat lets go of its socket before the first is closed: a seat still reading
        # while another's closes sends nothing more (a pong on a closing socket would fail).
        sockets, self.sockets = self.sockets, [None] * self.seat_count
        for ws in sockets:
            if ws is not None:
                with contextlib.suppress(Exception):
                    await ws.close()
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.gather(*tasks, return_exceptions=True)

    async def run(self) -> None:
        """Connect, play until the match is over, rematch, repeat; until the run stops."""
        gen = self.gen
        try:
            await gen.protocol.setup(self)
        except Exception as error:
            gen.stats.error(f"setup:{type(error).__name__}")
            gen.note(f"table {self.index} setup: {error}")
            gen.failed_tables += 1
            return
        tickers = []
        if gen.pace is not None:
            tickers = [asyncio.ensure_future(self.ticker(s)) for s in range(self.seat_count)]
        first = True
        try:
            while not gen.stopping:
                self.over.clear()
                try:
                    tasks = await self.connect_all()
                except Exception as error:
                    gen.stats.error(f"connect:{type(error).__name__}")
                    gen.note(f"table {self.index} connect: {error}")
                    gen.failed_tables += 1
                    return
                gen.connected += self.seat_count
                if first:
                    first = False
                    gen.started_tables += 1
                gen.protocol.begin(self)
                waiter = asyncio.ensure_future(self.over.wait())
                either: list[asyncio.Future[Any]] = [waiter, gen.stop_future]
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                # As in a browser: ask for the rematch while still at the finished table,
                # then leave it (the server may then forget it) and join the new one.
                failed = None
                if not gen.stopping:
                    try:
                        await gen.protocol.rematch(self)
                    except Exception as error:
                        failed = error
                gen.connected -= self.seat_count
                await self.close_all(tasks)
                if failed is not None and not gen.stopping:
                    gen.stats.error(f"rematch:{type(failed).__name__}")
                    gen.note(f"table {self.index} rematch: {failed}")
                    return
        finally:
            for ticker in tickers:
                ticker.cancel()
