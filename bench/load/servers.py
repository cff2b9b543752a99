"""The server processes a load run starts: the real server (one process, or several sharing
the rooms through Redis) and the echo baseline, each uvicorn in a process of its own; and,
for the side-by-side run, boardgame.io's own server (node, bench/bgio/server.js)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil

from app.config import SHARED_ADDRESS_CAPS
from app.http.websocket_protocol import PROTOCOL_PATH
from bench.machine import ROOT, run_npm, shown

APP = "app.main:create_app"  # the real server's factory (--app benchmarks a variant)
ECHO_APP = "bench.echo_server:app"
WS_IMPL = PROTOCOL_PATH  # uvicorn --ws for both servers, as `make run` (--ws compares)
SATURATED_RATE = "1000000"  # RATE_PER_SECOND and RATE_BURST for saturated runs
# The environment that raises the server's per-connection rate limit for a saturated run.
RATE_LIMIT_RAISED = {"RATE_PER_SECOND": SATURATED_RATE, "RATE_BURST": SATURATED_RATE}
# boardgame.io, pinned (with its dependencies) by bench/bgio/package-lock.json; installed by
# `npm ci` into bench/bgio/node_modules (git-ignored) the first time a run needs it.
BGIO_VERSION = "0.50.2"
BGIO_DIR = ROOT / "bench" / "bgio"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def raise_fd_limit() -> None:
    """As many open files as the system allows: every connection is one, on both sides."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class PortTaken(RuntimeError):
    """Another program took the server's port before it could bind it."""


