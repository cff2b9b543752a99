"""GET /metrics: Prometheus' text format, counting what the contract names (moves by game,
their latency, connections, rooms held, the event log's commits), served to this machine
and to METRICS_ALLOW only — and, under ``python -m app.serve``, the figures of every
process that shares its metrics directory."""

from __future__ import annotations

import os
import random
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from pydantic import ValidationError

import games
from app.config import Settings
from app.observability.metrics_directory import VARIABLE, metrics_directory
from tests.app.helpers import make_app
from tests.app.live_clients import UNLIMITED, open_room, play
from tests.app.redis_server import RedisServer
from tests.app.test_cluster import open_across
from tests.app.test_cluster import play as play_across
from tests.app.test_login_limits import visitors
from tests.conftest import LISTENING, PORT_TAKEN, ROOT, Endpoint, LiveServer, two_free_ports

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(text: str) -> Samples:
    """Every sample of a /metrics answer, by name and labels."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def test_a_finished_cupid_match_counts_every_move_and_its_latency(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory(**UNLIMITED)
    before = samples(httpx.get(f"{server.url}/metrics").text)
    options = {**games.game("cupid").short_match, "dealer": 0}
    room_id, seats = open_room(server, "cupid", ["Ann", "Bob"], options)
    for seat in seats:
        seat.connect(room_id)
    play(seats, [], 0, random.Random(7), None)
    room = seats[0].http.get(f"/api/rooms/{room_id}").json()
    moves = len(seats[0].http.get(f"/api/matches/{room['match_id']}").json()["events"])
    answer = httpx.get(f"{server.url}/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    after = samples(answer.text)
    total = "parlour_moves_total"
    assert value(after, total, game="cupid", outcome="accepted") >= moves > 0
    assert value(before, total, game="cupid", outcome="accepted") == 0
    for stage in ("committed", "delivered"):
        count = value(after, "parlour_move_seconds_count", game="cupid", stage=stage)
        assert count == moves, stage
    assert value(after, "parlour_event_log_commit_seconds_count") >= 1
    assert value(after, "parlour_event_log_batch_events_sum") >= moves
    assert value(after, "parlour_connections") == 2
    assert value(after, "parlour_rooms_held") >= 1
    for seat in seats:
        seat.close()


def test_a_refused_move_is_counted_by_game_and_by_code(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory(**UNLIMITED)
    room_id, (ann, bob) = open_room(server, "cupid", ["Ann", "Bob"], {"dealer": 0})
    bob.connect(room_id)
    state = bob.state_at(0)
    bob.act(5, state["view"]["legal_actions"][0] if state["view"]["legal_actions"] else {})
    assert bob.next_of("error")["code"] == "stale_version"
    found = samples(httpx.get(f"{server.url}/metrics").text)
    assert value(found, "parlour_moves_total", game="cupid", outcome="refused") == 1
    assert value(found, "parlour_refusals_total", code="stale_version") == 1
    ann.close()
    bob.close()


def test_metrics_answer_this_machine_and_the_allowed_addresses_only(
    sqlite_url: str, tmp_path: Path
) -> None:
    app = make_app(sqlite_url, tmp_path, metrics_allow="198.51.100.0/24, 192.0.2.7")
    with visitors(app) as visitor:
        for address in ("127.0.0.1", "::1", "198.51.100.23", "192.0.2.7"):
            assert visitor(address).get("/metrics").status_code == 200, address
        for address in ("192.0.2.8", "203.0.113.5", "10.0.0.1"):
            refused = visitor(address).get("/metrics")
            assert refused.status_code == 403, address
            assert refused.json()["code"] == "metrics_not_allowed"


def test_behind_a_proxy_the_visitor_it_reports_is_who_asks(sqlite_url: str, tmp_path: Path) -> None:
    """A request relayed by a trusted proxy on this machine comes from the visitor, not from
    127.0.0.1: a public proxy in front does not open the metrics to the world."""
    app = make_app(sqlite_url, tmp_path, trusted_proxies="127.0.0.1")
    with visitors(app) as visitor:
        proxy = visitor("127.0.0.1")
        relayed = proxy.get("/metrics", headers={"X-Forwarded-For": "203.0.113.5"})
        assert relayed.status_code == 403
        assert proxy.get("/metrics").status_code == 200


def test_metrics_allow_takes_addresses_and_networks_only() -> None:
    with pytest.raises(ValidationError, match="METRICS_ALLOW: 'everyone'"):
        Settings(metrics_allow="10.0.0.0/8, everyone")


def in_process(directory: Path, code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a new Python process keeping its metrics in ``directory``."""
    env = {**os.environ, VARIABLE: str(directory)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )


