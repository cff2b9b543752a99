"""The server's own work for each move, end to end, in one process: bytes in, bytes out.

The real app (``app.main.create_app``, on a fresh SQLite file or ``--database-url``, which
must hold no room of an earlier run unless ``--reset-postgres`` empties it first) serves
``--tables`` Cupid tables of two seats over the WebSocket protocol the server runs under
uvicorn (``app.http.websocket_protocol.LeanWebSocketProtocol``), each socket on an
in-memory transport instead of the network. Each seat is a websockets client protocol
that reads what the server writes and answers with a random legal action (seeded) when it
is awaited; at the end of a match both seats accept the rematch over their sockets, close
them and connect to the new room, as the load benchmark's tables do. Every move is
committed before it is acknowledged, by the event log's writer thread.

What it measures is the process's CPU time per move, less the seats' own (each seat's
work is timed and taken out): the server's work for a move and its share of its match's,
without the machine's other load, the kernel's sockets or a generator process beside it.
On a shared machine times still drift; the count of instructions does not
(``--instructions``: the run again under valgrind with ``--moves`` and ``SPAN`` moves more,
one hash seed for both, the difference divided by ``SPAN``; the seats' share is in it):

    python -m bench.serving
    python -m bench.serving --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench \
        --reset-postgres
    python -m bench.serving --moves 2000 --instructions      # a few minutes
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvicorn
import uvloop
from uvicorn.lifespan.on import LifespanOn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from app.config import SHARED_ADDRESS_CAPS
from app.http.websocket_protocol import PROTOCOL_PATH
from bench import machine
from bench.load.api import COOKIE
from bench.load.protocols import ACCEPT_REMATCH
from bench.load.servers import reset_postgres

SPAN = 1000  # moves between the two counted runs
HOST = "127.0.0.1"
ORIGIN = f"http://{HOST}"


class Memory(asyncio.Transport):
    """One end of an in-memory socket: what is written is handed to the other end on the
    loop's next turn, as a network would, never within the write."""

    def __init__(self, port: int) -> None:
        super().__init__()
        self.port = port
        self.peer: Any = None  # whatever takes the bytes written: ``received(data)``
        self.protocol: Any = None  # the server's protocol on it (HTTP, then WebSocket)
        self.closing = False
        self.paused = False
        self._out: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self.closing:
            return
        if not self._out:
            asyncio.get_running_loop().call_soon(self._deliver)
        self._out.append(bytes(data))

    def _deliver(self) -> None:
        data, self._out = b"".join(self._out), []
        if self.peer is not None:
            self.peer.received(data)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        if not self.closing:
            self.closing = True
            asyncio.get_running_loop().call_soon(self._closed)

    def _closed(self) -> None:
        if self.peer is not None:
            self.peer.lost()

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self.protocol  # type: ignore[no-any-return]

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": (HOST, self.port), "sockname": (HOST, 8000)}.get(name, default)


@dataclass
class Seat:
    """A table's seat: a client protocol on one socket to the server."""

    table: Table
    index: int
    cookie: str
    client: ClientProtocol | None = None
    transport: Memory | None = None

    def connect(self, run: Run, room_id: str) -> None:
        """Open a socket to the room: the handshake reaches uvicorn's HTTP protocol, which
        hands the socket on to the WebSocket protocol, as on a real connection."""
        self.client = ClientProtocol(parse_uri(f"ws://{HOST}/ws/rooms/{room_id}"))
        request = self.client.connect()
        request.headers["Cookie"] = f"{COOKIE}={self.cookie}"
        request.headers["Origin"] = ORIGIN
        self.client.send_request(request)
        self.transport = Memory(run.next_port())
        http = HttpToolsProtocol(run.config, run.state, {})
        self.transport.set_protocol(http)
        http.connection_made(self.transport)
        self.transport.peer = self
        self.send()

    def send(self) -> None:
        assert self.client is not None and self.transport is not None
        data = b"".join(self.client.data_to_send())
        if data:
            transport = self.transport
            asyncio.get_running_loop().call_soon(lambda: transport.protocol.data_received(data))

    def received(self, data: bytes) -> None:
        """What the server wrote reaches the client."""
        assert self.client is not None
        began = time.thread_time()
        self.client.receive_data(data)
        for event in self.client.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.table.on_message(self, orjson.loads(event.data))
        self.send()
        self.table.run.seats_cpu += time.thread_time() - began

    def lost(self) -> None:
        assert self.transport is not None
        self.transport.protocol.connection_lost(None)

    def say(self, text: str) -> None:
        assert self.client is not None
        self.client.send_text(text.encode())
        self.send()

    def close(self) -> None:
        """Close the socket at the end of the run: with a close frame when it is open; one
        still opening — a rematch's, the run ended before its handshake was answered — has
        no frame to close it with and is dropped, as a client going away drops it."""
        assert self.client is not None and self.transport is not None
        if self.client.state is State.OPEN:
            self.client.send_close(1000)
            self.send()
        elif self.client.state is State.CONNECTING:
            self.lost()
        self.transport.peer = None  # what comes after the close is not read


