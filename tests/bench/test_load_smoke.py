"""A short run of the load benchmark (bench/load/): it completes with zero errors, prints
every figure and records the run in the results directory it is given (a temporary one, so
bench/results/ is left alone). No timing is asserted; the figures are benchmark output."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.load_runs import ROOT, run_load

RESULTS = ROOT / "bench" / "results"

FIGURES = (
    "actions/s",
    "latency ms           p50",
    "p95",
    "p99",
    "errors               0 (none)",
    "server CPU",
    "us per action",
    "server RSS",
    "KB per connection",
    "KB per connection over the",
    "parlour (crowd): paced",
    "generator CPU",
    "ratio actions/s / baseline round trips/s",
    "idle parlour: ",
    "idle echo baseline: ",
    "stall probe (1 process(es)",
    "event-loop lag p50",
    "stalls of 15 ms or more:",
    "parlour (memory probe): paced",
    "KB per connection traced by tracemalloc beyond the heap before the tables",
)


def _listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir()) if directory.exists() else []


@pytest.mark.timeout(660)  # above the run's own guard below, so that guard is what speaks
def test_load_benchmark_smoke_run(tmp_path: Path) -> None:
    before = _listing(RESULTS)
    options = [
        "--runs",
        "saturated,baseline,paced,paced-baseline,crowd,stalls,memory,idle",
        "--rooms",
        "3",
        "--paced-rooms",
        "4",
        "--pace",
        "0.2",
        "--crowd-rooms",
        "4",
        "--crowd-pace",
        "0.2",
        "--target",
        "10",
        "--warmup",
        "0.5",
        "--duration",
        "2",
        "--paced-duration",
        "2",
        "--sample-every",
        "0.5",
        "--idle",
        "20",
    ]
    # A guard against a hung run, not a time limit: about a minute on a quiet machine,
    # several times that beside the browser tests and the other test workers (pytest's
    # own limit for this test is set above it).
    result = run_load(options, tmp_path, timeout=600)
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert out.count("errors               0 (none)") == 7, out
    floor = out.split("echo baseline: paced")[1]
    assert "actions/s" in floor and "nan" not in floor.split("server CPU")[0], floor
    assert out.count(", errors 0") == 2, out
    for figure in FIGURES:
        assert figure in out, f"{figure!r} missing from:\n{out}"
    # The memory the tables added is told by where the project's code allocated it.
    assert "(in app/" in out.split("memory probe: ")[1].split("idle parlour")[0], out
    assert "rematches" in out and " 0 finished" not in out.split("echo baseline")[0], out
    recorded = list(tmp_path.glob("*-load-sqlite.md"))
    assert len(recorded) == 1, _listing(tmp_path)
    text = recorded[0].read_text(encoding="utf-8")
    assert text.startswith("# Load benchmark, ") and "Command: `python -m bench.load --runs" in text
    assert "| parlour | SQLite | saturated |" in text and "| echo baseline | — |" in text
    assert "| parlour (stall probe) | SQLite | paced" in text and "stall probe (1 process" in text
    assert "| parlour (memory probe) | SQLite | paced" in text and "memory probe: " in text
    assert f"recorded in {recorded[0]}" in out
    assert _listing(RESULTS) == before, "a test run must not write into bench/results"


def test_load_benchmark_no_write_records_nothing(tmp_path: Path) -> None:
    result = run_load(["--runs", "idle", "--idle", "4", "--no-write"], tmp_path, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "idle parlour: " in result.stdout
    assert "recorded in" not in result.stdout
    assert _listing(tmp_path) == []
