"""Fixtures shared by the server tests: a fresh migrated database per test, on SQLite
and (when TEST_DATABASE_URL is set, as CI sets it) on PostgreSQL too.

The suite runs in parallel (pytest-xdist), so each worker has databases of its own: on
PostgreSQL ``<name>_<worker>`` beside the database TEST_DATABASE_URL names (created through
the server's maintenance database), and its own SQLite files under the test's tmp_path.
Migrations run once per worker, into a template; each test then gets a copy of it
(``CREATE DATABASE ... TEMPLATE`` on PostgreSQL, a file copy on SQLite), which is the
migrated schema and nothing else. tests/app/test_migrations.py still migrates for real:
``database_url_for`` hands out empty databases.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, make_url, text

from app.config import SHARED_ADDRESS_CAPS
from app.db import upgrade_to_head

BACKENDS = ["sqlite", "postgresql"]

# The xdist worker running this process ("gw0", "gw1", ...); empty when pytest runs alone.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def postgres_base_url() -> str:
    """TEST_DATABASE_URL, or a skip (a failure in CI, where PostgreSQL runs are required)."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("TEST_DATABASE_URL must be set in CI: PostgreSQL runs are required")
        pytest.skip("TEST_DATABASE_URL is not set (CI sets it; PostgreSQL runs are required there)")
    return url


@cache
def maintenance_engine(base_url: str) -> Engine:
    """A connection to the server's ``postgres`` database, for creating and dropping the
    workers' databases (which cannot be done from inside them)."""
    url = make_url(base_url).set(database="postgres")
    return create_engine(url, isolation_level="AUTOCOMMIT")


def worker_database(base_url: str, suffix: str = "") -> str:
    """The URL of this worker's database (``<name>_<worker><suffix>``)."""
    url = make_url(base_url)
    name = "_".join(part for part in (url.database, WORKER) if part) + suffix
    return url.set(database=name).render_as_string(hide_password=False)


def recreate_postgres(url: str, template: str = "template0") -> None:
    """Drop the database at ``url`` (ending any connection left to it by an earlier test's
    server process) and create it again as a copy of ``template``."""
    name = make_url(url).database
    with maintenance_engine(postgres_base_url()).connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))


@cache
def migrated_postgres_template(base_url: str) -> str:
    """This worker's migrated template database, made once per worker: its name."""
    url = worker_database(base_url, "_template")
    recreate_postgres(url)
    upgrade_to_head(url)
    # A template cannot be copied while anyone is connected to it.
    with maintenance_engine(base_url).connect() as conn:
        conn.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = :name AND pid <> pg_backend_pid()"
            ),
            {"name": make_url(url).database},
        )
    return str(make_url(url).database)


def database_url_for(backend: str, tmp_path: Path) -> str:
    """An empty database (no tables) on ``backend``, private to the test."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'parlour.db'}"
    url = worker_database(postgres_base_url())
    recreate_postgres(url)
    return url


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per worker, copied by each test that needs one."""
    path = tmp_path_factory.mktemp("template") / "parlour.db"
    upgrade_to_head(f"sqlite:///{path}")
    return path


def migrated_sqlite(template: Path, path: Path) -> str:
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


def migrated_postgres() -> str:
    base_url = postgres_base_url()
    template = migrated_postgres_template(base_url)
    url = worker_database(base_url)
    recreate_postgres(url, template)
    return url


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> str:
    """A migrated, empty database on each backend."""
    if request.param == "sqlite":
        return migrated_sqlite(sqlite_template, tmp_path / "parlour.db")
    return migrated_postgres()


@pytest.fixture
def postgres_url() -> str:
    """A migrated, empty PostgreSQL database (required in CI, skipped elsewhere without it)."""
    return migrated_postgres()


@pytest.fixture
def sqlite_url(tmp_path: Path, sqlite_template: Path) -> str:
    return migrated_sqlite(sqlite_template, tmp_path / "parlour.db")


