"""The load benchmark run from a test: ``python -m bench.load`` with a test's options and
results directory (never bench/results/), and for the runs of several processes a Redis of
the test's own and the test's PostgreSQL database."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.app.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[2]


def run_load(
    options: list[str], results: Path, *, timeout: float
) -> subprocess.CompletedProcess[str]:
    """The benchmark's run, its output captured. ``timeout`` guards against a hung run; it
    is no time limit on the benchmark (its figures are what it prints)."""
    return subprocess.run(
        [sys.executable, "-m", "bench.load", *options, "--results-dir", str(results)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def run_load_on_processes(
    options: list[str], tmp_path: Path, postgres_url: str, *, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """A run of processes sharing the rooms: on ``postgres_url`` and a Redis started for
    it in ``tmp_path``, where the run is recorded too."""
    try:
        redis = RedisServer(tmp_path).start()
    except FileNotFoundError:
        pytest.skip("redis-server is not installed (runs of several processes need it)")
    try:
        shared = ["--database-url", postgres_url, "--redis-url", redis.url]
        return run_load([*options, *shared], tmp_path, timeout=timeout)
    finally:
        redis.stop()
