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
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import os
import platform
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import orjson
import psutil
from websockets.asyncio.client import ClientConnection, connect

from app.config import SHARED_ADDRESS_CAPS
from bench.machine import (
    RESULTS,
    command_line,
    commit,
    cpu_model,
    now,
    shown,
    stamp,
    write_result,
)

ROOT = Path(__file__).resolve().parent.parent
COOKIE = "parlour_session"
SATURATED_RATE = "1000000"  # RATE_PER_SECOND and RATE_BURST for saturated runs
WS_IMPL = "auto"  # uvicorn --ws for both servers (--ws to compare implementations)


# --- processes ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Server:
    """A uvicorn server in its own process (the real app or the echo baseline)."""

    def __init__(self, app: str, env: dict[str, str], log_dir: Path, factory: bool) -> None:
        self.port = free_port()
        self.app = app
        self.env = env
        self.factory = factory
        self.log_path = log_dir / f"{app.split(':')[0].replace('.', '_')}-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> Server:
        command = [sys.executable, "-m", "uvicorn", self.app]
        if self.factory:
            command.append("--factory")
        command += [
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--ws",
            WS_IMPL,
            "--ws-per-message-deflate",
            "false",
            # As deployed behind a proxy that keeps the access log (ACCESS_LOG=false).
            "--no-access-log",
        ]
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **self.env},
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_raise_fd_limit,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("server did not start in 30 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


APP = "app.main:create_app"  # --app: benchmark a variant factory (e.g. a patched copy)
STALL_MS = 15  # the stall probe notes where the event loop was when it missed this long


def real_servers(
    database_url: str,
    data_dir: Path,
    processes: int,
    redis_url: str | None,
    app: str | None = None,
    **env: str,
) -> list[Server]:
    """The real server (``app``, by default ``--app``): one process, or ``processes``
    sharing the rooms through Redis."""
    from app.db import upgrade_to_head

    upgrade_to_head(database_url)
    base = {
        "DATABASE_URL": database_url,
        "SECRET_KEY": "bench-secret",
        "DATA_DIR": str(data_dir),
        "BOT_DELAY": "0.6",
        # Every simulated person connects from this machine's one address.
        **SHARED_ADDRESS_CAPS,
    }
    if processes > 1:
        if not redis_url:
            raise SystemExit("--processes needs Redis: --redis-url or REDIS_URL")
        base |= {"REDIS_URL": redis_url, "REDIS_PREFIX": f"bench{random.randrange(10**6)}"}
    servers: list[Server] = []
    try:
        for _ in range(processes):
            servers.append(Server(app or APP, {**base, **env}, data_dir, factory=True).start())
    except BaseException:
        stop_all(servers)
        raise
    return servers


def stop_all(servers: list[Server]) -> None:
    for server in servers:
        server.stop()


def echo_server(data_dir: Path) -> Server:
    return Server("bench.echo_server:app", {}, data_dir, factory=False).start()


def reset_postgres(url: str) -> None:
    """Empty a benchmark PostgreSQL database (never the test suite's database ``test``)."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url

    from app.db import make_engine

    if make_url(url).database in (None, "", "test", "postgres"):
        raise SystemExit("--reset-postgres refuses databases 'test' and 'postgres'")
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


# --- measurement --------------------------------------------------------------------


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

    def error(self, code: str) -> None:
        self.errors[code] += 1


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


# --- the generator ------------------------------------------------------------------


class _NoCookies(DefaultCookiePolicy):
    def set_ok(self, cookie: Any, request: Any) -> bool:
        return False


class Api:
    """The few HTTP calls a table needs, each as a given user (cookie)."""

    def __init__(self, base_url: str) -> None:
        # Idle connections are dropped well before the server's own idle timeout (uvicorn's
        # 5 s), so a request never goes out on a connection the server is closing.
        limits = httpx.Limits(
            max_connections=32, max_keepalive_connections=32, keepalive_expiry=2.0
        )
        self.client = httpx.AsyncClient(base_url=base_url, timeout=30, limits=limits)
        # One client for every user: keep no cookies, each call sends its user's own.
        self.client.cookies = CookieJar(policy=_NoCookies())  # type: ignore[assignment]

    async def close(self) -> None:
        await self.client.aclose()

    async def call(self, method: str, path: str, cookie: str | None, body: Any = None) -> Any:
        headers = {"cookie": f"{COOKIE}={cookie}"} if cookie else {}
        response = await self.client.request(method, path, json=body, headers=headers)
        if response.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:200]}")
        return response

    async def session(self, name: str) -> str:
        response = await self.call("POST", "/api/session", None, {"name": name})
        return response.cookies[COOKIE]

    async def new_table(self, cookies: list[str], game: str, options: dict[str, Any]) -> str:
        body = {"game": game, "seats": len(cookies), "options": options, "visibility": "private"}
        room = (await self.call("POST", "/api/rooms", cookies[0], body)).json()
        for cookie in cookies[1:]:
            await self.call("POST", f"/api/rooms/{room['id']}/join", cookie, {})
        await self.call("POST", f"/api/rooms/{room['id']}/start", cookies[0])
        return str(room["id"])

    async def rematch(self, room_id: str, cookie: str) -> str:
        room = (await self.call("POST", f"/api/rooms/{room_id}/rematch", cookie)).json()
        await self.call("POST", f"/api/rooms/{room['id']}/start", cookie)
        return str(room["id"])


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
        self.pending: dict[int, list[float]] = {}  # version -> [sent_at, seats still to see]
        self.over = asyncio.Event()
        self.rng = random.Random(index)

    # A state (or echo) for ``version`` reached ``seat``.
    def arrived(self, seat: int, version: int, now: float) -> None:
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

    def may_act(self, seat: int, version: int, text: str) -> None:
        """It is ``seat``'s turn at ``version``; ``text`` is the act message to send."""
        if self.acted[seat] >= version:
            return
        if self.gen.pace is None:
            self.send(seat, version, text)
        else:
            self.ready[seat], self.ready_version[seat] = text, version

    def send(self, seat: int, version: int, text: str) -> None:
        ws = self.sockets[seat]
        if ws is None or self.gen.stopping:
            return
        self.acted[seat] = version
        self.pending[version + 1] = [time.perf_counter(), float(self.seat_count)]
        self.gen.stats.sent += 1
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
                self.send(seat, version, text)

    async def reader(self, seat: int, ws: ClientConnection) -> None:
        on_message = self.gen.protocol.on_message
        stats = self.gen.stats
        try:
            async for raw in ws:
                stats.received += 1
                stats.received_bytes += len(raw)
                on_message(self, seat, raw)
        except Exception as error:
            if not self.gen.stopping and not self.over.is_set():
                stats.error(f"connection:{type(error).__name__}")
        else:
            if not self.gen.stopping and not self.over.is_set():
                stats.error(f"closed:{ws.close_code}")

    async def connect_all(self) -> list[asyncio.Task[None]]:
        self.seen = [-1] * self.seat_count
        self.acted = [-1] * self.seat_count
        self.ready = [None] * self.seat_count
        self.pending.clear()
        tasks = []
        for seat in range(self.seat_count):
            headers = {"cookie": f"{COOKIE}={self.cookies[seat]}"} if self.cookies else None
            url = f"{self.gen.ws_url(self, seat)}/ws/rooms/{self.room_id}"
            async with self.gen.handshakes:
                ws = await connect(
                    url,
                    additional_headers=headers,
                    compression=None,
                    ping_interval=None,
                    max_size=2**22,
                    open_timeout=60,
                )
            self.sockets[seat] = ws
            tasks.append(asyncio.ensure_future(self.reader(seat, ws)))
        return tasks

    async def close_all(self, tasks: list[asyncio.Task[None]]) -> None:
        for seat, ws in enumerate(self.sockets):
            self.sockets[seat] = None
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
                await asyncio.wait([waiter, gen.stop_future], return_when=asyncio.FIRST_COMPLETED)
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


class ParlourProtocol:
    """Real rooms on the real server: act with a random legal action when it is our turn."""

    def __init__(self, gen: Generator, options: dict[str, Any]) -> None:
        self.gen = gen
        self.options = options

    async def setup(self, table: Table) -> None:
        api = self.gen.api(table)
        table.cookies = [
            await api.session(f"T{table.index}s{seat}") for seat in range(table.seat_count)
        ]
        table.room_id = await api.new_table(
            table.cookies, table.game, self.options.get(table.game, {})
        )

    def begin(self, table: Table) -> None:
        pass  # the server sends each seat its state on connect

    async def rematch(self, table: Table) -> None:
        table.room_id = await self.gen.api(table).rematch(table.room_id, table.cookies[0])
        self.gen.stats.rematches += 1

    def on_message(self, table: Table, seat: int, raw: str | bytes) -> None:
        message = orjson.loads(raw)
        kind = message.get("type")
        stats = self.gen.stats
        if kind == "state":
            stats.state_messages += 1
            stats.state_bytes += len(raw)
            version = message["version"]
            table.arrived(seat, version, time.perf_counter())
            view = message["view"]
            if view.get("over"):
                if not table.over.is_set():
                    stats.matches_finished += 1
                    table.over.set()
                return
            legal = view.get("legal_actions")
            if legal and seat in view.get("to_act", ()):
                action = legal[table.rng.randrange(len(legal))]
                text = orjson.dumps({"type": "act", "version": version, "action": action})
                table.may_act(seat, version, text.decode())
        elif kind == "error":
            stats.error(str(message.get("code")))


class EchoProtocol:
    """The baseline: seats take turns (version n is answered by seat n mod seats)."""

    def __init__(self, gen: Generator, message_bytes: int) -> None:
        self.gen = gen
        overhead = len('{"type":"state","version":1000,"pad":""}')
        self.pad = "x" * max(0, message_bytes - overhead)

    def text(self, version: int) -> str:
        return f'{{"type":"state","version":{version},"pad":"{self.pad}"}}'

    async def setup(self, table: Table) -> None:
        table.room_id = f"echo-{table.index}-{random.getrandbits(32):08x}"

    def begin(self, table: Table) -> None:
        # The echo server greets nobody: every seat starts at version 0 as if told so.
        for seat in range(table.seat_count):
            table.arrived(seat, 0, time.perf_counter())
        table.may_act(0, 0, self.text(1))

    async def rematch(self, table: Table) -> None:  # echo tables never finish
        await self.setup(table)

    def on_message(self, table: Table, seat: int, raw: str | bytes) -> None:
        message = orjson.loads(raw)
        stats = self.gen.stats
        stats.state_messages += 1
        stats.state_bytes += len(raw)
        version = message["version"]
        table.arrived(seat, version, time.perf_counter())
        if version % table.seat_count == seat:
            table.may_act(seat, version, self.text(version + 1))


class Generator:
    def __init__(self, servers: list[Server], pace: float | None) -> None:
        # Table i's seat s talks to server (i + s) % n: with two processes, every room has
        # one seat on each, so every action crosses between them.
        self.ws_urls = [server.ws for server in servers]
        self.apis = [Api(server.http) for server in servers]
        self.pace = pace
        self.stats = Stats()
        self.stopping = False
        self.connected = 0
        self.started_tables = 0
        self.failed_tables = 0
        self.notes: list[str] = []
        self.protocol: Any = None
        self.handshakes = asyncio.Semaphore(64)
        self.stop_future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def check_send(self, task: asyncio.Future[None]) -> None:
        if not task.cancelled() and task.exception() is not None and not self.stopping:
            self.stats.error(f"send:{type(task.exception()).__name__}")

    def note(self, text: str) -> None:
        """Keep the first few failures verbatim, to print them."""
        if len(self.notes) < 5:
            self.notes.append(text)
            print(f"  ! {text}", file=sys.stderr, flush=True)

    def stop(self) -> None:
        self.stopping = True
        if not self.stop_future.done():
            self.stop_future.set_result(None)

    def api(self, table: Table) -> Api:
        """Where a table's rooms are opened (and so which process referees them)."""
        return self.apis[table.index % len(self.apis)]

    def ws_url(self, table: Table, seat: int) -> str:
        return self.ws_urls[(table.index + seat) % len(self.ws_urls)]

    async def close(self) -> None:
        for api in self.apis:
            await api.close()


@dataclass
class Result:
    label: str
    mode: str
    rooms: int
    connections: int
    seconds: float
    actions: int
    actions_per_s: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    errors: dict[str, int]
    server_cpu_pct: float
    server_cpu_us_per_action: float
    server_rss_mb: float
    server_rss_kb_per_conn: float
    generator_cpu_pct: float
    db_cpu_pct: float
    messages_per_action: float
    other_cpu_pct: float
    mean_state_bytes: float
    matches_finished: int
    rematches: int
    rss_samples: list[tuple[float, float]] = field(default_factory=list)
    window: tuple[float, float] = (0.0, 0.0)  # the measured window, in wall-clock time

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())


