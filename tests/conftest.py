"""Fixtures shared by the server tests: a fresh migrated database per test, on SQLite
and (when TEST_DATABASE_URL is set, as CI sets it) on PostgreSQL too."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from app.config import SHARED_ADDRESS_CAPS
from app.db import make_engine, upgrade_to_head

BACKENDS = ["sqlite", "postgresql"]


def reset_postgres(url: str) -> None:
    engine = make_engine(url)
    with engine.begin() as conn:
        # A server process left from an earlier test must not hold locks we wait on.
        conn.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
        conn.execute(text("SET lock_timeout = '30s'"))
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def database_url_for(backend: str, tmp_path: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'parlour.db'}"
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("TEST_DATABASE_URL must be set in CI: PostgreSQL runs are required")
        pytest.skip("TEST_DATABASE_URL is not set (CI sets it; PostgreSQL runs are required there)")
    reset_postgres(url)
    return url


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated, empty database on each backend."""
    url = database_url_for(request.param, tmp_path)
    upgrade_to_head(url)
    yield url


@pytest.fixture
def postgres_url(tmp_path: Path) -> str:
    """A migrated, empty PostgreSQL database (required in CI, skipped elsewhere without it)."""
    url = database_url_for("postgresql", tmp_path)
    upgrade_to_head(url)
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'parlour.db'}"
    upgrade_to_head(url)
    return url


# --- a real server process -------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    """The server in its own process, started as `make run` starts it (``app.serve``)."""

    def __init__(self, database_url: str, data_dir: Path, **env: str) -> None:
        self.database_url = database_url
        self.data_dir = data_dir
        self.port = free_port()
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "live-test-secret",
            "DATA_DIR": str(self.data_dir),
            "BOT_DELAY": "0.05",
            # Every browser and client of the tests comes from 127.0.0.1: the per-address
            # caps would count them all as one visitor (the caps have their own tests).
            **SHARED_ADDRESS_CAPS,
            **self.env,
        }
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "app.serve",
                "--no-migrate",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
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
        raise RuntimeError("server did not start in 30 s")

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
def live_server_factory(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Start real servers on a migrated SQLite database (or ``database_url=``)."""
    started: list[LiveServer] = []

    def start(database_url: str | None = None, **env: str) -> LiveServer:
        url = database_url or f"sqlite:///{tmp_path / 'live.db'}"
        if database_url is None:
            upgrade_to_head(url)
        server = LiveServer(url, tmp_path, **env).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
