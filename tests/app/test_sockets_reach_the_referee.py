"""A room's sockets reach the process that referees the room: its page names that process
(``PROCESS_NAME``, as the proxy knows it), and the deployment's nginx (deploy/nginx.conf,
as it ships) sends the socket there — to the other process while that one is down."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.app.helpers import eventually
from tests.app.live_clients import UNLIMITED, Factory, Seat
from tests.app.proxy_server import ProxyServer
from tests.app.redis_server import RedisServer
from tests.app.test_cluster import open_across, reconnected
from tests.app.test_metrics import samples, value
from tests.app.test_page_data import boot_block
from tests.conftest import LiveServer


def named_servers(
    factory: Factory, postgres_url: str, redis: RedisServer, names: list[str]
) -> dict[str, LiveServer]:
    env = {"REDIS_URL": redis.url, "REDIS_PREFIX": f"test{secrets.token_hex(3)}", **UNLIMITED}
    return {name: factory(database_url=postgres_url, PROCESS_NAME=name, **env) for name in names}


@pytest.fixture
def proxy_for(tmp_path: Path) -> Iterator[ProxyServer]:
    """Started by the test, once its servers are up (``proxy.servers``)."""
    proxy = ProxyServer(tmp_path)
    yield proxy
    proxy.stop()


def start_proxy(proxy: ProxyServer, servers: dict[str, LiveServer]) -> ProxyServer:
    try:
        return proxy.start(servers)
    except FileNotFoundError:
        # CI installs it (.ci/run); elsewhere the check needs `apt-get install nginx-light`.
        if os.environ.get("CI"):
            pytest.fail("nginx must be installed in CI to check deploy/nginx.conf")
        pytest.skip("nginx is not installed (apt-get install nginx-light)")


def page_referee(client: httpx.Client, room_id: str) -> str | None:
    page = client.get(f"/rooms/{room_id}")
    assert page.status_code == 200, page.text
    referee = json.loads(boot_block(page.text))["referee"]
    assert referee is None or isinstance(referee, str)
    return referee


def connections(server: LiveServer) -> float:
    return value(samples(httpx.get(f"{server.url}/metrics").text), "parlour_connections")


def test_a_room_page_names_its_referee_wherever_it_is_served(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    servers = named_servers(live_server_factory, postgres_url, redis_server, ["app1", "app2"])
    room_id, ann, bob = open_across(servers["app2"], servers["app1"])
    # The referee's own page, and a page of the process that only follows the room.
    assert page_referee(ann.http, room_id) == "app2"
    assert page_referee(bob.http, room_id) == "app2"


def test_a_process_without_a_name_names_no_referee(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    env = {"REDIS_URL": redis_server.url, "REDIS_PREFIX": f"test{secrets.token_hex(3)}"}
    a, b = (live_server_factory(database_url=postgres_url, **env, **UNLIMITED) for _ in "ab")
    room_id, ann, bob = open_across(a, b)
    assert page_referee(ann.http, room_id) is None
    assert page_referee(bob.http, room_id) is None


def test_the_proxy_sends_a_rooms_sockets_to_its_referee_and_elsewhere_while_it_is_down(
    live_server_factory: Factory,
    postgres_url: str,
    redis_server: RedisServer,
    proxy_for: ProxyServer,
) -> None:
    servers = named_servers(live_server_factory, postgres_url, redis_server, ["app1", "app2"])
    proxy = start_proxy(proxy_for, servers)
    room_id, ann, bob = open_across(servers["app2"], servers["app1"])
    ann, bob = reconnected(ann, proxy), reconnected(bob, proxy)
    referee = page_referee(ann.http, room_id)
    assert referee == "app2"

    def counts() -> tuple[float, float]:
        return connections(servers["app1"]), connections(servers["app2"])

    # Without the name, round robin: two watchers' sockets land one on each process.
    watchers = [Seat(proxy, None), Seat(proxy, None)]
    for watcher in watchers:
        watcher.connect(room_id)
        watcher.state_at(0)
    assert counts() == (1, 1)
    for watcher in watchers:
        assert watcher.ws is not None
        watcher.ws.close()
    # With it, both seats reach the referee, and play there.
    for seat in (ann, bob):
        seat.connect(room_id, f"?referee={referee}")
        seat.state_at(0)
    eventually(lambda: counts() == (0, 2), "both seats' sockets on the referee alone")
    mover = ann if 0 in ann.state_at(0)["view"]["to_act"] else bob
    mover.act(0, mover.state_at(0)["view"]["legal_actions"][0])
    assert ann.state_at(1)["version"] == bob.state_at(1)["version"] == 1
    # The referee is down: a socket sent to it goes to the other process, which serves the
    # room as it stands.
    servers["app2"].kill()
    again = reconnected(bob, proxy)
    again.connect(room_id, f"?referee={referee}")
    assert again.state_at(1)["version"] == 1
    eventually(lambda: connections(servers["app1"]) == 1, "the seat's socket counted")
