"""The WebSocket "preview" message: what an action would do, checked as an act is checked,
answered with {"type": "preview", "ok": ...} and never changing the room (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.app.helpers import NewClient, next_of, started_room, state_at


def ask(ws: WebSocketTestSession, version: Any, action: Any) -> dict[str, Any]:
    ws.send_json({"type": "preview", "version": version, "action": action})
    return next_of(ws, "preview")


def room_version(client: TestClient, room: dict[str, Any]) -> int:
    return int(client.get(f"/api/rooms/{room['id']}").json()["version"])


def test_a_game_without_preview_is_checked_by_apply(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = started_room(ann, [bob])  # Cupid has no preview member
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as wa,
        bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb,
    ):
        sa, sb = next_of(wa, "state"), next_of(wb, "state")
        mover, mover_state, waiter_state = (
            (wa, sa, sb) if sa["view"]["to_act"] == [0] else (wb, sb, sa)
        )
        legal = mover_state["view"]["legal_actions"][0]
        assert ask(mover, 0, legal) == {"type": "preview", "version": 0, "ok": True, "result": {}}
        wrong = {"type": "play", "card": waiter_state["view"]["hand"][0]}
        answer = ask(mover, 0, wrong)
        assert answer["ok"] is False and answer["code"] == "illegal_action"
        assert answer["version"] == 0 and answer["message"]
        answer = ask(mover, 0, {"type": "fly"})
        assert answer["ok"] is False and answer["code"] == "illegal_action"
        assert room_version(ann, room) == 0
        # The previewed action still applies at version 0.
        mover.send_json({"type": "act", "version": 0, "action": legal})
        assert state_at(mover, 1)["version"] == 1
        assert room_version(ann, room) == 1


def test_refusals_come_in_the_order_act_checks_them(new_client: NewClient) -> None:
    ann, bob, eve = new_client("Ann"), new_client("Bob"), new_client("Eve")
    room = started_room(ann, [bob])
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as wa,
        bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb,
        eve.websocket_connect(f"/ws/rooms/{room['id']}") as we,
    ):
        sa, sb = next_of(wa, "state"), next_of(wb, "state")
        next_of(we, "state")
        mover, waiter, mover_state = (wa, wb, sa) if sa["view"]["to_act"] == [0] else (wb, wa, sb)
        legal = mover_state["view"]["legal_actions"][0]
        cases: list[tuple[WebSocketTestSession, int, str]] = [
            (we, 0, "not_seated"),
            (mover, 3, "stale_version"),
            (waiter, 0, "not_your_turn"),
            # Stale is checked before the turn, as for an act.
            (waiter, 3, "stale_version"),
        ]
        for ws, version, code in cases:
            answer = ask(ws, version, legal)
            assert answer["type"] == "preview" and answer["version"] == version
            assert answer["ok"] is False and answer["code"] == code, (code, answer)
            assert answer["message"] and "result" not in answer
        assert room_version(ann, room) == 0
        # A refused preview is an answer, not an error: the connection acts on as before.
        mover.send_json({"type": "act", "version": 0, "action": legal})
        assert state_at(mover, 1)["version"] == 1


def test_previews_before_the_start_and_bad_preview_messages(new_client: NewClient) -> None:
    ann = new_client("Ann")
    rid = ann.post("/api/rooms", json={"game": "cupid"}).json()["id"]
    with ann.websocket_connect(f"/ws/rooms/{rid}") as ws:
        next_of(ws, "room")
        answer = ask(ws, 0, {"type": "pass"})
        assert answer["ok"] is False and answer["code"] == "match_not_started"
        for bad in (
            {"type": "preview", "version": "0", "action": {"type": "pass"}},
            {"type": "preview", "version": 0},
            {"type": "preview", "version": 0, "action": {"type": "pass"}, "id": 1},
        ):
            ws.send_json(bad)
            assert next_of(ws, "error")["code"] == "bad_message"


def test_a_preview_never_changes_the_room(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = started_room(ann, [bob])
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as wa,
        bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb,
    ):
        sa, sb = next_of(wa, "state"), next_of(wb, "state")
        mover, mover_state = (wa, sa) if sa["view"]["to_act"] == [0] else (wb, sb)
        for action in mover_state["view"]["legal_actions"]:
            assert ask(mover, 0, action)["ok"] is True
        assert room_version(ann, room) == 0
        # No state message was sent for a preview: the next message after a ping is a pong.
        mover.send_json({"type": "ping"})
        assert mover.receive_json() == {"type": "pong"}
        record = ann.get(f"/api/rooms/{room['id']}").json()
        assert record["version"] == 0 and record["status"] == "playing"


def test_wifeswap_previews_the_trick_winners_layout(new_client: NewClient) -> None:
    ann, bob, cat = new_client("Ann"), new_client("Bob"), new_client("Cat")
    room = started_room(ann, [bob, cat], game="wifeswap")
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as wa,
        bob.websocket_connect(f"/ws/rooms/{room['id']}") as wb,
        cat.websocket_connect(f"/ws/rooms/{room['id']}") as wc,
    ):
        sockets = [wa, wb, wc]
        version = 0
        while True:
            states = [state_at(ws, version) for ws in sockets]
            view = states[0]["view"]
            (seat,) = view["to_act"]
            mine = states[seat]["view"]
            if mine["phase"] == "arrange":
                break
            sockets[seat].send_json(
                {"type": "act", "version": version, "action": mine["legal_actions"][0]}
            )
            version += 1
        answer = ask(sockets[seat], version, {"type": "pass"})
        assert answer["ok"] is True
        assert answer["result"] == {"families": [], "orphans": [], "total": 0}
        for action in mine["legal_actions"][1:]:
            answer = ask(sockets[seat], version, action)
            assert answer["ok"] is True, answer
            result = answer["result"]
            assert [f["cards"] for f in result["families"]] == action["families"]
            assert result["total"] == sum(f["points"] for f in result["families"])
        bad = {"type": "arrange", "families": [[mine["hand"][0]]]}
        answer = ask(sockets[seat], version, bad)
        assert answer["ok"] is False and answer["code"] == "illegal_action"
        assert answer["message"].startswith("Family 1")
        assert room_version(ann, room) == version
