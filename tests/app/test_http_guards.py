"""Requests from other sites, non-JSON bodies and oversized bodies are refused with codes
before any route runs; every response carries the security headers."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.app.helpers import NewClient, make_app, running

EVIL = {"Origin": "http://evil.example"}


def test_a_state_change_from_another_site_is_refused(new_client: NewClient) -> None:
    ann = new_client("Ann")
    refused = ann.post("/api/rooms", json={"game": "cupid"}, headers=EVIL)
    assert refused.status_code == 403 and refused.json()["code"] == "bad_origin"
    assert ann.get("/api/rooms").json() == []  # nothing was created
    same_site = ann.post(
        "/api/rooms", json={"game": "cupid"}, headers={"Origin": "http://testserver"}
    )
    assert same_site.status_code == 201


def test_an_allowed_origin_may_change_state(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path, allowed_origins="https://play.example")
    with running(app) as new_client:
        ann = new_client("Ann")
        created = ann.post(
            "/api/rooms", json={"game": "cupid"}, headers={"Origin": "https://play.example"}
        )
        assert created.status_code == 201


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data"]
)
def test_only_json_bodies_are_accepted(new_client: NewClient, content_type: str) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    refused = bob.post(
        f"/api/rooms/{room['id']}/join", content=b"seat=1", headers={"Content-Type": content_type}
    )
    assert refused.status_code == 415 and refused.json()["code"] == "unsupported_media_type"
    assert ann.get(f"/api/rooms/{room['id']}").json()["seats"][1]["name"] is None


def test_an_oversized_body_is_refused_unread(new_client: NewClient) -> None:
    ann = new_client("Ann")
    huge = b'{"game": "cupid", "pad": "' + b"x" * 20_000_000 + b'"}'
    refused = ann.post("/api/rooms", content=huge, headers={"Content-Type": "application/json"})
    assert refused.status_code == 413 and refused.json()["code"] == "body_too_large"


def test_pages_and_answers_carry_the_security_headers(new_client: NewClient) -> None:
    visitor = new_client(None)
    for response in (visitor.get("/"), visitor.get("/api/games")):
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["referrer-policy"] == "same-origin"


def test_a_socket_from_another_site_is_refused(new_client: NewClient) -> None:
    ann = new_client("Ann")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        ann.websocket_connect(f"/ws/rooms/{room['id']}", headers=EVIL) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4403
    with ann.websocket_connect(
        f"/ws/rooms/{room['id']}", headers={"Origin": "http://testserver"}
    ) as ws:
        assert ws.receive_json()["type"] == "room"