async def drive(
    servers: list[Server],
    *,
    label: str,
    protocol: Callable[[Generator], Any],
    tables: list[tuple[str, int]],
    pace: float | None,
    warmup: float,
    duration: float,
    sample_every: float = 5.0,
    quiet_wait: float = 0.0,
) -> Result:
    """Play ``tables`` (game, seats) on ``servers``; measure ``duration`` s after ``warmup``.

    With several server processes, their CPU and memory are added up."""
    gen = Generator(servers, pace)
    gen.protocol = protocol(gen)
    proc = Processes([psutil.Process(server.pid) for server in servers])
    runners = [
        asyncio.ensure_future(Table(gen, i, game, seats).run())
        for i, (game, seats) in enumerate(tables)
    ]
    want = sum(seats for _, seats in tables)
    # Every table set up and connected once (or failed), bounded in time.
    deadline = time.monotonic() + 120
    while gen.started_tables + gen.failed_tables < len(tables) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    print(
        f"  {label}: {gen.started_tables}/{len(tables)} tables playing; warm-up {warmup:g} s,"
        f" then {duration:g} s measured",
        file=sys.stderr,
        flush=True,
    )
    await asyncio.sleep(warmup)
    if quiet_wait:
        await wait_for_quiet(proc, quiet_wait)
    cpu0, gen0, t0 = _cpu(proc), time.process_time(), time.perf_counter()
    wall0 = time.time()
    all0, db0 = _busy(), _db_cpu()
    received0, finished0 = gen.stats.received, gen.stats.matches_finished
    start_mono = time.monotonic()
    samples: list[tuple[float, float]] = [(0.0, proc.memory_info().rss / 2**20)]
    while (elapsed := time.perf_counter() - t0) < duration:
        await asyncio.sleep(min(sample_every, duration - elapsed))
        samples.append((time.monotonic() - start_mono, proc.memory_info().rss / 2**20))
    cpu1, gen1, t1 = _cpu(proc), time.process_time(), time.perf_counter()
    wall1 = time.time()
    all1, db1 = _busy(), _db_cpu()
    received1, finished1 = gen.stats.received, gen.stats.matches_finished
    rss = proc.memory_info().rss
    gen.stop()
    await asyncio.wait(runners, timeout=30)
    for runner in runners:
        runner.cancel()
    await gen.close()
    stats = gen.stats
    window = [lat for at, lat in stats.done if t0 <= at <= t1]
    seconds = t1 - t0
    actions = len(window)
    lat_ms = [x * 1000 for x in window]
    return Result(
        label=label if len(servers) == 1 else f"{label}, {len(servers)} processes",
        mode="saturated" if pace is None else f"paced {pace:g} s",
        rooms=len(tables),
        connections=want,
        seconds=seconds,
        actions=actions,
        actions_per_s=actions / seconds,
        p50_ms=percentile(lat_ms, 50),
        p95_ms=percentile(lat_ms, 95),
        p99_ms=percentile(lat_ms, 99),
        max_ms=max(lat_ms) if lat_ms else float("nan"),
        errors=dict(stats.errors),
        server_cpu_pct=100 * (cpu1 - cpu0) / seconds,
        server_cpu_us_per_action=1e6 * (cpu1 - cpu0) / actions if actions else float("nan"),
        server_rss_mb=rss / 2**20,
        server_rss_kb_per_conn=rss / 1024 / want,
        generator_cpu_pct=100 * (gen1 - gen0) / seconds,
        db_cpu_pct=100 * (db1 - db0) / seconds,
        messages_per_action=(
            (received1 - received0) / (actions * (want / len(tables))) if actions else 0.0
        ),
        other_cpu_pct=100 * ((all1 - all0) - (cpu1 - cpu0) - (gen1 - gen0) - (db1 - db0)) / seconds,
        mean_state_bytes=stats.state_bytes / stats.state_messages if stats.state_messages else 0,
        matches_finished=finished1 - finished0,
        rematches=stats.rematches,
        rss_samples=samples,
        window=(wall0, wall1),
    )