class Server:
    """A uvicorn server in its own process (the real app or the echo baseline)."""

    def __init__(
        self,
        app: str,
        env: dict[str, str],
        log_dir: Path,
        *,
        factory: bool,
        ws: str,
        graceful: bool = False,
    ) -> None:
        self.port = free_port()
        self.app = app
        # Started as `python -m app.serve` starts it (its graceful stop on SIGTERM, the
        # server's own options), rather than by uvicorn's command line.
        self.graceful = graceful
        self.env = env
        self.factory = factory
        self.ws_impl = ws
        self.log_dir = log_dir
        self.log_stem = app.split(":")[0].replace(".", "_")
        self.process: subprocess.Popen[bytes] | None = None
        self.started_once = False

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"{self.log_stem}-{self.port}.log"

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

    def command(self) -> list[str]:
        if self.graceful:
            address = ["--host", "127.0.0.1", "--port", str(self.port)]
            return [sys.executable, "-m", "app.serve", "--no-migrate", *address]
        command = [sys.executable, "-m", "uvicorn", self.app]
        if self.factory:
            command.append("--factory")
        return [
            *command,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--ws",
            self.ws_impl,
            "--ws-per-message-deflate",
            "false",
            # As deployed behind a proxy that keeps the access log (ACCESS_LOG=false).
            "--no-access-log",
        ]

    def start(self) -> Server:
        """Start (again, on the same port, after ``stop`` or ``terminate``); return once
        it listens. Another program may take the port chosen before the server binds it:
        the first start then tries other ports (its clients do not know it yet)."""
        for _ in range(5):
            try:
                self._start_once()
            except PortTaken:
                if self.started_once:
                    raise
                self.port = free_port()
                continue
            self.started_once = True
            return self
        raise RuntimeError(f"no free port found for {self.app}")

    def _start_once(self) -> None:
        command = self.command()
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **self.env},
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=raise_fd_limit,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                logged = self.log_path.read_text()[-2000:]
                if "address already in use" in logged.lower():
                    raise PortTaken(self.port)
                raise RuntimeError(f"server exited: {logged}")
            if self.listening():
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("server did not start in 30 s")

    def listening(self) -> bool:
        """Whether this server's own process (or one it started) listens on its port.

        Not merely whether the port answers: the port was free when it was chosen, but
        until the server binds it another program on the machine (another test's server)
        may take it, and a connection would then reach that one."""
        assert self.process is not None
        try:
            started = psutil.Process(self.process.pid)
            for process in (started, *started.children(recursive=True)):
                for connection in process.net_connections(kind="tcp"):
                    if (
                        connection.status == psutil.CONN_LISTEN
                        and connection.laddr.port == self.port
                    ):
                        return True
        except psutil.Error:  # it (or a child) exited meanwhile: asked again, or poll() says
            return False
        return False

    def terminate(self) -> int:
        """SIGTERM, as a deploy stops a process; its exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def stop_all(servers: list[Server]) -> None:
    for server in servers:
        server.stop()


@contextlib.contextmanager
def stopped_after(servers: list[Server]) -> Iterator[list[Server]]:
    """``servers``, stopped when the block ends, however it ends."""
    try:
        yield servers
    finally:
        stop_all(servers)


@dataclass(frozen=True)
class Launcher:
    """Starts the servers of one benchmark invocation, as its command line asks.

    ``workdir`` keeps the servers' logs and their SQLite databases; ``database_url`` is the
    PostgreSQL database every run shares instead (emptied first with ``reset_postgres``).
    """

    workdir: Path
    database_url: str | None = None
    reset_postgres: bool = False
    processes: int = 1
    redis_url: str | None = None
    app: str = APP
    ws: str = WS_IMPL

    @property
    def database_label(self) -> str:
        """The database as the report names it: SQLite, PostgreSQL (or the URL's scheme)."""
        if not self.database_url:
            return "SQLite"
        scheme = self.database_url.split("://", 1)[0].split("+", 1)[0]
        names = {"postgresql": "PostgreSQL", "postgres": "PostgreSQL", "sqlite": "SQLite"}
        return names.get(scheme, scheme)

    def fresh_database(self, run: str) -> str:
        """A database for ``run``: a new SQLite file, or the PostgreSQL one (reset if asked)."""
        if self.database_url:
            if self.reset_postgres:
                reset_postgres(self.database_url)
            return self.database_url
        return f"sqlite:///{self.workdir / run}.db"

    def parlour(
        self,
        run: str,
        *,
        one_process: bool = False,
        app: str | None = None,
        env: dict[str, str] | None = None,
        graceful: bool = False,
    ) -> list[Server]:
        """The real server (``app``, by default ``--app``) on a fresh database, with ``env``
        added to its environment: one process, or ``--processes`` sharing the rooms
        through Redis; ``graceful``: each started as ``python -m app.serve`` starts it."""
        from app.db import upgrade_to_head

        database_url = self.fresh_database(run)
        processes = 1 if one_process else self.processes
        upgrade_to_head(database_url)
        base = {
            "DATABASE_URL": database_url,
            "SECRET_KEY": "bench-secret",
            "DATA_DIR": str(self.workdir),
            "BOT_DELAY": "0.6",
            # Every simulated person connects from this machine's one address.
            **SHARED_ADDRESS_CAPS,
        }
        if graceful:
            base["ACCESS_LOG"] = "false"  # as uvicorn's --no-access-log below
        if processes > 1:
            if not self.redis_url:
                raise SystemExit("--processes needs Redis: --redis-url or REDIS_URL")
            base |= {"REDIS_URL": self.redis_url, "REDIS_PREFIX": f"bench{random.randrange(10**6)}"}
        servers: list[Server] = []
        try:
            for _ in range(processes):
                server = Server(
                    app or self.app,
                    {**base, **(env or {})},
                    self.workdir,
                    factory=True,
                    ws=self.ws,
                    graceful=graceful,
                )
                servers.append(server.start())
        except BaseException:
            stop_all(servers)
            raise
        return servers

    def echo(self) -> list[Server]:
        """The echo baseline (bench/echo_server.py): one process, no database."""
        return [Server(ECHO_APP, {}, self.workdir, factory=False, ws=self.ws).start()]

    def bgio(self, node: str) -> list[Server]:
        """boardgame.io's server playing Cupid (bench/bgio/server.js): one process, in memory."""
        install_bgio()
        return [BgioServer(node, self.workdir).start()]


class BgioServer(Server):
    """boardgame.io's own server (koa + socket.io, in-memory storage) run by ``node``: the
    binary itself (bench.machine.node_bin), so the process measured is the one working."""

    def __init__(self, node: str, log_dir: Path) -> None:
        super().__init__("bench/bgio/server.js", {"NODE_ENV": "production"}, log_dir,
                         factory=False, ws="")  # fmt: skip
        self.node = node
        self.log_stem = "boardgameio"

    def command(self) -> list[str]:
        return [self.node, str(BGIO_DIR / "server.js"), str(self.port)]


def install_bgio() -> None:
    """boardgame.io into bench/bgio/node_modules with ``npm ci``, unless it is there."""
    installed = BGIO_DIR / "node_modules" / "boardgame.io" / "package.json"
    if installed.exists() and json.loads(installed.read_text())["version"] == BGIO_VERSION:
        return
    print(f"installing boardgame.io {BGIO_VERSION} into {shown(BGIO_DIR)} ...", flush=True)
    run_npm(["ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=BGIO_DIR)


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