@dataclass
class Table:
    run: Run
    number: int
    room_id: str = ""
    seats: list[Seat] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random)
    over: bool = False

    def on_message(self, seat: Seat, message: dict[str, Any]) -> None:
        if self.run.stopping:
            return
        kind = message.get("type")
        if kind == "state":
            view = message["view"]
            if view.get("over"):
                if not self.over:
                    self.over = True
                    self.run.matches += 1
                    for each in self.seats:
                        each.say(ACCEPT_REMATCH)
                return
            legal = view.get("legal_actions")
            if legal and seat.index in view.get("to_act", ()):
                action = legal[self.rng.randrange(len(legal))]
                seat.say(
                    orjson.dumps(
                        {"type": "act", "version": message["version"], "action": action}
                    ).decode()
                )
                self.run.moved()
        elif kind == "room":
            room = message["room"]
            offer = room.get("rematch_offer") or {}
            if self.over and offer.get("started") and room["rematch_id"] != self.room_id:
                self.move_to(str(room["rematch_id"]))
        elif kind == "error":
            raise RuntimeError(f"table {self.number}: {message}")

    def move_to(self, room_id: str) -> None:
        self.room_id, self.over = room_id, False
        for seat in self.seats:
            seat.close()
            seat.connect(self.run, room_id)


@dataclass
class Run:
    config: uvicorn.Config
    state: ServerState
    moves: int
    warmup: int
    played: int = 0
    matches: int = 0  # ended, each then rematched over its seats' sockets
    seats_cpu: float = 0.0
    port: int = 40000
    started_cpu: float = 0.0
    started_seats: float = 0.0
    done: asyncio.Event = field(default_factory=asyncio.Event)
    measured: float = 0.0
    stopping: bool = False  # measured: the seats play no more

    def next_port(self) -> int:
        self.port += 1
        return self.port

    def moved(self) -> None:
        self.played += 1
        if self.played == self.warmup:
            self.started_cpu, self.started_seats = time.process_time(), self.seats_cpu
        elif self.played == self.warmup + self.moves:
            spent = time.process_time() - self.started_cpu
            self.measured = spent - (self.seats_cpu - self.started_seats)
            self.done.set()


async def serve(
    tables: int,
    moves: int,
    seed: int,
    database_url: str | None,
    target: int | None = None,
    *,
    reset: bool = False,
) -> tuple[float, int]:
    """Play ``moves`` moves (after as many again to warm up) at ``tables`` tables; the
    server's CPU seconds for them, and how many matches ended in the whole run. ``reset``:
    empty the PostgreSQL database at ``database_url`` first."""
    workdir = Path(tempfile.mkdtemp(prefix="parlour-serving-"))
    url = database_url or f"sqlite:///{workdir / 'serving.db'}"
    if database_url and reset:
        reset_postgres(database_url)
    os.environ.update(
        {
            "DATABASE_URL": url,
            "SECRET_KEY": "bench-secret",
            "DATA_DIR": str(workdir),
            "RATE_PER_SECOND": "1000000",
            "RATE_BURST": "1000000",
            "ANALYSIS_POLL_SECONDS": "0",
            **SHARED_ADDRESS_CAPS,
        }
    )
    from app.db import upgrade_to_head
    from app.main import create_app

    upgrade_to_head(url)
    if database_url and not reset:
        refuse_earlier_rooms(database_url)
    app = create_app()
    config = uvicorn.Config(
        app, ws=PROTOCOL_PATH, log_config=None, lifespan="on", ws_per_message_deflate=False
    )
    config.load()
    lifespan = LifespanOn(config)
    await lifespan.startup()
    run = Run(config, ServerState(), moves, warmup=moves)
    api = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=ORIGIN)
    try:
        tabled = []
        for number in range(tables):
            table = Table(run, number, rng=random.Random(seed * 1000 + number))
            cookies = []
            for index in range(2):
                response = await api.post(
                    "/api/session", json={"name": f"T{number}s{index}"}, headers={"origin": ORIGIN}
                )
                assert response.is_success, response.text
                cookies.append(str(response.cookies[COOKIE]))
                api.cookies.clear()
            options = {"target": target} if target else {}
            body = {"game": "cupid", "seats": 2, "options": options, "visibility": "private"}
            headers = [{"cookie": f"{COOKIE}={c}", "origin": ORIGIN} for c in cookies]
            made = await api.post("/api/rooms", json=body, headers=headers[0])
            room = made.json()
            joined = await api.post(f"/api/rooms/{room['id']}/join", json={}, headers=headers[1])
            started = await api.post(f"/api/rooms/{room['id']}/start", headers=headers[0])
            for answer in (made, joined, started):
                if not answer.is_success:
                    raise RuntimeError(f"{answer.request.url}: {answer.status_code} {answer.text}")
            table.room_id = str(room["id"])
            table.seats = [Seat(table, index, cookie) for index, cookie in enumerate(cookies)]
            tabled.append(table)
        for table in tabled:
            for seat in table.seats:
                seat.connect(run, table.room_id)
        await asyncio.wait_for(run.done.wait(), timeout=3600)
        run.stopping = True
        for table in tabled:
            for seat in table.seats:
                seat.close()
        await asyncio.sleep(0.5)  # the closes answered, the sockets' tasks ended
    finally:
        await api.aclose()
        await lifespan.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)
    return run.measured, run.matches


