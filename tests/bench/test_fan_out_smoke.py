"""A short run of the delivery benchmark (bench/fan_out.py): it plays its moves, prints the
CPU per move and records the run in the results directory it is given (a temporary one, so
bench/results/ is left alone). No timing is asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"


def test_fan_out_benchmark_prints_and_records_its_run(tmp_path: Path) -> None:
    before = sorted(RESULTS.iterdir()) if RESULTS.exists() else []
    command = [sys.executable, "-m", "bench.fan_out", "--rooms", "3", "--moves", "90"]
    result = subprocess.run(
        [*command, "--results-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "90 moves over 3 rooms: " in result.stdout
    assert " us of CPU a move" in result.stdout
    recorded = sorted(tmp_path.glob("*-fan-out.md"))
    assert len(recorded) == 1
    text = recorded[0].read_text(encoding="utf-8")
    assert text.startswith("# Delivery of moves, ")
    assert "Command: `python -m bench.fan_out --rooms 3 --moves 90 --results-dir" in text
    assert "- 90 moves over 3 rooms: " in text
    assert (sorted(RESULTS.iterdir()) if RESULTS.exists() else []) == before
