"""A short restart run of the load benchmark (bench/load/restarts.py): two processes on
PostgreSQL and Redis restarted in turn under paced load; it completes, every stopped
process exits 0, no acknowledged move is missing from the event log and no error other
than the reconnects is counted. No timing is asserted; the figures are benchmark output."""

from __future__ import annotations

from pathlib import Path

from tests.bench.load_runs import run_load_on_processes


def test_restart_run_smoke(tmp_path: Path, postgres_url: str) -> None:
    options = ["--runs", "restart", "--processes", "2", "--paced-rooms", "4"]
    options += ["--pace", "0.2", "--target", "10", "--warmup", "0.5", "--settle", "0.5"]
    result = run_load_on_processes(options, tmp_path, postgres_url)
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "lost acknowledged    0 " in out, out
    assert "errors               0 other than reconnects" in out, out
    assert out.count(" exited 0 in ") == 2, out
    for figure in ("acknowledged moves", "reconnects", "longest stall"):
        assert figure in out, out
    assert len(list(tmp_path.glob("*-load-postgresql.md"))) == 1
