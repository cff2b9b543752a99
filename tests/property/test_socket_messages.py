"""Property: whatever a player's socket sends — valid actions, mutated ones, hostile
junk — every message is answered (a state, a preview, a pong or an error with a
documented code), and a refused message changes nothing, in every game."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

import games
from app.db import upgrade_to_head
from app.http.schemas import ERROR_CODES
from tests.app.helpers import make_app, running, started_room

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
JSON = st.recursive(
    SCALARS | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ANSWERS = {"state", "preview", "pong", "error"}
# How a message is made from the table as it stands: independent of the table, so that
# Hypothesis can replay and shrink a failing sequence.
KINDS = (
    "valid", "valid", "valid", "preview", "version+1", "version-1", "version as text",
    "extra field", "extra action field", "mangled action", "junk action", "junk message",
    "bare type", "not json",
)  # fmt: skip
PLAN = st.tuples(st.sampled_from(KINDS), st.integers(0, 10_000), JSON, st.text(max_size=8))


def is_json(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


def make_message(plan: tuple[str, int, Any, str], view: dict[str, Any], version: int) -> str:
    kind, pick, junk, word = plan
    legal = view["legal_actions"] or [{"type": "play", "card": "AS"}]
    action = legal[pick % len(legal)]
    message: Any = {"type": "act", "version": version, "action": action}
    if kind == "preview":
        message["type"] = "preview"
    elif kind == "version+1":
        message["version"] = version + 1
    elif kind == "version-1":
        message["version"] = version - 1
    elif kind == "version as text":
        message["version"] = str(version)
    elif kind == "extra field":
        message["extra"] = junk
    elif kind == "extra action field":
        message["action"] = {**action, word or "x": junk}
    elif kind == "mangled action":
        message["action"] = {k: (v if k == "type" else junk) for k, v in action.items()}
    elif kind == "junk action":
        message["action"] = junk
    elif kind == "junk message":
        message = junk
    elif kind == "bare type":
        message = {"type": word}
    elif kind == "not json":
        return word + "{" if not is_json(word + "{") else "{{"
    # The standard library's encoder: hostile numbers may be beyond 64 bits.
    return json.dumps(message)


class Table:
    """Every seat of one started room, connected; follows the room's version."""

    def __init__(self, host: TestClient, room_id: str, sockets: list[WebSocketTestSession]):
        self.host = host
        self.room_id = room_id
        self.sockets = sockets
        self.views = [self.next_state(ws) for ws in sockets]
        self.version = 0

    @staticmethod
    def next_state(ws: WebSocketTestSession) -> dict[str, Any]:
        while (message := ws.receive_json())["type"] != "state":
            pass
        return message

    def exchange(self, seat: int, payload: str) -> list[dict[str, Any]]:
        """Send ``payload`` from ``seat``, then a ping; everything received up to the pong
        that answers the ping (answers keep the order of the messages they answer)."""
        ws = self.sockets[seat]
        ws.send_text(payload)
        ws.send_text('{"type":"ping"}')
        pongs = 2 if is_json(payload) and json.loads(payload) == {"type": "ping"} else 1
        received = []
        while pongs:
            message = ws.receive_json()
            received.append(message)
            pongs -= message["type"] == "pong"
        return received[:-1]


OpenTable = Callable[[ExitStack], Table]


@pytest.fixture(params=sorted(games.REGISTRY))
def open_table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OpenTable]:
    """Opens a fresh started room of the game with every seat connected, on one app."""
    url = f"sqlite:///{tmp_path / 'property.db'}"
    upgrade_to_head(url)
    # Every example opens a room and a socket per seat: lift the rate limit and the caps
    # on rooms per person (each has its own test) so that only the messages are on trial.
    app = make_app(
        url,
        tmp_path,
        rate_per_second=100_000.0,
        rate_burst=100_000,
        rooms_per_hour_per_person=1_000_000,
        rooms_per_hour_per_address=1_000_000,
    )
    game = request.param
    seats = games.get(game).min_seats
    with running(app) as new_client:
        clients = [new_client(f"P{i}") for i in range(seats)]

        def open_one(stack: ExitStack) -> Table:
            room = started_room(clients[0], clients[1:], game=game)
            sockets = [
                stack.enter_context(c.websocket_connect(f"/ws/rooms/{room['id']}")) for c in clients
            ]
            return Table(clients[0], room["id"], sockets)

        yield open_one


# Bounded for `make test`: a dozen sequences of up to 25 messages per game, and no
# shrinking (a failure reports the sequence as generated, which replays as it is).
@settings(
    max_examples=12,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plans=st.lists(st.tuples(st.integers(0, 5), PLAN), min_size=1, max_size=25))
def test_every_message_is_answered_and_refusals_change_nothing(
    open_table: OpenTable, plans: list[tuple[int, tuple[str, int, Any, str]]]
) -> None:
    with ExitStack() as stack:
        table = open_table(stack)
        for pick_seat, plan in plans:
            awaited = table.views[0]["view"]["to_act"]
            if not awaited:
                return  # the match is over
            seat = awaited[pick_seat % len(awaited)]
            payload = make_message(plan, table.views[seat]["view"], table.version)
            received = table.exchange(seat, payload)
            check(table, seat, payload, received)


def check(table: Table, seat: int, payload: str, received: list[dict[str, Any]]) -> None:
    kinds = [m["type"] for m in received]
    assert set(kinds) <= ANSWERS | {"room", "chat_log"}, received
    assert set(kinds) & ANSWERS, f"no answer to {payload!r}: {received}"
    for message in received:
        if message["type"] == "error":
            assert message["code"] in ERROR_CODES and message["message"], message
    states = [m for m in received if m["type"] == "state"]
    if not states:  # refused, or a preview or ping: the table did not move
        room = table.host.get(f"/api/rooms/{table.room_id}").json()
        assert room["version"] == table.version, (payload, received)
        return
    assert states[-1]["version"] == table.version + 1, (payload, received)
    table.version += 1
    for other, ws in enumerate(table.sockets):
        table.views[other] = states[-1] if other == seat else table.next_state(ws)
        assert table.views[other]["version"] == table.version
