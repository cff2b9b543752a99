"""A visitor cannot choose the address its per-address limits count.

``X-Forwarded-For`` is believed only from the reverse proxies TRUSTED_PROXIES names (none by
default), and then only its right-most hop that no trusted proxy sent: rotating a forged
header moves neither the failed logins counted per address nor the room codes tried, with
no trusted proxy (in the process and in the server as it runs) and behind a trusted one
that appends. The docker-compose deployment trusts only its own nginx, which sets the
header rather than appending to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from pydantic import ValidationError

from app.config import Settings
from app.serve import main as serve
from tests.app.helpers import make_app
from tests.app.test_api import error_of
from tests.app.test_login_limits import visitors
from tests.conftest import LiveServer

ROOT = Path(__file__).resolve().parents[2]
LIMITS = {"login_attempts_per_address": 3, "code_lookups_per_minute": 3}
# What a visitor might claim to be: strangers, another visitor, the proxy itself, nonsense.
FORGED = ["192.0.2.1", "198.51.100.8", "10.0.0.2", "127.0.0.1", "not an address", ""]


def forged(index: int, appended: str = "") -> dict[str, str]:
    """A forged X-Forwarded-For, as a proxy that appends passes it on (when ``appended``)."""
    claim = FORGED[index % len(FORGED)]
    return {"X-Forwarded-For": f"{claim}, {appended}" if appended else claim}


def assert_capped(send: Callable[[int], Any], allowed: int, code: str) -> None:
    """``allowed`` calls get through whatever each forges, and the next is refused."""
    for index in range(allowed):
        assert send(index).status_code != 429
    error_of(send(allowed), 429, code)


def test_with_no_trusted_proxy_a_forged_header_moves_no_limit(
    sqlite_url: str, tmp_path: Path
) -> None:
    with visitors(make_app(sqlite_url, tmp_path, **LIMITS)) as visitor:
        guesser = visitor("203.0.113.66")

        def login(index: int) -> Any:
            return guesser.post(
                "/api/login",
                json={"username": f"nobody{index}", "password": "guessing"},
                headers=forged(index),
            )

        assert_capped(login, 3, "too_many_address_attempts")
        assert_capped(
            lambda i: guesser.get(f"/api/rooms/ZZZZZ{i}", headers=forged(i)), 3, "too_many_lookups"
        )


def test_behind_a_trusted_proxy_that_appends_the_hop_it_saw_counts(
    sqlite_url: str, tmp_path: Path
) -> None:
    app = make_app(sqlite_url, tmp_path, trusted_proxies="10.0.0.2", **LIMITS)
    with visitors(app) as visitor:
        proxy = visitor("10.0.0.2")
        guesser, other = "198.51.100.7", "198.51.100.9"

        def login(index: int) -> Any:
            body = {"username": f"nobody{index}", "password": "guessing"}
            return proxy.post("/api/login", json=body, headers=forged(index, guesser))

        assert_capped(login, 3, "too_many_address_attempts")
        assert_capped(
            lambda i: proxy.get(f"/api/rooms/ZZZZZ{i}", headers=forged(i, guesser)),
            3,
            "too_many_lookups",
        )
        # Sockets too: the guesser's codes are spent, another visitor's are not.
        for address, first_word in ((guesser, "too_many_lookups"), (other, "room_not_found")):
            headers = forged(2, address)
            with proxy.websocket_connect("/ws/rooms/ZZZZZZ", headers=headers) as ws:
                assert ws.receive_json()["code"] == first_word
        # The proxy's word is believed: another visitor behind it has limits of its own.
        body = {"username": "nobody", "password": "guessing"}
        error_of(proxy.post("/api/login", json=body, headers=forged(1, other)), 401, "bad_login")
        error_of(proxy.get("/api/rooms/ZZZZZZ", headers=forged(1, other)), 404, "room_not_found")


def test_the_server_as_it_runs_believes_no_forwarded_header_by_default(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    env = {"LOGIN_ATTEMPTS_PER_ADDRESS": "3", "CODE_LOOKUPS_PER_MINUTE": "3"}
    server = live_server_factory(**env)
    with httpx.Client(base_url=server.url) as client:

        def login(index: int) -> httpx.Response:
            body = {"username": f"nobody{index}", "password": "guessing"}
            return client.post("/api/login", json=body, headers=forged(index))

        assert_capped(login, 3, "too_many_address_attempts")
        assert_capped(
            lambda i: client.get(f"/api/rooms/ZZZZZ{i}", headers=forged(i)), 3, "too_many_lookups"
        )


@pytest.mark.parametrize(
    ("setting", "complaint"),
    [("*", "may not be '*'"), ("nginx", "'nginx' is neither"), ("10.0.0.1, 300.1.1.1", "300")],
)
def test_trusted_proxies_must_be_addresses(setting: str, complaint: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(complaint)):
        Settings(trusted_proxies=setting)


def test_trusted_proxies_are_read_in_their_usual_spelling() -> None:
    settings = Settings(trusted_proxies=" 10.0.0.1/8, ::1 ,172.30.84.10")
    assert settings.trusted_proxy_list() == ["10.0.0.0/8", "::1", "172.30.84.10"]
    assert Settings().trusted_proxy_list() == []


def test_the_server_will_not_start_on_uvicorns_proxy_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")
    with pytest.raises(SystemExit, match="TRUSTED_PROXIES"):
        serve(["--no-migrate", "--port", "1"])  # were it to start, it could not listen


def test_the_compose_deployment_trusts_only_its_nginx_which_sets_the_address() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "FORWARDED_ALLOW_IPS" not in compose
    trusted = re.findall(r"^\s*TRUSTED_PROXIES:\s*\"?([^\s\"]+)", compose, re.MULTILINE)
    proxy = yaml.safe_load(compose)["services"]["proxy"]
    assert trusted == [proxy["networks"]["default"]["ipv4_address"]]
    assert Settings(trusted_proxies=trusted[0]).trusted_proxy_list() == trusted
    forwarded = re.findall(r"proxy_set_header\s+X-Forwarded-For\s+(\S+);", nginx)
    assert forwarded == ["$remote_addr"]
