"""The identity cache (app/people/sessions.py) and the login counters across processes: a cached
identity lasts its few seconds or until its user changes; an ended session ends in every
process at once through Redis, not only when the cache would have let it go; login
attempts counted in Redis are shared by every process."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable

import httpx
from sqlalchemy import update

from app.db import make_engine, make_session_factory
from app.limits.quotas import Over, Quota, RedisQuotas
from app.models import User
from app.people.cookie import CookieSigner
from app.people.sessions import Authenticator, new_guest
from tests.app.helpers import PASSWORD
from tests.app.live_clients import two_processes_caching_identities
from tests.app.redis_server import RedisServer
from tests.conftest import LiveServer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_cached_identity_lasts_its_seconds_or_until_its_user_changes(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    sessions = make_session_factory(engine)
    signer = CookieSigner("test-secret")
    clock = Clock()
    auth = Authenticator(sessions, signer, cache_seconds=5.0, clock=clock)
    with sessions() as session:
        guest = new_guest(session, "Ann")
    cookie = signer.sign(guest.session_id)

    def rename(name: str) -> None:
        with sessions() as session:
            session.execute(update(User).where(User.id == guest.id).values(name=name))
            session.commit()

    assert auth.identify_now(cookie).name == "Ann"  # type: ignore[union-attr]
    rename("Annie")
    clock.now += 4.9
    assert auth.identify_now(cookie).name == "Ann"  # type: ignore[union-attr]
    clock.now += 0.2
    assert auth.identify_now(cookie).name == "Annie"  # type: ignore[union-attr]
    rename("Anna")
    auth.forget_user(guest.id)
    assert asyncio.run(auth.identify(cookie)).name == "Anna"  # type: ignore[union-attr]
    assert auth.identify_now(signer.sign("no-such-session")) is None
    assert auth.identify_now("forged") is None
    engine.dispose()


def test_login_attempts_counted_in_redis_are_shared(redis_server: RedisServer) -> None:
    from redis.asyncio import Redis

    per_account = Quota("login-account", 2, 60, "too_many_account_attempts", "Too many")
    per_address = Quota("login-address", 100, 60, "too_many_address_attempts", "Too many")
    prefix = f"test{secrets.token_hex(3)}"

    def login(quotas: RedisQuotas, account: str, address: str) -> Awaitable[Over | None]:
        return quotas.use((per_account, account), (per_address, address))

    async def attempts() -> list[Over | None]:
        first, second = Redis.from_url(redis_server.url), Redis.from_url(redis_server.url)
        here, there = RedisQuotas(first, prefix), RedisQuotas(second, prefix)
        try:
            return [
                await login(here, "ann", "10.0.0.1"),
                await login(there, "ann", "10.0.0.2"),
                await login(here, "ann", "10.0.0.3"),
                await login(there, "bob", "10.0.0.3"),
            ]
        finally:
            await first.aclose()
            await second.aclose()

    allowed, allowed_too, refused, other = asyncio.run(attempts())
    assert allowed is None and allowed_too is None and other is None
    assert refused is not None and refused.quota == per_account and 0 < refused.seconds <= 60


def test_logout_everywhere_reaches_every_process(
    live_server_factory: Callable[..., LiveServer], postgres_url: str, redis_server: RedisServer
) -> None:
    one, two = two_processes_caching_identities(live_server_factory, postgres_url, redis_server)
    with httpx.Client(base_url=one.url) as laptop, httpx.Client(base_url=two.url) as phone:
        assert laptop.post("/api/session", json={"name": "Guest"}).status_code == 200
        body = {"username": "Gil", "password": PASSWORD}
        assert laptop.post("/api/accounts", json=body).status_code == 201
        assert phone.post("/api/login", json=body).status_code == 200
        assert phone.get("/api/session").json()["username"] == "Gil"  # cached in process two
        assert laptop.post("/api/logout/everywhere").json() == {"sessions_ended": 2}
        deadline = time.monotonic() + 10
        while phone.get("/api/session").status_code != 401:
            assert time.monotonic() < deadline, "process two still knows the ended session"
            time.sleep(0.05)