class Processes:
    """Several server processes measured as one: CPU times and memory added up."""

    def __init__(self, processes: list[psutil.Process]) -> None:
        self.processes = processes

    def cpu_times(self) -> Any:
        return _Times(sum(_cpu(p) for p in self.processes))

    def memory_info(self) -> Any:
        return _Memory(sum(p.memory_info().rss for p in self.processes))


@dataclass
class _Times:
    user: float
    system: float = 0.0


@dataclass
class _Memory:
    rss: int


async def wait_for_quiet(server: Processes, limit: float) -> None:
    """Wait (at most ``limit`` s) until other processes use under a quarter of a core."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        all0, own0, srv0, db0 = _busy(), time.process_time(), _cpu(server), _db_cpu()
        await asyncio.sleep(1.0)
        other = (_busy() - all0) - (time.process_time() - own0) - (_cpu(server) - srv0)
        if other - (_db_cpu() - db0) < 0.25:
            return
    print("  (the machine stayed busy; measuring anyway)", file=sys.stderr, flush=True)


def _busy() -> float:
    """CPU seconds the whole machine has spent busy (every core, every process)."""
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


def _db_cpu() -> float:
    """CPU seconds of the local PostgreSQL processes (the database's share of the work)."""
    total = 0.0
    for proc in psutil.process_iter(["name"]):
        if (proc.info["name"] or "").startswith("postgres"):
            with contextlib.suppress(psutil.Error):
                times = proc.cpu_times()
                total += times.user + times.system
    return total


def _cpu(proc: psutil.Process | Processes) -> float:
    times = proc.cpu_times()
    return times.user + times.system


@dataclass
class IdleResult:
    label: str
    connections: int
    rss_before_mb: float
    rss_after_mb: float
    kb_per_connection: float
    errors: dict[str, int]


async def measure_idle(
    server: Server,
    label: str,
    make_protocol: Callable[[Generator], Any],
    tables: list[tuple[str, int]],
    *,
    greeted: bool,
) -> IdleResult:
    """Open one WebSocket per seat of ``tables`` that never acts; the server's RSS delta.

    ``greeted``: the server sends each connection its state on connect (wait for it).
    """
    gen = Generator([server], pace=3600.0)  # paced so slowly nobody acts
    gen.protocol = make_protocol(gen)
    proc = psutil.Process(server.pid)
    idle = [Table(gen, i, game, seats) for i, (game, seats) in enumerate(tables)]
    sem = asyncio.Semaphore(16)

    async def setup(table: Table) -> None:
        async with sem:
            await gen.protocol.setup(table)

    await asyncio.gather(*(setup(t) for t in idle))
    await asyncio.sleep(1.0)
    before = proc.memory_info().rss
    all_tasks = await asyncio.gather(*(t.connect_all() for t in idle))
    want = sum(t.seat_count for t in idle)
    deadline = time.monotonic() + 60
    while greeted and time.monotonic() < deadline:
        if sum(s >= 0 for t in idle for s in t.seen) >= want:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(2.0)
    after = proc.memory_info().rss
    gen.stop()
    await asyncio.gather(*(t.close_all(k) for t, k in zip(idle, all_tasks, strict=True)))
    await gen.close()
    return IdleResult(
        label=label,
        connections=want,
        rss_before_mb=before / 2**20,
        rss_after_mb=after / 2**20,
        kb_per_connection=(after - before) / 1024 / want,
        errors=dict(gen.stats.errors),
    )


# --- profiling ----------------------------------------------------------------------


def start_profiler(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("profile: py-spy is not installed (pip install py-spy); skipped")
        return None
    command = [spy, "record", "-p", str(pid), "-d", str(int(seconds)), "-r", "250"]
    command += ["-f", "raw", "-o", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


# Where the event loop's time goes: (label, function name, file) matched on any frame.
PROFILE_BUCKETS: list[tuple[str, str, str]] = [
    ("ws route: receive loop and everything it awaits", "play", "app/routes/ws.py"),
    ("  Referee.act (one action, under the room lock)", "Referee.act", "app/rooms/referee.py"),
    ("    EventLog.append (waiting for the group commit)", "EventLog.append", "app/rooms/"),
    ("    rules.apply (the game's own work)", ".apply", "games/"),
    ("    notifiers (hub, computer players, other processes)", "Notifiers.room_changed", "app/"),
    ("  ClientMessage.validate_json (pydantic)", ".validate_json", "pydantic"),
    ("  WebSocket.receive (starlette + uvicorn)", "WebSocket.receive", "starlette/"),
    ("Connection._run_sender (send loop)", "Connection._run_sender", "app/connections/hub.py"),
    ("  render.pending (what a connection has yet to see)", "pending", "app/rooms/render.py"),
    ("    rules.view (the seat's view)", ".view", "games/"),
    ("  WebSocket.send_text (starlette + uvicorn)", "WebSocket.send_text", "starlette/"),
    ("registry: loading rooms (replay of the log)", "RoomRegistry.get", "app/rooms/"),
    ("cluster: notices and forwarding", "", "app/cluster/"),
    ("HTTP API on the loop (rematch, start: setup)", "", "uvicorn/protocols/http/"),
    ("SQLAlchemy, anywhere on the loop", "", "sqlalchemy/"),
]
PACKAGES = ("app/", "games/", "sqlalchemy/", "uvicorn/", "starlette/", "fastapi/", "websockets/")
PACKAGES += ("pydantic", "asyncio/", "anyio/", "orjson", "dataclasses.py")


def summarise_profile(path: Path, top: int = 15) -> list[str]:
    """Where the event-loop thread spends its time, from py-spy raw (collapsed) stacks.

    Samples of other threads (anyio's pool, which runs the sync HTTP endpoints) are
    counted apart; py-spy sees their idle ``Condition.wait`` as busy, so those are dropped.
    """
    total = pool = 0
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    buckets: Counter[str] = Counter()
    packages: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [_short(f) for f in stack.split(";")]
        if frames[0].startswith("Thread._bootstrap"):
            if not frames[-1].startswith(("Condition.wait", "Queue.get")):
                pool += count
            continue
        total += count
        own[frames[-1]] += count
        leaf = frames[-1].partition(" (")[2]
        packages[next((p for p in PACKAGES if leaf.startswith(p)), "other")] += count
        for name in set(frames):
            inclusive[name] += count
        for label, func, where in PROFILE_BUCKETS:
            if any(_matches(f, func, where) for f in frames):
                buckets[label] += count
    if not total:
        return ["profile: no samples"]
    lines = [
        f"profile: {total} samples of the server's event-loop thread (py-spy, 250 Hz, busy only)"
        f" + {pool} busy samples in worker threads (sync HTTP endpoints)",
        "  share of the event loop's busy time, inclusive:",
    ]
    for label, _, _ in PROFILE_BUCKETS:
        lines.append(f"    {100 * buckets[label] / total:5.1f}%  {label}")
    lines.append("  self time by package:")
    shares = [f"{name.strip('/')} {100 * n / total:.0f}%" for name, n in packages.most_common()]
    lines.append("    " + ", ".join(shares))
    lines.append("  top self time:")
    for name, count in own.most_common(top):
        lines.append(f"    {100 * count / total:5.1f}%  {name}")
    lines.append("  top inclusive in app/ and games/:")
    ours = [(n, c) for n, c in inclusive.most_common() if "(app/" in n or "(games/" in n]
    for name, count in ours[:top]:
        lines.append(f"    {100 * count / total:5.1f}%  {name}")
    return lines


def _matches(frame: str, func: str, where: str) -> bool:
    name, _, path = frame.partition(" (")
    if where not in path:
        return False
    return not func or name == func or (func.startswith(".") and name.endswith(func))


def _short(frame: str) -> str:
    """'func (/long/path/site-packages/pkg/mod.py:12)' -> 'func (pkg/mod.py)'."""
    match = re.match(r"^(.*) \((.*?)(?::\d+)?\)$", frame)
    if not match:
        return frame
    name, path = match.groups()
    for marker in ("site-packages/", "python3.11/", str(ROOT) + "/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{name} ({path})"


# --- reporting ----------------------------------------------------------------------


def machine() -> str:
    """CPU, cores, memory, OS and Python: the line each load entry starts with."""
    mem = psutil.virtual_memory().total / 2**30
    return (
        f"{cpu_model()}, {os.cpu_count()} cores, {mem:.0f} GiB, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}"
    )


def stall_report(paths: list[Path], window: tuple[float, float]) -> list[str]:
    """What the stall probe (bench/stall_probe.py) saw in the measured window, over every
    server process: the event loop's lag, the garbage collector's pauses and where the
    loop was whenever it stalled."""
    start, end = window
    lags: list[float] = []
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    stalls: list[dict[str, Any]] = []
    for path in paths:
        report = orjson.loads(path.read_bytes())
        lags += [late * 1000 for at, late in report["lags"] if start <= at <= end]
        for at, generation, took in report["pauses"]:
            if start <= at <= end:
                pauses[generation].append(took * 1000)
        stalls += [s for s in report["stalls"] if start <= s["at"] <= end]
    if not lags:
        return ["stall probe: no report (did the servers exit cleanly?)"]
    seconds = end - start
    out = [
        f"stall probe ({len(paths)} process(es), {seconds:.0f} s): event-loop lag"
        f" p50 {percentile(lags, 50):.2f} / p99 {percentile(lags, 99):.2f}"
        f" / p99.9 {percentile(lags, 99.9):.2f} / max {max(lags):.2f} ms;"
        f" {sum(x > 10 for x in lags)} wake-ups over 10 ms, {sum(x > 30 for x in lags)} over 30 ms",
    ]
    for generation, took in pauses.items():
        if took:
            out.append(
                f"  GC generation {generation}: {len(took)} pauses, p50 {percentile(took, 50):.2f}"
                f" / max {max(took):.2f} ms, {sum(took):.0f} ms in all"
            )
    in_gc = sum(s["in_gc"] for s in stalls)
    out.append(
        f"  stalls of {STALL_MS} ms or more: {len(stalls)} ({in_gc} during a GC);"
        " where the loop was:"
    )
    for where, count in Counter(s["where"] for s in stalls).most_common(10):
        out.append(f"    {count:4d}  {where}")
    return out


def format_result(r: Result) -> list[str]:
    errors = ", ".join(f"{k}={v}" for k, v in sorted(r.errors.items())) or "none"
    lines = [
        f"{r.label}: {r.mode}, {r.rooms} rooms, {r.connections} connections, {r.seconds:.1f} s",
        f"  actions/s            {r.actions_per_s:10.1f}   ({r.actions} in the window)",
        f"  latency ms           p50 {r.p50_ms:.2f}  p95 {r.p95_ms:.2f}  p99 {r.p99_ms:.2f}"
        f"  max {r.max_ms:.2f}",
        f"  errors               {r.error_count} ({errors})",
        f"  server CPU           {r.server_cpu_pct:.1f}% of a core,"
        f" {r.server_cpu_us_per_action:.0f} us per action",
        f"  server RSS           {r.server_rss_mb:.1f} MB, {r.server_rss_kb_per_conn:.1f} KB"
        " per connection",
        f"  generator CPU        {r.generator_cpu_pct:.1f}% of a core"
        + ("  (SATURATED: the generator limits this run)" if r.generator_cpu_pct > 90 else ""),
        f"  database CPU         {r.db_cpu_pct:.1f}% of a core (local PostgreSQL processes)",
        f"  other processes CPU  {max(0.0, r.other_cpu_pct):.1f}% of a core (machine is shared)",
        f"  state message        {r.mean_state_bytes:.0f} bytes on average;"
        f" {r.messages_per_action:.2f} messages received per action per connection",
        f"  matches              {r.matches_finished} finished in the window;"
        f" {r.rematches} rematches in the whole run",
    ]
    if len(r.rss_samples) > 2:
        first, last = r.rss_samples[0][1], r.rss_samples[-1][1]
        peak = max(s for _, s in r.rss_samples)
        minutes = max(1e-9, r.rss_samples[-1][0] / 60)
        lines.append(
            f"  server RSS over time {first:.1f} -> {last:.1f} MB (peak {peak:.1f}),"
            f" {(last - first) / minutes:+.2f} MB/min"
        )
    return lines


def format_idle(idle: IdleResult) -> str:
    errors = sum(idle.errors.values())
    return (
        f"idle {idle.label}: {idle.connections} connections: server RSS"
        f" {idle.rss_before_mb:.1f} -> {idle.rss_after_mb:.1f} MB,"
        f" {idle.kb_per_connection:.1f} KB per connection (target <= 30), errors {errors}"
        + (f" {idle.errors}" if errors else "")
    )


def table_row(r: Result, db: str) -> str:
    errors = r.error_count
    return (
        f"| {r.label} | {db} | {r.mode} | {r.rooms} | {r.actions_per_s:,.0f} | {r.p50_ms:.2f} |"
        f" {r.p95_ms:.2f} | {r.p99_ms:.2f} | {errors} | {r.server_cpu_pct:.0f}% |"
        f" {r.server_cpu_us_per_action:.0f} | {r.server_rss_mb:.0f} MB |"
        f" {r.server_rss_kb_per_conn:.0f} KB | {r.generator_cpu_pct:.0f}% |"
        f" {r.db_cpu_pct:.0f}% | {max(0.0, r.other_cpu_pct):.0f}% |"
    )


# --- the runs -----------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n")[0])
    p.add_argument(
        "--runs",
        default="saturated,baseline,paced,idle",
        help="comma list of saturated, baseline, paced, paced-baseline, idle, profile, stalls"
        " (default: saturated,baseline,paced,idle)",
    )
    p.add_argument("--database-url", help="server database (default: fresh SQLite file)")
    p.add_argument(
        "--reset-postgres",
        action="store_true",
        help="drop and recreate schema public of --database-url first (not database 'test')",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes sharing the rooms (saturated and paced runs; needs Redis)",
    )
    p.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="Redis for --processes > 1 (default: REDIS_URL, else the local one)",
    )
    p.add_argument("--games", default="cupid", help="comma list: cupid, coins (default cupid)")
    p.add_argument("--target", type=int, help="match target points (shorter matches)")
    p.add_argument("--rooms", type=int, default=100, help="rooms in saturated runs (100)")
    p.add_argument("--paced-rooms", type=int, default=500, help="rooms in the paced run (500)")
    p.add_argument("--pace", type=float, default=2.0, help="paced: seconds between acts (2)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (5)")
    p.add_argument("--duration", type=float, default=20.0, help="saturated seconds (20)")
    p.add_argument("--paced-duration", type=float, default=60.0, help="paced seconds (60)")
    p.add_argument("--idle", type=int, default=2000, help="idle connections (2000)")
    p.add_argument("--profile-duration", type=float, default=15.0, help="profiled seconds (15)")
    p.add_argument("--sample-every", type=float, default=5.0, help="RSS sample period (5 s)")
    p.add_argument(
        "--app",
        default=APP,
        help="server app factory (default app.main:create_app; set PYTHONPATH for others)",
    )
    p.add_argument(
        "--ws", default="auto", help="uvicorn --ws for both servers (auto, as `make run`)"
    )
    p.add_argument(
        "--quiet-wait",
        type=float,
        default=0.0,
        help="before measuring, wait up to this many s for other processes to go quiet",
    )
    p.add_argument(
        "--results-dir",
        type=Path,
        default=RESULTS,
        help="where to record the run (default: bench/results)",
    )
    p.add_argument("--no-write", action="store_true", help="print only; record nothing")
    p.add_argument("--note", default="", help="a line to add to the recorded run")
    return p.parse_args(argv)


def game_tables(games: list[str], rooms: int) -> list[tuple[str, int]]:
    seats = {"cupid": 2, "coins": 3}
    return [(games[i % len(games)], seats[games[i % len(games)]]) for i in range(rooms)]


async def main(args: argparse.Namespace, command: str) -> int:
    global APP, WS_IMPL
    APP, WS_IMPL = args.app, args.ws
    runs = [r.strip() for r in args.runs.split(",") if r.strip()]
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    options: dict[str, dict[str, Any]] = {}
    if args.target:
        options = {g: {"target": args.target} for g in games}
    workdir = Path(tempfile.mkdtemp(prefix="parlour-bench-"))
    _raise_fd_limit()
    results: list[Result] = []
    db_label = "SQLite"
    if args.database_url:
        scheme = str(args.database_url).split("://", 1)[0].split("+", 1)[0]
        names = {"postgresql": "PostgreSQL", "postgres": "PostgreSQL", "sqlite": "SQLite"}
        db_label = names.get(scheme, scheme)
    lines_out: list[str] = []
    stall_lines: list[str] = []

    def fresh_db(name: str) -> str:
        if args.database_url:
            if args.reset_postgres:
                reset_postgres(args.database_url)
            return str(args.database_url)
        return f"sqlite:///{workdir / name}.db"

    def show(lines: list[str]) -> None:
        print("\n".join(lines), flush=True)
        lines_out.extend(lines)

    def parlour(pace: float | None) -> Callable[[Generator], Any]:
        return lambda gen: ParlourProtocol(gen, options)

    real_sat: Result | None = None
    base: Result | None = None
    fast = {"RATE_PER_SECOND": SATURATED_RATE, "RATE_BURST": SATURATED_RATE}

    async def measure(
        servers: list[Server], label: str, protocol: Callable[[Generator], Any], *, paced: bool
    ) -> Result:
        """One run on ``servers`` (stopped after it), saturated or paced; shown and kept."""
        try:
            result = await drive(
                servers,
                label=label,
                protocol=protocol,
                tables=game_tables(games, args.paced_rooms if paced else args.rooms),
                pace=args.pace if paced else None,
                warmup=args.warmup,
                duration=args.paced_duration if paced else args.duration,
                sample_every=args.sample_every,
                quiet_wait=args.quiet_wait,
            )
        finally:
            stop_all(servers)
        results.append(result)
        show(format_result(result))
        return result

    when = now()
    print(
        f"bench.load: {stamp(when)}; {machine()}; commit {commit()}; workdir {workdir}",
        flush=True,
    )
    try:
        if "saturated" in runs:
            servers = real_servers(
                fresh_db("saturated"), workdir, args.processes, args.redis_url, **fast
            )
            real_sat = await measure(servers, "parlour", parlour(None), paced=False)
        if "baseline" in runs:
            size = int(real_sat.mean_state_bytes) if real_sat else 0
            base = await measure(
                [echo_server(workdir)],
                "echo baseline",
                lambda gen: EchoProtocol(gen, size or 1400),
                paced=False,
            )
        if real_sat and base:
            ratio = real_sat.actions_per_s / base.actions_per_s if base.actions_per_s else 0.0
            show([f"ratio actions/s / baseline round trips/s = {ratio:.2f} (target >= 0.5)"])
        if "paced" in runs:
            servers = real_servers(fresh_db("paced"), workdir, args.processes, args.redis_url)
            await measure(servers, "parlour", parlour(args.pace), paced=True)
        if "paced-baseline" in runs:
            # The bare transport under the paced load: the latency floor of this machine,
            # the generator and the stack, with no game and no database.
            size = int(real_sat.mean_state_bytes) if real_sat else 0
            await measure(
                [echo_server(workdir)],
                "echo baseline",
                lambda gen: EchoProtocol(gen, size or 900),
                paced=True,
            )
        if "stalls" in runs:
            reports = workdir / "stalls"
            reports.mkdir(exist_ok=True)
            servers = real_servers(
                fresh_db("stalls"),
                workdir,
                args.processes,
                args.redis_url,
                app="bench.stall_probe:create_app",
                STALL_PROBE_APP=APP,
                STALL_REPORT=str(reports / "{pid}.json"),
                STALL_MS=str(STALL_MS),
            )
            probed = await measure(servers, "parlour (stall probe)", parlour(args.pace), paced=True)
            stall_lines = stall_report(sorted(reports.glob("*.json")), probed.window)
            show(stall_lines)
        idles: list[IdleResult] = []
        if "idle" in runs:
            tables = game_tables(games[:1], max(1, args.idle // game_tables(games, 1)[0][1]))
            server = real_servers(fresh_db("idle"), workdir, 1, None)[0]
            try:
                idles.append(
                    await measure_idle(server, "parlour", parlour(None), tables, greeted=True)
                )
            finally:
                server.stop()
            server = echo_server(workdir)
            try:
                idles.append(
                    await measure_idle(
                        server,
                        "echo baseline",
                        lambda gen: EchoProtocol(gen, 0),
                        tables,
                        greeted=False,
                    )
                )
            finally:
                server.stop()
            for idle in idles:
                show([format_idle(idle)])
        profile_lines: list[str] = []
        if "profile" in runs:
            server = real_servers(fresh_db("profile"), workdir, 1, None, **fast)[0]
            out = workdir / "profile.txt"
            try:

                async def profiled() -> Result:
                    task = asyncio.ensure_future(
                        drive(
                            [server],
                            label="parlour (profiled)",
                            protocol=parlour(None),
                            tables=game_tables(games, args.rooms),
                            pace=None,
                            warmup=args.warmup,
                            duration=args.profile_duration + 2,
                        )
                    )
                    await asyncio.sleep(args.warmup + 3)
                    spy = start_profiler(server.pid, args.profile_duration, out)
                    result = await task
                    if spy is not None:
                        _, err = await asyncio.to_thread(spy.communicate)
                        if spy.returncode:
                            print(f"profile: py-spy failed: {err.decode()[-500:]}")
                    return result

                prof = await profiled()
            finally:
                server.stop()
            show(format_result(prof))
            if out.exists():
                profile_lines = summarise_profile(out)
                show(profile_lines)
                show([f"  raw stacks: {out}"])
    except BaseException:
        print(f"server logs and databases kept in {workdir}", flush=True)
        raise

    if not args.no_write and lines_out:
        entry = result_entry(
            args,
            command,
            when,
            db_label,
            results,
            real_sat,
            base,
            idles,
            profile_lines + stall_lines,
        )
        kind = "load-" + (re.sub(r"[^a-z0-9]+", "-", db_label.lower()).strip("-") or "db")
        path = write_result(args.results_dir, when, kind, entry)
        print(f"recorded in {shown(path)}")
    bad = sum(r.error_count for r in results) + sum(sum(i.errors.values()) for i in idles)
    if bad or profile_lines:
        # Worth a look: the server logs after errors, the raw stacks of a profile.
        print(f"server logs and databases kept in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if bad else 0


def result_entry(
    args: argparse.Namespace,
    command: str,
    when: dt.datetime,
    db: str,
    results: list[Result],
    real_sat: Result | None,
    base: Result | None,
    idles: list[IdleResult],
    reports: list[str],
) -> list[str]:
    """The recorded run: a Markdown file with the command, the machine and every figure."""
    out = [
        f"# Load benchmark, {stamp(when)} — {db}, commit {commit()}",
        "",
        f"Command: `{command}`.",
        "",
        f"Machine: {machine()}. Games: {args.games}"
        + (f", target {args.target}" if args.target else "")
        + f". Warm-up {args.warmup:g} s.",
        "",
        f"Saturated runs raise the server's per-connection rate limit to {SATURATED_RATE} a"
        " second; paced runs keep its defaults. How the benchmark works: bench/README.md.",
    ]
    if args.note:
        out += ["", args.note]
    if results:
        out += [
            "",
            "| server | db | mode | rooms | actions/s | p50 ms | p95 ms | p99 ms | errors |"
            " server CPU | µs/action | server RSS | RSS/conn | generator CPU | DB CPU |"
            " other CPU |",
            "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
        ]
        out += [table_row(r, "—" if r.label.startswith("echo") else db) for r in results]
    if real_sat and base and base.actions_per_s:
        ratio = real_sat.actions_per_s / base.actions_per_s
        out += ["", f"Ratio actions/s ÷ baseline round trips/s: **{ratio:.2f}** (target ≥ 0.5)."]
    for r in results:
        if len(r.rss_samples) > 2:
            first, last = r.rss_samples[0][1], r.rss_samples[-1][1]
            minutes = max(1e-9, r.rss_samples[-1][0] / 60)
            out += [
                "",
                f"Server RSS during the {r.label} {r.mode} run ({r.seconds:.0f} s): {first:.1f} → "
                f"{last:.1f} MB ({(last - first) / minutes:+.2f} MB/min).",
            ]
    for idle in idles:
        out += ["", format_idle(idle)]
    if reports:  # the profile's and the stall probe's
        out += ["", "```", *reports, "```"]
    return out


def cli(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    command = command_line("bench.load", argv)
    try:
        import uvloop
    except ImportError:  # the generator keeps up far worse on the default event loop
        return asyncio.run(main(args, command))
    return uvloop.run(main(args, command))


if __name__ == "__main__":
    sys.exit(cli())
