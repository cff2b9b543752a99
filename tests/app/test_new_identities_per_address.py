"""An address may make only so many new identities an hour: guests (each a row and a
session) and sign-ups (each a password hash). Past that it is refused with a documented
code, nothing is made, and other addresses are left alone.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db import make_engine, make_session_factory
from app.models import User
from tests.app.helpers import PASSWORD, make_app, running
from tests.app.test_api import error_of

Browser = Callable[[str], TestClient]


def browsers(app: object, new_client: Callable[[str | None], TestClient]) -> Browser:
    """A new browser (its own cookies) at ``address``, on the app's one event loop."""
    portal = new_client(None).portal

    def at(address: str) -> TestClient:
        client = TestClient(app, client=(address, 50000))  # type: ignore[arg-type]
        client.portal = portal
        return client

    return at


def user_count(database_url: str) -> int:
    engine = make_engine(database_url)
    with make_session_factory(engine)() as session:
        count = session.scalar(select(func.count()).select_from(User))
    engine.dispose()
    return int(count or 0)


def test_an_address_may_sign_up_only_so_many_accounts_an_hour(
    database_url: str, tmp_path: Path
) -> None:
    app = make_app(database_url, tmp_path, signups_per_hour_per_address=2)
    with running(app) as new_client:
        at = browsers(app, new_client)
        for username in ("Ann", "Bea"):
            browser = at("198.51.100.7")
            assert browser.post("/api/session", json={"name": "Someone"}).status_code == 200
            body = {"username": username, "password": PASSWORD}
            assert browser.post("/api/accounts", json=body).status_code == 201

        third = at("198.51.100.7")
        assert third.post("/api/session", json={"name": "Someone"}).status_code == 200
        refused = third.post("/api/accounts", json={"username": "Cyd", "password": PASSWORD})
        error_of(refused, 429, "too_many_signups")
        assert "try again in" in refused.json()["message"]
        assert third.get("/api/session").json()["username"] is None

        # Another address is not held to this one's count, and the name was not taken.
        elsewhere = at("203.0.113.9")
        assert elsewhere.post("/api/session", json={"name": "Someone"}).status_code == 200
        body = {"username": "Cyd", "password": PASSWORD}
        assert elsewhere.post("/api/accounts", json=body).status_code == 201


def test_an_address_may_start_only_so_many_guests_an_hour(
    database_url: str, tmp_path: Path
) -> None:
    app = make_app(database_url, tmp_path, guests_per_hour_per_address=3)
    with running(app) as new_client:
        at = browsers(app, new_client)
        first = at("198.51.100.7")
        for name in ("Ann", "Bea", "Cyd"):
            browser = first if name == "Ann" else at("198.51.100.7")
            assert browser.post("/api/session", json={"name": name}).status_code == 200
        made = user_count(database_url)

        fourth = at("198.51.100.7")
        refused = fourth.post("/api/session", json={"name": "Dee"})
        error_of(refused, 429, "too_many_guests")
        assert "try again in" in refused.json()["message"]
        assert "set-cookie" not in refused.headers
        assert user_count(database_url) == made
        error_of(fourth.get("/api/session"), 401, "no_session")

        # A guest renaming themselves makes nobody new and is not counted.
        renamed = first.post("/api/session", json={"name": "Annie"})
        assert renamed.json()["name"] == "Annie"
        # Another address starts its guests as before.
        assert at("203.0.113.9").post("/api/session", json={"name": "Eve"}).status_code == 200
