"""The delivery of moves in one process, on a fixed workload: what the server does between a
move's commit and its bytes reaching each socket, without the network, the database or the
machine's other load.

``--rooms`` Cupid rooms, two seated connections each (``app.connections.hub.Connection``,
on sockets that take every send at once), play ``--moves`` random legal moves (seeded):
each is applied as another process's notice is (``app.rooms.referee.follow``), then the hub
tells the room's connections, which render their seat's view and send it. Prints the CPU
time per move. The workload is the same from run to run, so under valgrind the count of
instructions is repeatable on a shared machine, where times are not:

    python -m bench.fan_out
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m bench.fan_out --moves 400
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m bench.fan_out --moves 1400

(the difference of the two counts over the 1,000 moves between them is the instructions per
move, start-up taken out).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time

import uvloop

import games
from app.connections.hub import Connection, Hub
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.referee import begin, follow
from app.rooms.time_source import SystemTime


class TakingSocket:
    """A client that reads everything at once: each send returns without waiting."""

    async def send_text(self, text: str) -> None:
        return None

    async def close(self, code: int = 1000, reason: str = "") -> None:
        return None


def cupid_room(index: int) -> LiveRoom:
    """A two-seat Cupid room in play, two people seated."""
    room = LiveRoom(
        id=f"r{index}",
        code=f"C{index}",
        rules=games.get("cupid"),
        seat_count=2,
        options={},
        visibility="public",
        status="playing",
        host_id=f"u{index}a",
        created_at="2026-11-26T00:00:00Z",
        seats=[SeatHolder(f"u{index}a", None, "Ann"), SeatHolder(f"u{index}b", None, "Bob")],
        away_since=[None, None],
    )
    begin(room, match_id=f"m{index}", seed=index, seed_hash="h")
    return room


async def deliver(rooms: int, moves: int, seed: int) -> float:
    """Play ``moves`` moves over ``rooms`` rooms; the process's CPU seconds they took."""
    rng = random.Random(seed)
    hub = Hub()
    tables = [cupid_room(i) for i in range(rooms)]
    connections: list[Connection] = []
    for room in tables:
        for holder in room.seats:
            assert holder is not None
            connection = Connection(
                TakingSocket(),  # type: ignore[arg-type]
                holder.user_id,
                room,
                hub,
                64,
                time_source=SystemTime(),
                grace=60.0,
                address="bench",
            )
            hub.add(connection)
            connection.start()
            connection.notify()
            connections.append(connection)
    await asyncio.sleep(0.01)  # the first messages out
    played = 0
    started = time.process_time()
    while played < moves:
        for index, room in enumerate(tables):
            if room.rules.is_over(room.state):  # the next match at once
                begin(room, match_id=f"m{index}-{played}", seed=played, seed_hash="h")
                room.described()
            seat = room.rules.to_act(room.state)[0]
            legal = room.rules.legal_actions(room.state, seat)
            follow(room, room.version + 1, seat, legal[rng.randrange(len(legal))])
            hub.room_changed(room)
            played += 1
        for _ in range(3):  # let every send loop send what it was given
            await asyncio.sleep(0)
    spent = time.process_time() - started
    for connection in connections:
        connection.close(1000, "done")
        await connection.finish()
    return spent


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.fan_out", description=__doc__)
    p.add_argument("--rooms", type=int, default=100, help="rooms, two connections each (100)")
    p.add_argument("--moves", type=int, default=8000, help="moves in all (8000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the moves chosen (1)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    spent = uvloop.run(deliver(args.rooms, args.moves, args.seed))
    per_move = 1e6 * spent / args.moves
    print(f"{args.moves} moves over {args.rooms} rooms: {per_move:.1f} us of CPU a move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
