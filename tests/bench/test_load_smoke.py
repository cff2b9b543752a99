"""A short run of the load benchmark (bench/load.py): it completes with zero errors and
prints every figure. No timing is asserted; the figures themselves are benchmark output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

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
    "generator CPU",
    "ratio actions/s / baseline round trips/s",
    "idle parlour: ",
    "idle echo baseline: ",
)


def test_load_benchmark_smoke_run(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.load",
            "--runs",
            "saturated,baseline,paced,idle",
            "--rooms",
            "3",
            "--paced-rooms",
            "4",
            "--pace",
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
            "--no-docs",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert out.count("errors               0 (none)") == 3, out
    assert out.count(", errors 0") == 2, out
    for figure in FIGURES:
        assert figure in out, f"{figure!r} missing from:\n{out}"
    assert "rematches" in out and " 0 finished" not in out.split("echo baseline")[0], out
