"""A private redis-server for the tests that share rooms between processes: its own port,
nothing kept on disk, and a restart on demand (without touching any other Redis)."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from tests.conftest import free_port


class RedisServer:
    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("redis-server")
        self.binary = binary
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.started_once = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log_path(self) -> Path:
        return self.workdir / f"redis-{self.port}.log"

    def start(self) -> RedisServer:
        """Start on this server's port; on a first start, another port if another process
        took this one first (restart keeps the port: clients hold the URL)."""
        for _ in range(5):
            if self._start_on_port():
                return self
            if self.started_once:
                break
            self.port = free_port()
        raise RuntimeError(f"redis-server could not listen on port {self.port}")

    def _start_on_port(self) -> bool:
        log = self.log_path.open("ab")
        # Only what this start logs counts (a restart appends to the same log).
        since = log.tell()
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            # Ready by its own log, not by a connect, which could reach whichever process
            # took the port first.
            logged = self.log_path.read_bytes()[since:].decode(errors="replace")
            if "Ready to accept connections" in logged:
                self.started_once = True
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.02)
        raise RuntimeError("redis-server did not start in 10 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def restart(self) -> None:
        """Down and up again, empty: every lease, subscription and presence entry is gone."""
        self.stop()
        self.start()
