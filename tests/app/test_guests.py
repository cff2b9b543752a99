"""A visitor who only looks leaves nothing behind: a guest is made when they act.

Pages offer a generated guest name; the user row, the session and its cookie are made by
the first call that needs them (the browser sends it again after POST /api/session, see
static/js/lib/api.js).
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from app.db import make_engine
from app.models import AuthSession, User, utcnow
from tests.app.helpers import NewClient, make_app, running


def users(database_url: str) -> int:
    engine = make_engine(database_url)
    with engine.connect() as connection:
        count = connection.execute(select(func.count()).select_from(User)).scalar_one()
    engine.dispose()
    return int(count)


def boot_user(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="boot">(.*?)</script>', page, re.S)
    assert found is not None, "every page carries its boot data"
    user = json.loads(found.group(1))["user"]
    assert isinstance(user, dict)
    return user


def test_looking_makes_no_guest_and_acting_makes_one(
    new_client: NewClient, database_url: str, tmp_path: Path
) -> None:
    host = new_client("Ann")
    room = host.post("/api/rooms", json={"game": "cupid"}).json()
    before = users(database_url)
    visitor: TestClient = new_client(None)
    for path in ("/", f"/rooms/{room['id']}", f"/rooms/{room['id']}/watch", "/history"):
        page = visitor.get(path)
        assert page.status_code == 200
        assert "set-cookie" not in page.headers
        offered = boot_user(page.text)
        assert offered["id"] is None and str(offered["name"]).startswith("Guest ")
    with visitor.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        assert ws.receive_json()["type"] in ("room", "state")
    assert users(database_url) == before

    refused = visitor.post(f"/api/rooms/{room['id']}/join", json={})
    assert (refused.status_code, refused.json()["code"]) == (401, "no_session")
    assert users(database_url) == before
    started = visitor.post("/api/session", json={"name": offered["name"]})
    assert started.status_code == 200 and "set-cookie" in started.headers
    assert visitor.post(f"/api/rooms/{room['id']}/join", json={}).json()["seat"] == 1
    assert users(database_url) == before + 1
    assert boot_user(visitor.get("/").text)["id"] == started.json()["user_id"]


def test_a_session_past_its_expiry_is_refused_whatever_the_cookie_says(
    database_url: str, tmp_path: Path
) -> None:
    # Identities are not kept in memory here, so the database's word is read each time
    # (with the cache, an expiry written behind the server's back shows within 5 s).
    app = make_app(database_url, tmp_path, session_cache_seconds=0.0)
    with running(app) as new_client:
        ann = new_client("Ann")
        ann_id = ann.get("/api/session").json()["user_id"]
        engine = make_engine(database_url)
        with engine.begin() as connection:
            past = utcnow() - timedelta(seconds=1)
            ended = update(AuthSession).where(AuthSession.user_id == ann_id)
            connection.execute(ended.values(expires_at=past))
        engine.dispose()
        # The signed cookie is still well formed; the server's record of it has ended.
        refused = ann.get("/api/session")
        assert (refused.status_code, refused.json()["code"]) == (401, "no_session")
