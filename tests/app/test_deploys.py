"""Deploys without a dropped table: a server process told to stop (SIGTERM) hands its rooms
to another process at once, tells its sockets to reconnect (close code 1012), drains the
event log and exits 0 — and nothing any client saw acknowledged is lost."""

from __future__ import annotations

import os
import random
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import psutil
from redis import Redis
from redis.client import PubSub
from websockets.exceptions import ConnectionClosed

from app.config import SHARED_ADDRESS_CAPS
from tests.app.helpers import eventually
from tests.app.live_clients import UNLIMITED, Factory, Seat, check_against_truth
from tests.app.redis_server import RedisServer
from tests.app.test_cluster import open_across, play, reconnected, servers
from tests.conftest import LISTENING, ROOT, LiveServer, listening, two_free_ports

SERVICE_RESTART = 1012
# Failure timeouts only (how long a test waits before it fails), never a measure of speed:
# the contract's 15 s for a process to exit, and room for a busy machine everywhere else.
EXIT_SECONDS = 15
WAIT_SECONDS = 20


def closed_with(seat: Seat, within: float = WAIT_SECONDS) -> int | None:
    """Read what the server still sends until it closes the socket; its close code."""
    assert seat.ws is not None
    deadline = time.monotonic() + within
    while True:
        try:
            seat.receive()
        except ConnectionClosed:
            return seat.ws.close_code
        except TimeoutError:
            assert time.monotonic() < deadline, "the socket was never closed"


def acknowledged_version(seat: Seat) -> int:
    """The newest version this client was shown (every move up to it was acknowledged)."""
    return max((state["version"] for state in seat.states), default=0)


def move_in_flight(seats: list[Seat], version: int, rng: random.Random) -> tuple[int, Any]:
    """A legal move sent by whoever is awaited at ``version``, its answer not read."""
    current = seats[0].state_at(version)
    mover = rng.choice(current["view"]["to_act"])
    action = rng.choice(seats[mover].state_at(version)["view"]["legal_actions"])
    seats[mover].act(version, action)
    return mover, action


