"""The server's log: one JSON object per line in production, readable lines in
development; each line of a request or socket names the request, the room and the person
where there is one; no password, cookie or session id is ever written; and a socket is
written once as it opens, not at all when the access log is off."""

from __future__ import annotations

import io
import json
import logging
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.sync.client import connect

from app.observability.logs import formatter
from tests.app.helpers import make_app, running
from tests.conftest import LiveServer

PASSWORD = "purple-otter-in-the-attic"


def cookie_of(client: httpx.Client) -> str:
    cookie = client.cookies.get("parlour_session")
    assert cookie
    return cookie


def sign_up_log_in_and_play(server: LiveServer) -> dict[str, Any]:
    """An account signs up, logs out, logs in, opens a table and connects to it; what the
    log must not show, and what it must name."""
    cookies: list[str] = []
    with httpx.Client(base_url=server.url, timeout=10) as client:
        assert client.post("/api/session", json={"name": "Ann"}).status_code == 200
        cookies.append(cookie_of(client))
        body = {"username": "annie", "password": PASSWORD}
        user_id = client.post("/api/accounts", json=body).json()["user_id"]
        cookies.append(cookie_of(client))
        assert client.post("/api/logout").status_code == 200
        assert client.post("/api/login", json=body).status_code == 200
        cookies.append(cookie_of(client))
        room = client.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
        headers = {"Cookie": f"parlour_session={cookie_of(client)}"}
        with connect(f"{server.ws_url}/ws/rooms/{room['id']}", additional_headers=headers) as ws:
            ws.recv(timeout=10)
    engine = create_engine(server.database_url)
    with engine.connect() as conn:
        session_ids = [row[0] for row in conn.execute(text("SELECT id FROM auth_sessions"))]
    engine.dispose()
    return {"cookies": cookies, "sessions": session_ids, "user": user_id, "room": room["id"]}


def test_production_logs_are_json_with_context_and_no_secrets(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory(
        ENVIRONMENT="production", SECRET_KEY=secrets.token_urlsafe(48), COOKIE_SECURE="false"
    )
    seen = sign_up_log_in_and_play(server)
    server.stop()
    log = server.log_path.read_text()
    assert PASSWORD not in log
    assert seen["sessions"] and seen["cookies"]
    for secret in [*seen["cookies"], *seen["sessions"]]:
        assert secret not in log
    lines = [json.loads(line) for line in log.splitlines() if line.strip()]
    assert all({"event", "level", "logger", "timestamp"} <= line.keys() for line in lines)
    requests = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert requests and all(line["request_id"] for line in requests)
    login = next(line for line in requests if "POST /api/login" in line["event"])
    assert login["user_id"] == seen["user"]
    socket = next(line for line in lines if f"/ws/rooms/{seen['room']}" in line["event"])
    assert socket["room_id"] == seen["room"] and socket["user_id"] == seen["user"]


def test_development_logs_are_lines_to_read(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory()
    with httpx.Client(base_url=server.url, timeout=10) as client:
        client.get("/healthz", headers={"X-Request-ID": "proxy-id-7"})
    server.stop()
    lines = server.log_path.read_text().splitlines()
    access = next(line for line in lines if "GET /healthz" in line)
    assert not access.startswith("{")
    assert "request_id=proxy-id-7" in access


def test_a_socket_is_written_once_and_not_at_all_with_the_access_log_off(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    for access_log in ("true", "false"):
        server = live_server_factory(ACCESS_LOG=access_log)
        with httpx.Client(base_url=server.url, timeout=10) as client:
            assert client.post("/api/session", json={"name": "Ann"}).status_code == 200
            room = client.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
            headers = {"Cookie": f"parlour_session={cookie_of(client)}"}
            url = f"{server.ws_url}/ws/rooms/{room['id']}"
            with connect(url, additional_headers=headers) as ws:
                ws.recv(timeout=10)
        server.stop()
        lines = server.log_path.read_text().splitlines()
        accepted = [line for line in lines if f"/ws/rooms/{room['id']}" in line]
        opened_again = [line for line in lines if "connection open" in line]
        assert opened_again == []  # the accepted line said it, with the address and path
        if access_log == "true":
            assert len(accepted) == 1 and "[accepted]" in accepted[0]
        else:  # the proxy in front keeps the access log
            assert accepted == []


def test_fields_that_could_hold_a_secret_are_never_written() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(formatter("production"))
    logger = logging.getLogger("parlour.test-secrets")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning(
            "signed in",
            extra={"password": "hunter2", "session_id": "s3ss10n", "cookie": "c00k1e", "seat": 1},
        )
    finally:
        logger.removeHandler(handler)
    line = json.loads(out.getvalue())
    assert line["event"] == "signed in" and line["seat"] == 1
    for secret in ("hunter2", "s3ss10n", "c00k1e"):
        assert secret not in out.getvalue()


def test_each_response_names_its_request_id_keeping_a_sane_one_it_was_given(
    sqlite_url: str, tmp_path: Path
) -> None:
    with running(make_app(sqlite_url, tmp_path)) as new_client:
        client = new_client(None)
        given = client.get("/api/games", headers={"X-Request-ID": "edge-4f2a:7"})
        assert given.headers["X-Request-ID"] == "edge-4f2a:7"
        for forged in ("two words", "x" * 65, "id;drop", "line\tbreak"):
            fresh = client.get("/api/games", headers={"X-Request-ID": forged}).headers
            assert re.fullmatch(r"[0-9a-f]{32}", fresh["X-Request-ID"]), forged
        ids = {client.get("/healthz").headers["X-Request-ID"] for _ in range(3)}
        assert len(ids) == 3
