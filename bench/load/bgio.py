"""What a table's seats say to boardgame.io's server (bench/bgio/server.js) playing Cupid.

Each match is made through boardgame.io's lobby API (``create``, then ``join`` for every
seat; a finished match's ``playAgain``, then ``join`` again), so a table gets a fresh
match and fresh sockets per match, as on Parlour. The seats speak socket.io (protocol 5,
over engine.io 4: the socket.io 4 server boardgame.io 0.50.2 ships) on the same WebSocket
client and reader as Parlour's seats (bench/load/generator.py), so the generator's own cost
is the same for both; python-socketio's packet codec writes and reads the socket.io
packets, and the engine.io layer is one character in front of each (``4`` a message,
``2`` the server's ping, answered ``3``).

A seat connects the game's namespace when engine.io opens, then sends ``sync`` (match,
seat, credentials). The server answers with ``sync`` (the state as the seat may see it)
and, after every move, ``update``; a state's ``_stateID`` is the version the generator
times. Whoever ``ctx.currentPlayer`` names acts with a random legal move, read off the
state as the rules allow it (docs/rules/cupid.md): a ``draw`` from either source after a
won trick, else a ``play`` of any card in hand. The move is sent as boardgame.io's client
sends it: ``update`` with the ``MAKE_MOVE`` action and the state id it was chosen at.
"""

from __future__ import annotations

from typing import Any

import orjson
from engineio import packet as engineio_packet  # type: ignore[import-untyped]
from socketio import packet as socketio_packet  # type: ignore[import-untyped]

from bench.load.generator import Generator, ProtocolFactory, Table

GAME = "cupid"  # the game's name in bench/bgio/cupid.js: its lobby path and namespace
NAMESPACE = f"/{GAME}"
SOCKET_PATH = "/socket.io/?EIO=4&transport=websocket"
SOURCES = ("stock", "turnup")  # where a trick's winner may draw from


class _OrJson:
    """The json python-socketio's packets use: orjson, as Parlour's seats parse theirs."""

    @staticmethod
    def dumps(obj: Any, **_: Any) -> str:
        return orjson.dumps(obj).decode()

    loads = staticmethod(orjson.loads)


class Packet(socketio_packet.Packet):  # type: ignore[misc]
    """A socket.io packet, its JSON read and written by orjson."""

    json = _OrJson
    uses_binary_events = False  # nothing binary is ever sent: no need to look for it


def encode(event: str, *args: Any) -> str:
    """The WebSocket frame of a socket.io event in the game's namespace."""
    packet = Packet(socketio_packet.EVENT, data=[event, *args], namespace=NAMESPACE)
    return engineio_packet.Packet(engineio_packet.MESSAGE, packet.encode()).encode()  # type: ignore[no-any-return]


CONNECT = engineio_packet.Packet(
    engineio_packet.MESSAGE, Packet(socketio_packet.CONNECT, namespace=NAMESPACE).encode()
).encode()
PONG = engineio_packet.Packet(engineio_packet.PONG).encode()


def legal_moves(state: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    """The moves (name, argument) ``seat`` may make in ``state``, as it sees it: none
    unless it is the seat awaited."""
    if state["ctx"].get("gameover") is not None or state["ctx"]["currentPlayer"] != str(seat):
        return []
    table = state["G"]
    if table["phase"] == "draw":
        return [("draw", source) for source in SOURCES]
    return [("play", card) for card in table["hands"][seat]]


class BgioProtocol:
    """boardgame.io's Cupid: matches from its lobby, moves over socket.io."""

    def __init__(self, gen: Generator, setup_data: dict[str, Any]) -> None:
        self.gen = gen
        self.setup_data = setup_data  # the match options (Cupid's target)
        self.credentials: dict[int, list[str]] = {}  # per table, each seat's credentials

    def path(self, table: Table, seat: int) -> str:
        return SOCKET_PATH

    async def setup(self, table: Table) -> None:
        body = {"numPlayers": table.seat_count, "setupData": self.setup_data, "unlisted": True}
        created = await self.gen.api(table).call("POST", f"/games/{GAME}/create", None, body)
        await self.join(table, str(created.json()["matchID"]))

    async def join(self, table: Table, match_id: str) -> None:
        """Take every seat of match ``match_id`` for ``table``."""
        api = self.gen.api(table)
        credentials = []
        for seat in range(table.seat_count):
            body = {"playerID": str(seat), "playerName": f"T{table.index}s{seat}"}
            joined = await api.call("POST", f"/games/{GAME}/{match_id}/join", None, body)
            credentials.append(str(joined.json()["playerCredentials"]))
        table.room_id = match_id
        self.credentials[table.index] = credentials

    def begin(self, table: Table) -> None:
        pass  # each seat syncs once its namespace is connected

    async def rematch(self, table: Table) -> None:
        body = {
            "playerID": "0",
            "credentials": self.credentials[table.index][0],
            "unlisted": True,
        }
        path = f"/games/{GAME}/{table.room_id}/playAgain"
        again = await self.gen.api(table).call("POST", path, None, body)
        await self.join(table, str(again.json()["nextMatchID"]))
        self.gen.stats.rematches += 1

    def on_message(self, table: Table, seat: int, raw: str | bytes) -> None:
        if isinstance(raw, bytes):
            self.gen.stats.error("bgio:binary")
            return
        kind = raw[:1]
        if kind == "2":  # engine.io's ping: unanswered, the server closes the socket
            table.say(seat, PONG)
        elif kind == "0":  # engine.io is open: join the game's namespace
            table.say(seat, CONNECT)
        elif kind == "4":
            self.on_packet(table, seat, Packet(encoded_packet=raw[1:]), len(raw))
        elif kind == "1":
            self.gen.stats.error("bgio:closed")

    def on_packet(self, table: Table, seat: int, packet: Packet, size: int) -> None:
        """A socket.io packet of ``size`` bytes reached ``seat``."""
        if packet.packet_type == socketio_packet.CONNECT:
            credentials = self.credentials[table.index][seat]
            table.say(seat, encode("sync", table.room_id, str(seat), credentials, table.seat_count))
        elif packet.packet_type == socketio_packet.EVENT:
            event, *args = packet.data
            if event == "update":  # [matchID, state, deltalog]
                self.on_state(table, seat, args[1], size)
            elif event == "sync":  # [matchID, {state, log, filteredMetadata, initialState}]
                self.on_state(table, seat, args[1]["state"], size)
            # "matchData" (who is connected) needs nothing
        elif packet.packet_type == socketio_packet.CONNECT_ERROR:
            self.gen.stats.error("bgio:connect_error")

    def on_state(self, table: Table, seat: int, state: dict[str, Any], size: int) -> None:
        """A state reached ``seat``: count it, and act if the seat is awaited."""
        version = int(state["_stateID"])
        table.state_received(seat, version, size)
        if state["ctx"].get("gameover") is not None:
            if not table.over.is_set():
                self.gen.stats.matches_finished += 1
                table.over.set()
            return
        moves = legal_moves(state, seat)
        if not moves:
            return
        move, argument = moves[table.rng.randrange(len(moves))]
        action = {
            "type": "MAKE_MOVE",
            "payload": {
                "type": move,
                "args": [argument],
                "playerID": str(seat),
                "credentials": self.credentials[table.index][seat],
            },
        }
        table.may_act(seat, version, encode("update", action, version, table.room_id, str(seat)))


def bgio(setup_data: dict[str, Any]) -> ProtocolFactory:
    """boardgame.io's Cupid, each match made with ``setup_data`` (its options)."""
    return lambda gen: BgioProtocol(gen, setup_data)
