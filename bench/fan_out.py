"""The delivery of moves in one process, on a fixed workload: what the server does between a
move's commit and its bytes reaching each socket, without the network, the database or the
machine's other load.

``--rooms`` Cupid rooms, two seated connections each (``app.connections.hub.Connection``,
on sockets that take every message at once, written in the call that has it to send as
the server's own sockets are while their clients read), play ``--moves`` random legal
moves (seeded): each is applied as another process's notice is
(``app.rooms.referee.follow``), then the hub tells the room's connections, which render
their seat's view and send it. Prints the CPU time per move. The workload is the same from
run to run, so the count of instructions (``--instructions``: the benchmark run again
twice under valgrind, ``--moves`` and 1,000 moves more, the difference divided by 1,000 so
that start-up drops out) is repeatable on a shared machine, where times are not:

    python -m bench.fan_out
    python -m bench.fan_out --moves 400 --instructions
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

import uvloop

import games
from app.connections.hub import Connection, Hub
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.referee import begin, follow
from app.rooms.time_source import SystemTime
from bench import machine

SPAN = 1000  # moves between the two counted runs


class TakingSocket:
    """A client that reads everything at once: each message is written at once."""

    def send_now(self, text: str) -> bool:
        return True

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
            socket = TakingSocket()
            connection = Connection(
                socket,  # type: ignore[arg-type]
                holder.user_id,
                room,
                hub,
                64,
                time_source=SystemTime(),
                grace=60.0,
                address="bench",
                send_now=socket.send_now,
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


def instructions(rooms: int, moves: int, seed: int) -> int:
    """What valgrind counts for a whole run of ``moves`` moves, start-up included."""
    args = ["--rooms", str(rooms), "--moves", str(moves), "--seed", str(seed), "--no-write"]
    return machine.instructions("bench.fan_out", args)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(prog="python -m bench.fan_out", description=__doc__)
    p.add_argument("--rooms", type=int, default=100, help="rooms, two connections each (100)")
    p.add_argument("--moves", type=int, default=8000, help="moves in all (8000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the moves chosen (1)")
    p.add_argument(
        "--instructions",
        action="store_true",
        help=f"also count instructions per move under valgrind (--moves and {SPAN:,} more)",
    )
    p.add_argument(
        "--results-dir",
        type=Path,
        default=machine.RESULTS,
        help="where to record the run (default: bench/results)",
    )
    p.add_argument("--no-write", action="store_true", help="print only; record nothing")
    args = p.parse_args(argv)
    when = machine.now()
    spent = uvloop.run(deliver(args.rooms, args.moves, args.seed))
    figures = [
        f"{args.moves} moves over {args.rooms} rooms:"
        f" {1e6 * spent / args.moves:.1f} us of CPU a move (this process, one run)"
    ]
    print(figures[0], flush=True)
    if args.instructions:
        fewer = instructions(args.rooms, args.moves, args.seed)
        more = instructions(args.rooms, args.moves + SPAN, args.seed)
        figures.append(
            f"{(more - fewer) // SPAN:,} instructions a move (valgrind: {fewer:,} for"
            f" {args.moves} moves, {more:,} for {args.moves + SPAN})"
        )
        print(figures[-1])
    if not args.no_write:
        path = machine.record_figures(
            args.results_dir, when, "fan-out", "Delivery of moves", "bench.fan_out", argv, figures
        )
        print(f"recorded in {machine.shown(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
