"""What answering who a request is costs the server: GET /api/session, one after another.

Starts the real server in its own process (uvicorn, as `make run` does, on a fresh SQLite
file or the database given), opens a session, then sends ``--requests`` GET /api/session
on one keep-alive connection, one at a time, and prints the server process's CPU time per
request (user + system, all its threads) and the requests per second the client saw. Most
of a request's cost is the framework; the part this measures changing is the identity
lookup (the session cookie to a person). It runs twice: with the server's identity cache
(app/people/sessions.py; nearly every request a hit) and without it (SESSION_CACHE_SECONDS=0: every
request loads the session from the database in a worker thread).

    python -m bench.session_cost [--requests 3000] [--database-url URL]
                                 [--results-dir DIR] [--no-write]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

from app.db import upgrade_to_head
from bench import machine

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(
    database_url: str, data_dir: Path, cache_seconds: float
) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench-secret"}
    env["DATA_DIR"] = str(data_dir)
    env["SESSION_CACHE_SECONDS"] = str(cache_seconds)
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("the server did not start")


def _cpu(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def measure(base_url: str, server: psutil.Process, requests: int) -> tuple[float, float]:
    """(server CPU µs per request, requests per second)."""
    with httpx.Client(base_url=base_url) as client:
        assert client.post("/api/session", json={"name": "Bench"}).status_code == 200
        for _ in range(200):  # warm up: imports, caches, the thread pool
            client.get("/api/session")
        cpu, started = _cpu(server), time.perf_counter()
        for _ in range(requests):
            response = client.get("/api/session")
            assert response.status_code == 200, response.text
        elapsed = time.perf_counter() - started
        used = _cpu(server) - cpu
    return used / requests * 1e6, requests / elapsed


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m bench.session_cost", description=__doc__)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--database-url", help="an empty database (default: a new SQLite file)")
    parser.add_argument("--results-dir", type=Path, default=machine.RESULTS)
    parser.add_argument("--no-write", action="store_true", help="print only; record nothing")
    args = parser.parse_args(argv)

    when = machine.now()
    rows = []
    print(f"Session lookup — {machine.describe(when)}")
    print("| request | server CPU per request | requests/s (one client) |")
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        upgrade_to_head(url)
        for label, cache_seconds in (("identity cached", 5.0), ("no cache", 0.0)):
            server, base_url = _start(url, Path(tmp), cache_seconds)
            try:
                per_request, rate = measure(base_url, psutil.Process(server.pid), args.requests)
            finally:
                server.terminate()
                server.wait(15)
            rows.append(f"| GET /api/session ({label}) | {per_request:,.0f} µs | {rate:,.0f} |")
            print(rows[-1], flush=True)
    if not args.no_write:
        lines = [
            f"# Session lookup cost, {machine.stamp(when)}, commit {machine.commit()}",
            "",
            f"Command: `{machine.command_line('bench.session_cost', argv)}`.",
            "",
            f"Measured {machine.describe(when)}.",
            f"{args.requests} requests one after another on one keep-alive connection.",
            "",
            "| request | server CPU per request | requests/s (one client) |",
            "|---|---:|---:|",
            *rows,
        ]
        path = machine.write_result(args.results_dir, when, "session-cost", lines)
        print(f"recorded in {machine.shown(path)}")


if __name__ == "__main__":
    main()
