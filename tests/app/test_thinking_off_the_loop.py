"""Searching computer players think in worker processes: while four strong computers
think at once, the server keeps answering: pings are answered while several of their moves
are out in the pool at once. Were the searches run on the event loop, each would hold the
loop until done, so no ping could be answered with more than one of them begun. Nothing
here is timed: a ping held up by a busy machine does not fail it."""

from __future__ import annotations

import time
from pathlib import Path

from app.main import create_app
from tests.app.helpers import make_settings, next_of, running

ROOMS = 4
PACE = 0.06  # seconds between pings: within a connection's message rate


def test_the_server_answers_while_four_strong_computers_think(
    database_url: str, tmp_path: Path
) -> None:
    app = create_app(make_settings(database_url, tmp_path))
    thinkers = app.state.rooms.bots.thinkers
    with running(app) as new_client:
        ann = new_client("Ann")
        rooms = []
        for _ in range(ROOMS):
            # The dealer leads Cupid's first trick: the computer in seat 1 moves first.
            body = {"game": "cupid", "seats": 2, "options": {"dealer": 1}}
            room = ann.post("/api/rooms", json=body).json()
            bot = {"seat": 1, "kind": "strong"}
            assert ann.post(f"/api/rooms/{room['id']}/bots", json=bot).status_code == 200
            rooms.append(room["id"])
        with ann.websocket_connect(f"/ws/rooms/{rooms[0]}") as ws:

            def ping() -> int:
                """Ping; how many computers' moves were out in the pool once answered."""
                ws.send_json({"type": "ping"})
                next_of(ws, "pong")
                return int(thinkers.thinking)

            for room_id in rooms:
                assert ann.post(f"/api/rooms/{room_id}/start").status_code == 200
            out_at_answers = []
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                out_at_answers.append(ping())
                versions = [ann.get(f"/api/rooms/{r}").json()["version"] for r in rooms]
                if min(versions) >= 1:
                    break
                time.sleep(PACE)
            else:
                raise AssertionError("the computers did not move within two minutes")
    assert max(out_at_answers) >= 2, ("no ping answered while several thought", out_at_answers)
