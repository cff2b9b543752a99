"""The side-by-side benchmark's boardgame.io seats (bench/load/bgio.py) read what
boardgame.io 0.50.2's server says: a whole recorded match (boardgameio_cupid_match.json)
is replayed to a table's two seats, which must answer the handshake, sync with their
credentials, send a legal move at every state that awaits them, time every move and see
the match end. Nothing is timed; no server is started."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import orjson

from bench.load.bgio import CONNECT, PONG, bgio
from bench.load.generator import Generator, Table

RECORDED = json.loads((Path(__file__).parent / "boardgameio_cupid_match.json").read_text())
MATCH = RECORDED["match"]
CREDENTIALS = RECORDED["credentials"]


class Socket:
    """A seat's WebSocket that keeps what is sent on it."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, text: str) -> None:
        self.sent.append(text)


def event(frame: str) -> list[Any]:
    """The socket.io event in a WebSocket frame of the game's namespace."""
    assert frame.startswith("42/cupid,"), frame
    data: list[Any] = orjson.loads(frame[len("42/cupid,") :])
    return data


def replay() -> tuple[Table, list[Socket], list[tuple[int, dict[str, Any]]]]:
    """Every recorded frame to its seat, in order; the table, its sockets and each state
    a seat received (seat, state)."""

    async def run() -> tuple[Table, list[Socket], list[tuple[int, dict[str, Any]]]]:
        gen = Generator([], None, bgio({"target": 10}))
        table = Table(gen, 0, "cupid", 2)
        table.room_id = MATCH
        gen.protocol.credentials[0] = CREDENTIALS  # type: ignore[attr-defined]
        sockets = [Socket(), Socket()]
        table.sockets = sockets  # type: ignore[assignment]
        states = []
        for item in RECORDED["frames"]:
            seat, frame = item["seat"], item["frame"]
            if frame.startswith("42/cupid,"):
                name, _, payload, *_ = event(frame)
                if name in ("sync", "update"):
                    states.append((seat, payload["state"] if name == "sync" else payload))
            gen.protocol.on_message(table, seat, frame)
            await asyncio.sleep(0)  # the sends the message started
        gen.protocol.on_message(table, 1, "2")  # engine.io's ping
        await asyncio.sleep(0)
        await gen.close()
        return table, sockets, states

    return asyncio.run(run())


def test_each_seat_joins_the_namespace_and_syncs_with_its_credentials() -> None:
    _, sockets, _ = replay()
    for seat, socket in enumerate(sockets):
        assert socket.sent[0] == CONNECT
        assert event(socket.sent[1]) == ["sync", MATCH, str(seat), CREDENTIALS[seat], 2]


def test_a_seat_answers_the_servers_ping() -> None:
    _, sockets, _ = replay()
    assert sockets[1].sent[-1] == PONG


def test_every_state_that_awaits_a_seat_gets_a_legal_move_from_it() -> None:
    _, sockets, states = replay()
    awaited = [
        (seat, state)
        for seat, state in states
        if state["ctx"]["currentPlayer"] == str(seat) and state["ctx"].get("gameover") is None
    ]
    moves = [event(text) for socket in sockets for text in socket.sent if '["update"' in text]
    assert len(awaited) == len(moves) == 5
    by_version = {(m[4], m[2]): m for m in moves}
    for seat, state in awaited:
        name, action, version, match, player = by_version[(str(seat), state["_stateID"])]
        assert (name, match, player, version) == ("update", MATCH, str(seat), state["_stateID"])
        assert action["type"] == "MAKE_MOVE"
        payload = action["payload"]
        assert payload["playerID"] == str(seat)
        assert payload["credentials"] == CREDENTIALS[seat]
        if state["G"]["phase"] == "draw":
            assert payload["type"] == "draw" and payload["args"][0] in ("stock", "turnup")
        else:
            assert payload["type"] == "play" and payload["args"][0] in state["G"]["hands"][seat]


def test_every_move_is_timed_and_the_match_ends() -> None:
    table, _, states = replay()
    stats = table.gen.stats
    assert len(stats.done) == 5  # each move's state reached both seats
    assert not table.pending
    assert table.over.is_set() and stats.matches_finished == 1
    assert stats.state_messages == len(states)
    assert not stats.errors
