"""Searching computer players think in worker processes: while four strong computers
think at once, the server keeps answering. A ping's round trip while they think stays under
the time one such search takes (measured here); were the searches run on the event loop, a
ping would wait for them (four in a row), and few pings would be answered at all."""

from __future__ import annotations

import time
from pathlib import Path

from app.main import create_app
from app.rooms.thinking import THINKING_SECONDS, think
from games import cupid
from tests.app.helpers import make_settings, next_of, running

ROOMS = 4
PACE = 0.06  # seconds between pings: within a connection's message rate


def _one_strong_search() -> float:
    """Seconds one strong search takes here, on Cupid's first move (as in the rooms)."""
    state = cupid.RULES.new_game(2, "baseline", {"dealer": 1})
    started = time.perf_counter()
    think("cupid", state, 1, "baseline:0:1", "strong", time.time() + THINKING_SECONDS["strong"])
    return time.perf_counter() - started


def test_the_server_answers_while_four_strong_computers_think(
    database_url: str, tmp_path: Path
) -> None:
    search_seconds = _one_strong_search()
    app = create_app(make_settings(database_url, tmp_path))
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

            def ping() -> float:
                sent = time.perf_counter()
                ws.send_json({"type": "ping"})
                next_of(ws, "pong")
                return time.perf_counter() - sent

            for room_id in rooms:
                assert ann.post(f"/api/rooms/{room_id}/start").status_code == 200
            round_trips = []
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                round_trips.append(ping())
                versions = [ann.get(f"/api/rooms/{r}").json()["version"] for r in rooms]
                if min(versions) >= 1:
                    break
                time.sleep(PACE)
            else:
                raise AssertionError("the computers did not move within two minutes")
    assert len(round_trips) >= ROOMS, "too few pings while the computers thought"
    assert max(round_trips) < search_seconds, (max(round_trips), search_seconds)