# --- a real server process -------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A port nothing listens on now. Another process may take it before our server binds
    it (the workers run side by side): LiveServer.start tries another port when that
    happens, and a private Redis is told apart by its own log (RedisServer.start)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def two_free_ports() -> int:
    """A port with the next one free too (`make run-many`'s supervisor serves on consecutive
    ports). Either may still be taken before the servers bind them: their starter looks
    for ``PORT_TAKEN`` in their log and tries again."""
    for _ in range(50):
        port = free_port()
        with contextlib.suppress(OSError), socket.socket() as sock:
            sock.bind(("127.0.0.1", port + 1))
            return port
    raise RuntimeError("no two consecutive free ports")


# What uvicorn logs once it listens, and what it logs when the port was taken meanwhile.
LISTENING = "Uvicorn running on"
PORT_TAKEN = "address already in use"


def listening(
    process: subprocess.Popen[bytes],
    log_path: Path,
    lines: list[str],
    timeout: float,
    *,
    since: int = 0,
) -> bool:
    """Wait until ``process``'s log (from byte ``since``) holds every one of ``lines``
    (True), or says a port was taken (False: the caller stops it, if it has not stopped,
    and starts again elsewhere). Our own log, not a successful connect: a connect could
    reach whichever process took the port first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        logged = log_path.read_bytes()[since:].decode(errors="replace")
        if PORT_TAKEN in logged:
            return False
        if all(line in logged for line in lines):
            return True
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {logged[-2000:]}")
        time.sleep(0.05)
    raise RuntimeError(f"server did not start in {timeout:g} s")


@dataclass(eq=False)
class Endpoint:
    """Where clients reach a server on this machine: its port."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


class LiveServer(Endpoint):
    """The server in its own process, started as `make run` starts it (``app.serve``)."""

    # The module run as the server (the browser tests run one that deals from a fixed seed),
    # and the arguments it is given before the address.
    module = "app.serve"
    arguments: tuple[str, ...] = ("--no-migrate",)

    def __init__(self, database_url: str, data_dir: Path, **env: str) -> None:
        super().__init__(free_port())
        self.database_url = database_url
        self.data_dir = data_dir
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.started_once = False

    @property
    def log_path(self) -> Path:
        return self.data_dir / f"server-{self.port}.log"

    def start(self) -> LiveServer:
        """Start, on another port if another process took this one first; started again
        (after ``kill`` or ``stop``) it keeps its port, which its clients know."""
        for _ in range(5):
            if self._start_on(self.port):
                self.started_once = True
                return self
            if self.started_once:
                break
            self.port = free_port()
        raise RuntimeError(f"the server could not listen on port {self.port}")

    def _start_on(self, port: int) -> bool:
        """Start on ``port``; False if another process took the port first."""
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "live-test-secret",
            "DATA_DIR": str(self.data_dir),
            "BOT_DELAY": "0.05",
            # The server's temporary files (its metrics directory, app/observability/
            # metrics_directory.py) in the test's directory: a server the test kills
            # leaves them there, not in the machine's /tmp.
            "TMPDIR": str(self.data_dir),
            # Every browser and client of the tests comes from 127.0.0.1: the per-address
            # caps would count them all as one visitor (the caps have their own tests).
            **SHARED_ADDRESS_CAPS,
            **self.env,
        }
        log = self.log_path.open("ab")
        # Only what this start logs counts (a server started again appends to its log).
        since = log.tell()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                self.module,
                *self.arguments,
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        if listening(self.process, self.log_path, [LISTENING], 30, since=since):
            return True
        self.process.wait(10)  # uvicorn ends once it could not bind
        return False

    def kill(self) -> None:
        """SIGKILL: no shutdown hook runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def live_server_factory(
    tmp_path: Path, sqlite_template: Path
) -> Iterator[Callable[..., LiveServer]]:
    """Start real servers on a migrated SQLite database (or ``database_url=``)."""
    started: list[LiveServer] = []

    def start(database_url: str | None = None, **env: str) -> LiveServer:
        url = database_url
        if url is None:
            # Servers started without a URL share one database (as they always have).
            live = tmp_path / "live.db"
            url = f"sqlite:///{live}" if live.exists() else migrated_sqlite(sqlite_template, live)
        server = LiveServer(url, tmp_path, **env).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