def test_several_processes_are_added_up_and_a_dead_ones_connections_dropped(
    tmp_path: Path,
) -> None:
    directory = tmp_path / "metrics"
    directory.mkdir()
    record = (
        "import os; from app.observability import metrics as m\n"
        "m.MOVES.labels(game='cupid', outcome='accepted').inc(3)\n"
        "m.CONNECTIONS.inc(2)\n"
        "print(os.getpid())"
    )
    pids = [int(in_process(directory, record).stdout) for _ in range(2)]
    report = "from app.routes.operations import current_metrics; print(current_metrics().decode())"
    found = samples(in_process(directory, report).stdout)
    assert value(found, "parlour_moves_total", game="cupid", outcome="accepted") == 6
    assert value(found, "parlour_connections") == 4
    forget = (
        f"from app.observability.metrics_directory import process_exited; process_exited({pids[0]})"
    )
    in_process(directory, forget)
    found = samples(in_process(directory, report).stdout)
    assert value(found, "parlour_moves_total", game="cupid", outcome="accepted") == 6
    assert value(found, "parlour_connections") == 2


def test_the_serving_process_makes_its_metrics_directory_and_removes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    with metrics_directory() as made:
        assert os.environ[VARIABLE] == made and Path(made).is_dir()
    assert not Path(made).exists() and VARIABLE not in os.environ


def test_a_given_metrics_directory_is_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(VARIABLE, str(tmp_path / "given"))
    with metrics_directory() as used:
        assert used == str(tmp_path / "given")
    assert (tmp_path / "given").is_dir()


def test_the_server_chooses_where_metrics_live_before_it_imports_prometheus() -> None:
    """prometheus_client picks its storage when first imported: app.serve must not import it
    (through the app) before it has set the metrics directory."""
    code = "import sys, app.serve; print('prometheus_client' in sys.modules)"
    checked = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True
    )
    assert checked.stdout.strip() == "False"


@contextmanager
def served_group(tmp_path: Path, env: dict[str, str]) -> Iterator[tuple[Endpoint, Endpoint]]:
    """``python -m app.serve --processes 2``, as `make run-many` starts it (again on other
    ports when one was taken before its process could bind it)."""
    for _ in range(5):
        group, port = _start_group(tmp_path, env)
        if group is not None:
            break
    else:
        raise AssertionError("the processes found no free ports in five tries")
    try:
        yield Endpoint(port), Endpoint(port + 1)
    finally:
        group.send_signal(signal.SIGTERM)
        group.wait(30)


def _start_group(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes] | None, int]:
    """The group started and listening on two consecutive ports, or None when one of them
    was taken meanwhile (the group is then stopped)."""
    port = two_free_ports()
    log_path = tmp_path / f"group-{port}.log"
    options = ["--no-migrate", "--processes", "2", "--host", "127.0.0.1", "--port", str(port)]
    with log_path.open("wb") as log:
        group = subprocess.Popen(
            [sys.executable, "-m", "app.serve", *options],
            cwd=ROOT,
            env={**os.environ, "SECRET_KEY": "live-test-secret", "DATA_DIR": str(tmp_path), **env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        logged = log_path.read_text(errors="replace")
        assert group.poll() is None, logged[-2000:]
        if PORT_TAKEN in logged:
            group.send_signal(signal.SIGTERM)
            group.wait(30)
            return None, port
        if all(f"{LISTENING} http://127.0.0.1:{p}" in logged for p in (port, port + 1)):
            return group, port
        time.sleep(0.1)
    group.send_signal(signal.SIGTERM)
    group.wait(30)
    raise AssertionError(f"the processes did not start: {log_path.read_text()[-2000:]}")


def test_every_process_of_a_group_reports_the_moves_of_all_once(
    postgres_url: str, redis_server: RedisServer, tmp_path: Path
) -> None:
    """Ann plays through one process, Bob through the other: each move is counted once (by
    the room's owner), and either process's /metrics says so."""
    env = {
        "DATABASE_URL": postgres_url,
        "REDIS_URL": redis_server.url,
        "REDIS_PREFIX": f"test{secrets.token_hex(3)}",
        "BOT_DELAY": "0.05",
        **UNLIMITED,
    }
    with served_group(tmp_path, env) as (first, second):
        room_id, ann, bob = open_across(first, second)  # type: ignore[arg-type]
        ann.connect(room_id)
        bob.connect(room_id)
        play_across([ann, bob], [], 0, random.Random(3), None)
        record = ann.http.get(f"/api/rooms/{room_id}").json()
        moves = len(ann.http.get(f"/api/matches/{record['match_id']}").json()["events"])
        reports = [samples(httpx.get(f"{end.url}/metrics").text) for end in (first, second)]
        assert reports[0] == reports[1]
        found = reports[0]
        assert value(found, "parlour_moves_total", game="cupid", outcome="accepted") == moves
        committed = value(found, "parlour_move_seconds_count", game="cupid", stage="committed")
        assert committed == moves
        assert value(found, "parlour_connections") == 2
        for seat in (ann, bob):
            seat.close()


def test_a_served_process_removes_its_metrics_directory_when_stopped(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory()  # its temporary files go to the test's directory
    assert len(list(server.data_dir.glob("parlour-metrics-*"))) == 1
    server.stop()  # SIGTERM
    assert server.process is not None and server.process.returncode == 0
    assert not list(server.data_dir.glob("parlour-metrics-*"))