def heard(channel: PubSub) -> dict[str, Any]:
    """The next message published on ``channel`` (past the subscription's confirmation)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        message = channel.get_message(timeout=1)
        if message is not None:
            return dict(orjson.loads(message["data"]))
    raise AssertionError("nothing was said on the channel")


def stopped(server: LiveServer) -> int:
    """Send SIGTERM (a deploy stopping the process); its exit status."""
    assert server.process is not None
    server.process.send_signal(signal.SIGTERM)
    return server.process.wait(EXIT_SECONDS)


def test_the_owner_stopped_mid_match_hands_the_table_to_the_other_process(
    live_server_factory: Factory, postgres_url: str, redis_server: RedisServer
) -> None:
    a, b = servers(live_server_factory, postgres_url, redis_server)
    room_id, ann, bob_on_b = open_across(a, b)  # a opened the room: a referees it
    bob = reconnected(bob_on_b, a)
    ann.connect(room_id)  # both players on a, the process that is stopped
    bob.connect(room_id)
    eve = Seat(b, "Eve")  # a watcher through b, which holds a copy of the room
    eve.connect(room_id)
    rng = random.Random(11)
    version = play([ann, bob], [eve], 0, rng, 6)
    handovers = Redis.from_url(redis_server.url).pubsub(ignore_subscribe_messages=True)
    handovers.subscribe(f"{a.env['REDIS_PREFIX']}:handovers")
    mover, action = move_in_flight([ann, bob], version, rng)

    signalled = time.monotonic()
    assert a.process is not None
    a.process.send_signal(signal.SIGTERM)
    # Each socket on a gets what was queued for it, then the close code that says
    # "reconnect at once".
    assert [closed_with(ann), closed_with(bob)] == [SERVICE_RESTART, SERVICE_RESTART]
    shown = max(acknowledged_version(ann), acknowledged_version(bob))
    assert shown in (version, version + 1)

    # The browsers reconnect at once, through the proxy, to b.
    ann_b, bob_b = reconnected(ann, b), reconnected(bob, b)
    ann_b.connect(room_id)
    bob_b.connect(room_id)
    now = ann_b.state_at(version)["version"]
    assert now >= shown, "a move a client was shown is gone"
    if now == version:  # the move in flight was not taken: it is sent again
        [ann_b, bob_b][mover].act(version, action)
    for seat in (ann_b, bob_b, eve):
        seat.state_at(version + 1)
    went_on = time.monotonic() - signalled
    next_version = play([ann_b, bob_b], [eve], version + 1, rng, 1)
    print(f"\nthe match went on through b {went_on:.2f} s after the signal")
    assert a.process.wait(EXIT_SECONDS) == 0

    # a told the others to take its room over (rather than let its lease run out).
    assert heard(handovers)["rooms"] == [room_id]
    handovers.close()

    final = play([ann_b, bob_b], [eve], next_version, rng, None)
    # Every view shown, before the stop (acknowledged moves included) and after, is the
    # true one: nothing shown was lost or played differently.
    ann_b.states[:0], bob_b.states[:0] = ann.states, bob.states
    result = check_against_truth(b, room_id, {0: ann_b, 1: bob_b, None: eve})
    assert len(result["record"]["events"]) == final
    for seat in (ann, bob, ann_b, bob_b, eve):
        seat.close()


def test_a_process_alone_drains_its_log_and_exits_cleanly(live_server_factory: Factory) -> None:
    """With one process (no Redis) there is nobody to hand the rooms to: it stops taking
    moves, commits those under way, tells its sockets it restarts and exits 0; started
    again, it resumes every match at the last move anyone was shown."""
    server = live_server_factory(**UNLIMITED)
    ann, bob = Seat(server, "Ann"), Seat(server, "Bob")
    room = ann.http.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
    assert bob.http.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    assert ann.http.post(f"/api/rooms/{room['id']}/start").status_code == 200
    ann.connect(room["id"])
    bob.connect(room["id"])
    rng = random.Random(2)
    version = play([ann, bob], [], 0, rng, 4)
    move_in_flight([ann, bob], version, rng)

    assert stopped(server) == 0
    assert [closed_with(ann), closed_with(bob)] == [SERVICE_RESTART, SERVICE_RESTART]
    shown = max(acknowledged_version(ann), acknowledged_version(bob))

    server.start()
    again = [reconnected(ann, server), reconnected(bob, server)]
    for seat in again:
        seat.connect(room["id"])
    assert again[0].state_at(0)["version"] >= shown
    final = play(again, [], again[0].states[-1]["version"], rng, None)
    again[0].states[:0], again[1].states[:0] = ann.states, bob.states
    result = check_against_truth(server, room["id"], {0: again[0], 1: again[1]})
    assert len(result["record"]["events"]) == final
    for seat in (ann, bob, *again):
        seat.close()


def run_many(
    env: dict[str, str], log_path: Path, timeout: float
) -> tuple[subprocess.Popen[bytes], int]:
    """`python -m app.serve --processes 2` serving on two consecutive ports, and the first.

    Ready once its own log says both processes listen: a connect could reach whichever
    process took a port first. Either port may be taken between choosing it and binding it
    (another test's server or client): the supervisor is then stopped and started again on
    two others."""
    command = [sys.executable, "-m", "app.serve", "--no-migrate", "--host", "127.0.0.1"]
    for _ in range(5):
        port = two_free_ports()
        with log_path.open("wb") as log:
            supervisor = subprocess.Popen(
                [*command, "--port", str(port), "--processes", "2"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        lines = [f"{LISTENING} http://127.0.0.1:{p}" for p in (port, port + 1)]
        try:
            if listening(supervisor, log_path, lines, timeout):
                return supervisor, port
        except RuntimeError:
            supervisor.terminate()
            raise
        supervisor.terminate()
        supervisor.wait(EXIT_SECONDS + 10)
    raise RuntimeError("the ports were taken five times over")


def test_run_many_restarts_its_processes_one_at_a_time_on_sighup(
    postgres_url: str, redis_server: RedisServer, tmp_path: Path
) -> None:
    """`make run-many` (``python -m app.serve --processes 2``) restarts its processes in
    turn on SIGHUP, each stopped the graceful way; the table goes on afterwards."""
    log_path = tmp_path / "run-many.log"
    env = {
        **os.environ,
        "DATABASE_URL": postgres_url,
        "REDIS_URL": redis_server.url,
        "REDIS_PREFIX": f"test{secrets.token_hex(3)}",
        "SECRET_KEY": "live-test-secret",
        "DATA_DIR": str(tmp_path),
        **SHARED_ADDRESS_CAPS,
        **UNLIMITED,
    }
    restarts = 120  # seconds for processes to start, on a busy machine
    supervisor, port = run_many(env, log_path, restarts)
    try:
        a, b = (LiveServer(postgres_url, tmp_path) for _ in range(2))
        a.port, b.port = port, port + 1
        room_id, ann, bob = open_across(a, b)
        ann.connect(room_id)
        bob.connect(room_id)
        rng = random.Random(4)
        version = play([ann, bob], [], 0, rng, 4)
        before = {child.pid for child in psutil.Process(supervisor.pid).children()}

        supervisor.send_signal(signal.SIGHUP)
        # Each socket is told to reconnect as its process stops.
        assert closed_with(ann, restarts) == closed_with(bob, restarts) == SERVICE_RESTART
        eventually(
            lambda: "every process restarted" in log_path.read_text(),
            "the processes to be restarted",
            timeout=restarts,
        )
        said = log_path.read_text()
        order = [
            re.search(rf"restarting the process on port {p}\b", said) for p in (port, port + 1)
        ]
        assert order[0] is not None and order[1] is not None
        assert order[0].start() < order[1].start()
        after = {child.pid for child in psutil.Process(supervisor.pid).children()}
        assert len(after) == 2 and not after & before

        again = [reconnected(ann, a), reconnected(bob, b)]
        for seat in again:
            seat.connect(room_id)
        assert again[0].state_at(version)["version"] == version
        final = play(again, [], version, rng, None)
        again[0].states[:0], again[1].states[:0] = ann.states, bob.states
        result = check_against_truth(a, room_id, {0: again[0], 1: again[1]})
        assert len(result["record"]["events"]) == final
        for seat in (ann, bob, *again):
            seat.close()
    finally:
        supervisor.terminate()
        supervisor.wait(EXIT_SECONDS + 10)
