"""A message that reaches a server process while it stops (after it stopped taking new work,
before it exits) is refused ``unavailable`` with a message that says the server is
restarting; nothing changes, the socket closes with 1012, and the client that sends it
again once reconnected has it taken — once."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.departure import Departure
from app.routes.ws import RESTARTING
from tests.app.helpers import make_app, next_of, room_of, running, started_room

SERVICE_RESTART = 1012


def logged_moves(client: TestClient, match_id: str) -> list[int]:
    """The seqs of the match's event log, read from the database."""
    storage = client.app.state.rooms.storage  # type: ignore[attr-defined]
    _, events = client.portal.call(storage.load_log, match_id)  # type: ignore[union-attr]
    return [event.seq for event in events]


def test_an_action_reaching_a_stopping_process_is_refused_and_taken_once_sent_again(
    database_url: str, tmp_path: Path
) -> None:
    with running(make_app(database_url, tmp_path / "stopping")) as new_client:
        ann, bob = new_client("Ann"), new_client("Bob")
        room = started_room(ann, [bob])
        match_id = room["match_id"]
        with ann.websocket_connect(f"/ws/rooms/{room['id']}") as first:
            state = next_of(first, "state")
            mover = [ann, bob][state["view"]["to_act"][0]]
        with mover.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
            state = next_of(ws, "state")
            action = state["view"]["legal_actions"][0]
            act = {"type": "act", "version": state["version"], "action": action}
            app = mover.app
            assert mover.portal is not None
            # The process begins to stop: it takes nothing new from here on.
            mover.portal.call(app.state.hub.stop_serving)  # type: ignore[attr-defined]
            ws.send_json(act)
            refusal = next_of(ws, "error")
            assert refusal["code"] == "unavailable"
            assert refusal["message"] == RESTARTING
            # Nothing changed: the table and its log are where they were.
            assert room_of(mover, room["id"])["version"] == state["version"]
            assert logged_moves(mover, match_id) == []
            # The rest of the stop: the socket is told to reconnect.
            departure = Departure(app.state.hub, app.state.rooms)  # type: ignore[attr-defined]
            stopped = mover.portal.start_task_soon(departure)
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            assert closed.value.code == SERVICE_RESTART
        stopped.result()
        assert logged_moves(mover, match_id) == []

    # The next process (the same database): the client reconnects and sends it again.
    with running(make_app(database_url, tmp_path / "next")) as new_client:
        again = new_client(None)
        again.cookies = mover.cookies
        with again.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
            shown = next_of(ws, "state")
            assert shown["version"] == state["version"], "the table has not moved on"
            ws.send_json(act)
            assert next_of(ws, "state")["version"] == state["version"] + 1
            # The same message once more is answered as taken: never applied twice.
            ws.send_json(act)
            ws.send_json({"type": "ping"})  # a barrier: replies come in order
            while (message := ws.receive_json())["type"] != "pong":
                assert message["type"] != "error", message
        assert logged_moves(again, match_id) == [state["version"] + 1]
