"""What a page sends on the live channel (/ws/me) that the server does not take — binary
frames, oversized or unknown messages, a flood — gets the play socket's errors and changes
nothing; a flood is then closed, as on the play socket."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.app.helpers import NewClient, make_app, running


def test_what_the_live_channel_does_not_take_is_refused_clearly(new_client: NewClient) -> None:
    ann = new_client("Ann")
    cases: list[tuple[str, str]] = [
        ("not json", "bad_message"),
        (json.dumps({"type": "dance"}), "bad_message"),
        (json.dumps({"type": "ping", "extra": 1}), "bad_message"),
        (json.dumps([1, 2]), "bad_message"),
        (json.dumps({"type": "ping", "pad": "y" * 20000}), "message_too_large"),
    ]
    with ann.websocket_connect("/ws/me") as page:
        for text, code in cases:
            page.send_text(text)
            error = page.receive_json()
            assert (error["type"], error["code"]) == ("error", code), text
            assert error["message"]
        page.send_bytes(b"\x00\x01")
        error = page.receive_json()
        assert error["code"] == "bad_message" and "binary" in error["message"]
        page.send_json({"type": "ping"})  # the socket still serves
        assert page.receive_json() == {"type": "pong"}


def test_a_flood_on_the_live_channel_is_rate_limited_then_closed(
    database_url: str, tmp_path: Path
) -> None:
    app = make_app(database_url, tmp_path, rate_per_second=1.0, rate_burst=3, max_rate_violations=5)
    with running(app) as new_client:
        ann = new_client("Ann")
        with ann.websocket_connect("/ws/me") as page:
            for _ in range(3):
                page.send_json({"type": "ping"})
            assert [page.receive_json() for _ in range(3)] == [{"type": "pong"}] * 3
            page.send_json({"type": "ping"})
            assert page.receive_json()["code"] == "rate_limited"
            for _ in range(10):
                page.send_json({"type": "ping"})
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    codes.append(page.receive_json().get("code"))
            assert set(codes) <= {"rate_limited"}
            assert closed.value.code == 1008
