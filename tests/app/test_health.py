"""GET /healthz (the process answers) and GET /readyz (what it needs answers: the database,
and Redis when it shares the rooms through one), as load balancers and compose's health
checks ask them."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.app.helpers import make_app, running
from tests.app.redis_server import RedisServer
from tests.app.test_database_outage import behind_a_proxy
from tests.conftest import LiveServer


def test_a_running_server_is_alive_and_ready(database_url: str, tmp_path: Path) -> None:
    with running(make_app(database_url, tmp_path)) as new_client:
        client = new_client(None)
        alive = client.get("/healthz")
        assert alive.status_code == 200 and alive.json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {"status": "ok", "checks": {"database": "ok"}}


def test_readyz_is_503_while_the_database_is_unreachable(
    postgres_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    with behind_a_proxy(postgres_url, live_server_factory) as (server, proxy):
        assert httpx.get(f"{server.url}/readyz").status_code == 200
        proxy.cut()
        down = httpx.get(f"{server.url}/readyz", timeout=10)
        assert down.status_code == 503
        assert down.json() == {"status": "unavailable", "checks": {"database": "unreachable"}}
        assert httpx.get(f"{server.url}/healthz").status_code == 200  # alive all the same
        proxy.restore()
        assert httpx.get(f"{server.url}/readyz").status_code == 200


def test_readyz_is_503_while_redis_is_unreachable(
    live_server_factory: Callable[..., LiveServer], redis_server: RedisServer
) -> None:
    server = live_server_factory(
        REDIS_URL=redis_server.url, REDIS_PREFIX=f"test{secrets.token_hex(3)}"
    )
    ready = httpx.get(f"{server.url}/readyz")
    assert ready.status_code == 200
    assert ready.json()["checks"] == {"database": "ok", "redis": "ok"}
    redis_server.stop()
    down = httpx.get(f"{server.url}/readyz", timeout=10)
    assert down.status_code == 503
    assert down.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "redis": "unreachable"},
    }
