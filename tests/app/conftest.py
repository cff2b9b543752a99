"""Fixtures for the server tests that drive the app in-process (TestClient)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.helpers import NewClient, Timed, make_app, running, timed_app
from tests.app.redis_server import RedisServer


@pytest.fixture
def new_client(database_url: str, tmp_path: Path) -> Iterator[NewClient]:
    """Clients sharing one running app on each database backend.

    Test clients act the instant they may (computers play with no delay), so the
    per-connection rate limit is lifted here; it has its own test in test_ws.py.
    """
    app = make_app(database_url, tmp_path, rate_per_second=1000.0, rate_burst=1000)
    with running(app) as factory:
        yield factory


@pytest.fixture
def timed(database_url: str, tmp_path: Path) -> Iterator[Timed]:
    """A running app on each backend whose clock the test moves by hand."""
    with timed_app(database_url, tmp_path) as app:
        yield app


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A private Redis (required in CI, where redis-server is installed; skipped elsewhere
    without it)."""
    try:
        server = RedisServer(tmp_path).start()
    except FileNotFoundError:
        if os.environ.get("CI"):
            pytest.fail("redis-server is needed in CI: the multi-process tests are required")
        pytest.skip("redis-server is not installed (the multi-process tests need it)")
    yield server
    server.stop()
