"""Failed logins are limited without letting anyone lock an owner out of their account.

Failures are counted per account from one address (a small limit), per address over every
account, and per account from every address (a higher ceiling over a longer window, which
stops a guesser spread over many addresses). A guesser at one address is stopped there,
while the owner's right password from another address still works; a refused attempt
counts against nothing, and a right password is given back. The counters behave the same
in one process's memory and in Redis, shared by several server processes.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.cluster.redis_clients import event_loop_client
from app.config import Settings
from app.limits.quotas import Limiter, MemoryQuotas, Quotas, RedisQuotas, SiteQuotas
from app.refusal import Refusal
from tests.app.helpers import PASSWORD, make_app
from tests.app.redis_server import RedisServer
from tests.app.test_api import error_of
from tests.conftest import LiveServer

Visitor = Callable[[str], TestClient]

OWNER, THIEF = "198.51.100.20", "203.0.113.66"


@contextmanager
def visitors(app: Any) -> Iterator[Visitor]:
    """Run the app and hand out browsers, each calling from the address it is given."""
    with TestClient(app) as main:

        def visitor(address: str) -> TestClient:
            client = TestClient(app, client=(address, 50000))
            client.portal = main.portal  # one event loop for every client, as in a server
            return client

        yield visitor


def sign_up(visitor: Visitor, username: str) -> None:
    client = visitor("192.0.2.1")
    assert client.post("/api/session", json={"name": "Someone"}).status_code == 200
    body = {"username": username, "password": PASSWORD}
    assert client.post("/api/accounts", json=body).status_code == 201


def log_in(client: TestClient, username: str, password: str = PASSWORD) -> Any:
    return client.post("/api/login", json={"username": username, "password": password})


def test_guesses_from_one_address_leave_the_owners_right_password_working_elsewhere(
    sqlite_url: str, tmp_path: Path
) -> None:
    # The default limits: ten failures to one account from one address.
    with visitors(make_app(sqlite_url, tmp_path)) as visitor:
        sign_up(visitor, "Eve")
        thief = visitor(THIEF)
        for _ in range(10):
            error_of(log_in(thief, "Eve", "guessing"), 401, "bad_login")
        message = error_of(log_in(thief, "eve", "guessing"), 429, "too_many_attempts")
        assert "try again in" in message
        # The thief's address is stopped even with the right password (no oracle)...
        error_of(log_in(thief, "EVE"), 429, "too_many_attempts")
        # ...while Eve, at home, logs in as usual.
        assert log_in(visitor(OWNER), "Eve").status_code == 200


def test_a_guesser_spread_over_many_addresses_meets_the_accounts_ceiling(
    sqlite_url: str, tmp_path: Path
) -> None:
    limits = {"login_attempts_per_account_address": 2, "login_attempts_per_account": 5}
    with visitors(make_app(sqlite_url, tmp_path, **limits)) as visitor:
        sign_up(visitor, "Eve")
        sign_up(visitor, "Fay")
        for address, guesses in (("203.0.113.1", 2), ("203.0.113.2", 2), ("203.0.113.3", 1)):
            for _ in range(guesses):
                error_of(log_in(visitor(address), "Eve", "guessing"), 401, "bad_login")
        fresh = visitor("203.0.113.4")
        message = error_of(log_in(fresh, "Eve", "guessing"), 429, "too_many_account_attempts")
        assert "try again in" in message
        assert log_in(fresh, "Fay").status_code == 200  # the ceiling is the account's own


def test_attempts_refused_count_against_no_limit(sqlite_url: str, tmp_path: Path) -> None:
    limits = {"login_attempts_per_account_address": 2, "login_attempts_per_account": 5}
    with visitors(make_app(sqlite_url, tmp_path, **limits)) as visitor:
        sign_up(visitor, "Eve")
        thief = visitor(THIEF)
        for _ in range(2):
            error_of(log_in(thief, "Eve", "guessing"), 401, "bad_login")
        # Hammering on from a locked address does not use up the account's ceiling.
        for _ in range(10):
            error_of(log_in(thief, "Eve", "guessing"), 429, "too_many_attempts")
        accomplice = visitor("203.0.113.67")
        for _ in range(2):
            error_of(log_in(accomplice, "Eve", "guessing"), 401, "bad_login")
        assert log_in(visitor(OWNER), "Eve").status_code == 200  # 5th attempt of 5


def test_a_right_password_is_not_held_against_anyone(sqlite_url: str, tmp_path: Path) -> None:
    limits = {"login_attempts_per_account_address": 2, "login_attempts_per_address": 2}
    with visitors(make_app(sqlite_url, tmp_path, **limits)) as visitor:
        sign_up(visitor, "Eve")
        home = visitor(OWNER)
        for _ in range(4):
            assert log_in(home, "Eve").status_code == 200
        for _ in range(2):
            error_of(log_in(home, "Eve", "typo typo"), 401, "bad_login")
        error_of(log_in(home, "Eve"), 429, "too_many_attempts")


def test_one_address_guessing_at_many_accounts_meets_the_address_limit(
    sqlite_url: str, tmp_path: Path
) -> None:
    with visitors(make_app(sqlite_url, tmp_path, login_attempts_per_address=3)) as visitor:
        sign_up(visitor, "Eve")
        thief = visitor(THIEF)
        for name in ("Eve", "Fay", "Gus"):
            error_of(log_in(thief, name, "guessing"), 401, "bad_login")
        error_of(log_in(thief, "Hal", "guessing"), 429, "too_many_address_attempts")
        assert log_in(visitor(OWNER), "Eve").status_code == 200


# --- the same counting in memory and in Redis ------------------------------------------------


def small_site() -> SiteQuotas:
    """Two failures per account from an address, three per account from everywhere."""
    settings = Settings(
        login_attempts_per_account_address=2,
        login_attempts_per_address=50,
        login_attempts_per_account=3,
    )
    return SiteQuotas.from_settings(settings)


@pytest.fixture(params=["memory", "redis"])
def run_with_quotas(
    request: pytest.FixtureRequest,
) -> Callable[[Callable[[Quotas], Awaitable[None]]], None]:
    """Run a scenario against quotas in memory, or in Redis (a private redis-server)."""

    def run(scenario: Callable[[Quotas], Awaitable[None]]) -> None:
        async def in_redis(url: str) -> None:
            redis = event_loop_client(url)
            try:
                await scenario(RedisQuotas(redis, f"test{secrets.token_hex(3)}"))
            finally:
                await redis.aclose()

        if request.param == "memory":
            asyncio.run(scenario(MemoryQuotas()))
        else:
            redis_server: RedisServer = request.getfixturevalue("redis_server")
            asyncio.run(in_redis(redis_server.url))

    return run


async def refusal_of(attempt: Awaitable[None]) -> str:
    with pytest.raises(Refusal) as refused:
        await attempt
    assert refused.value.status == 429 and "try again in" in refused.value.message
    return refused.value.code


def test_login_counters_lock_an_address_out_not_the_owner(
    run_with_quotas: Callable[[Callable[[Quotas], Awaitable[None]]], None],
) -> None:
    async def scenario(quotas: Quotas) -> None:
        limiter = Limiter(quotas, small_site())
        # Two attempts in flight from one address count before either is answered.
        await limiter.login("eve", THIEF)
        await limiter.login("eve", THIEF)
        for _ in range(5):  # refused, and counted nowhere
            assert await refusal_of(limiter.login("eve", THIEF)) == "too_many_attempts"
        await limiter.login("eve", OWNER)
        await limiter.logged_in("eve", OWNER)  # the right password: given back
        await limiter.login("eve", OWNER)
        await limiter.logged_in("eve", OWNER)
        await limiter.login("eve", "203.0.113.67")  # the account's third failure of three
        code = await refusal_of(limiter.login("eve", OWNER))
        assert code == "too_many_account_attempts"
        await limiter.login("fay", OWNER)

    run_with_quotas(scenario)


def test_servers_sharing_redis_share_the_login_counters(
    live_server_factory: Callable[..., LiveServer], postgres_url: str, redis_server: RedisServer
) -> None:
    # The test's clients play a trusted proxy, each request naming the visitor behind it.
    env = {
        "REDIS_URL": redis_server.url,
        "REDIS_PREFIX": f"test{secrets.token_hex(3)}",
        "TRUSTED_PROXIES": "127.0.0.1",
        "LOGIN_ATTEMPTS_PER_ACCOUNT_ADDRESS": "2",
    }
    one, two = (live_server_factory(database_url=postgres_url, **env) for _ in range(2))
    thief, owner = {"X-Forwarded-For": THIEF}, {"X-Forwarded-For": OWNER}
    right = {"username": "Eve", "password": PASSWORD}
    wrong = {"username": "Eve", "password": "guessing"}
    with httpx.Client(base_url=one.url) as first, httpx.Client(base_url=two.url) as second:
        assert first.post("/api/session", json={"name": "Guest"}).status_code == 200
        assert first.post("/api/accounts", json=right).status_code == 201
        error_of(first.post("/api/login", json=wrong, headers=thief), 401, "bad_login")
        error_of(second.post("/api/login", json=wrong, headers=thief), 401, "bad_login")
        for server in (first, second):
            error_of(server.post("/api/login", json=right, headers=thief), 429, "too_many_attempts")
        assert second.post("/api/login", json=right, headers=owner).status_code == 200