def refuse_earlier_rooms(database_url: str) -> None:
    """Stop unless the database holds no room: the server would load the open rooms of
    earlier runs as it starts, and their loading would be counted as this run's work."""
    from sqlalchemy import func, select

    from app.db import make_engine
    from app.models import Room

    engine = make_engine(database_url)
    with engine.connect() as connection:
        rooms = connection.execute(select(func.count()).select_from(Room)).scalar_one()
    engine.dispose()
    if rooms:
        raise SystemExit(
            f"bench.serving: the database holds {rooms} rooms of earlier runs, which the"
            " server would load as it starts; pass --reset-postgres to empty it first"
        )


def instructions(
    tables: int, moves: int, seed: int, database_url: str | None, target: int | None
) -> int:
    """What valgrind counts for a whole run of ``moves`` moves (start-up and warm-up too),
    on an emptied database when it is PostgreSQL's."""
    args = ["--tables", str(tables), "--moves", str(moves), "--seed", str(seed), "--no-write"]
    if database_url:
        args += ["--database-url", database_url, "--reset-postgres"]
    if target:
        args += ["--target", str(target)]
    return machine.instructions("bench.serving", args, timeout=7200)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(prog="python -m bench.serving", description=__doc__)
    p.add_argument("--tables", type=int, default=20, help="tables of two seats (20)")
    p.add_argument("--moves", type=int, default=4000, help="moves measured, after as many (4000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the moves chosen (1)")
    p.add_argument("--database-url", help="the server's database (default: a fresh SQLite file)")
    p.add_argument("--target", type=int, help="match target points (default: Cupid's 121)")
    p.add_argument(
        "--reset-postgres",
        action="store_true",
        help="drop and recreate schema public of --database-url first (not database 'test')",
    )
    p.add_argument(
        "--instructions",
        action="store_true",
        help=f"also count instructions per move under valgrind (--moves and {SPAN:,} more)",
    )
    p.add_argument("--results-dir", type=Path, default=machine.RESULTS)
    p.add_argument("--no-write", action="store_true", help="print only; record nothing")
    args = p.parse_args(argv)
    when = machine.now()
    spent, matches = uvloop.run(
        serve(
            args.tables,
            args.moves,
            args.seed,
            args.database_url,
            args.target,
            reset=args.reset_postgres,
        )
    )
    figures = [
        f"{args.moves} moves at {args.tables} tables: {1e6 * spent / args.moves:.1f} us of"
        " the server's CPU a move (this process, the seats' share taken out);"
        f" {matches} matches ended and were rematched"
    ]
    print(figures[0], flush=True)
    if args.instructions:
        fewer = instructions(args.tables, args.moves, args.seed, args.database_url, args.target)
        more = instructions(
            args.tables, args.moves + SPAN, args.seed, args.database_url, args.target
        )
        figures.append(
            f"{(more - fewer) // (2 * SPAN):,} instructions a move, the seats' included"
            f" (valgrind: {fewer:,} for the run of {args.moves} measured moves,"
            f" {more:,} for that of {args.moves + SPAN})"
        )
        print(figures[-1])
    if not args.no_write:
        title = "The server's work per move"
        path = machine.record_figures(
            args.results_dir, when, "serving", title, "bench.serving", argv, figures
        )
        print(f"recorded in {machine.shown(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
