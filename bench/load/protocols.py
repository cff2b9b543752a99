"""What a benchmark table's seats say: Parlour's own protocol on real rooms, or the echo
baseline's turns (bench/echo_server.py), with messages the size of the real server's."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import orjson

from bench.load.generator import Generator, ProtocolFactory, Table

# Seconds a table waits for the rematch its seats accepted over their sockets to start.
REMATCH_TIMEOUT = 10.0
ACCEPT_REMATCH = orjson.dumps({"type": "rematch", "accept": True}).decode()


class ParlourProtocol:
    """Real rooms on the real server: act with a random legal action when it is our turn;
    at the end of a match every seat accepts the rematch over its socket, as the table's
    players do in a browser, and the table moves to the room it starts."""

    def __init__(self, gen: Generator, options: dict[str, dict[str, Any]]) -> None:
        self.gen = gen
        self.options = options  # each game's room options
        # Per table: the rematch room its seats accepted, once the server names it.
        self.rematches: dict[int, asyncio.Future[str]] = {}

    async def setup(self, table: Table) -> None:
        api = self.gen.api(table)
        table.cookies = [
            await api.session(f"T{table.index}s{seat}") for seat in range(table.seat_count)
        ]
        table.room_id = await api.new_table(
            table.cookies, table.game, self.options.get(table.game, {})
        )

    def path(self, table: Table, seat: int) -> str:
        return f"/ws/rooms/{table.room_id}"

    def begin(self, table: Table) -> None:
        pass  # the server sends each seat its state on connect

    async def rematch(self, table: Table) -> None:
        """Every seat accepts the rematch over its socket; the server starts it once all have
        (docs/protocol.md, "Rematch by acceptance") and names its room. In a run that
        restarts the servers it asks over HTTP instead: an acceptance sent to a process as
        it stops is refused and its socket closed, and the HTTP call, asked again, gives the
        room it opened the first time."""
        if self.gen.reconnect:
            table.room_id = await self.gen.api(table).rematch(table.room_id, table.cookies[0])
        else:
            started = asyncio.get_running_loop().create_future()
            self.rematches[table.index] = started
            try:
                for socket in table.sockets:
                    assert socket is not None, "only a restart run's sockets are ever missing"
                    await socket.send(ACCEPT_REMATCH)
                table.room_id = await asyncio.wait_for(started, REMATCH_TIMEOUT)
            finally:
                del self.rematches[table.index]
        self.gen.stats.rematches += 1

    def on_message(self, table: Table, seat: int, raw: str | bytes) -> None:
        message = orjson.loads(raw)
        kind = message.get("type")
        stats = self.gen.stats
        if kind == "state":
            version = message["version"]
            table.state_received(seat, version, len(raw))
            view = message["view"]
            if self.gen.reconnect:
                self.acknowledge(table, seat, version)
            if view.get("over"):
                if not table.over.is_set():
                    stats.matches_finished += 1
                    table.over.set()
                return
            legal = view.get("legal_actions")
            if legal and seat in view.get("to_act", ()):
                action = legal[table.rng.randrange(len(legal))]
                text = orjson.dumps({"type": "act", "version": version, "action": action})
                sole = action if view["to_act"] == [seat] else None
                table.may_act(seat, version, text.decode(), sole)
        elif kind == "room":
            room = message["room"]
            waiting = self.rematches.get(table.index)
            offer = room.get("rematch_offer") or {}
            if waiting is not None and not waiting.done() and offer.get("started"):
                waiting.set_result(str(room["rematch_id"]))
        elif kind == "error":
            if message.get("code") == "unavailable" and "restarting" in message["message"]:
                stats.refused_restarting += 1  # the socket closes next; sent again then
            else:
                stats.error(str(message.get("code")))
                self.gen.note(
                    f"table {table.index} seat {seat} in room {table.room_id}: "
                    f"{message.get('code')}: {message.get('message')}"
                )

    def acknowledge(self, table: Table, seat: int, version: int) -> None:
        """The seat sees the table past the version it alone was awaited at: the move at
        the next seq is the one it sent there (kept, to compare with the event log)."""
        chosen = table.chosen.get(seat)
        if chosen is not None and version > chosen[0]:
            self.gen.acknowledged[(table.room_id, chosen[0] + 1)] = chosen[1]
            del table.chosen[seat]


def parlour(options: dict[str, dict[str, Any]]) -> ProtocolFactory:
    """Real rooms, opened with ``options`` for each game."""
    return lambda gen: ParlourProtocol(gen, options)


class EchoProtocol:
    """The baseline: seats take turns (version n is answered by seat n mod seats)."""

    def __init__(self, gen: Generator, message_bytes: int) -> None:
        self.gen = gen
        overhead = len('{"type":"state","version":1000,"pad":""}')
        self.pad = "x" * max(0, message_bytes - overhead)

    def text(self, version: int) -> str:
        return f'{{"type":"state","version":{version},"pad":"{self.pad}"}}'

    async def setup(self, table: Table) -> None:
        table.room_id = f"echo-{table.index}-{random.getrandbits(32):08x}"

    def path(self, table: Table, seat: int) -> str:
        return f"/ws/rooms/{table.room_id}"

    def begin(self, table: Table) -> None:
        # The echo server greets nobody: every seat starts at version 0 as if told so.
        for seat in range(table.seat_count):
            table.arrived(seat, 0, time.perf_counter())
        table.may_act(0, 0, self.text(1))

    async def rematch(self, table: Table) -> None:  # echo tables never finish
        await self.setup(table)

    def on_message(self, table: Table, seat: int, raw: str | bytes) -> None:
        version = orjson.loads(raw)["version"]
        table.state_received(seat, version, len(raw))
        if version % table.seat_count == seat:
            table.may_act(seat, version, self.text(version + 1))


def echo(message_bytes: int) -> ProtocolFactory:
    """The echo baseline's turns, each message ``message_bytes`` long."""
    return lambda gen: EchoProtocol(gen, message_bytes)
