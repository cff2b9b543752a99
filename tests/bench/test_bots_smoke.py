"""A short run of the computer-player benchmark (bench/bots.py): one match per pairing at
one game, recorded in a temporary directory (bench/results/ is left alone). It prints every
pairing and the decision times; no strength or timing is asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bots_benchmark_prints_and_records_every_pairing(tmp_path: Path) -> None:
    command = ["-m", "bench.bots", "--matches", "1", "--only", "cupid"]
    result = subprocess.run(
        [sys.executable, *command, "--results-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for pairing in ("strong vs heuristic", "strong vs random", "normal vs heuristic"):
        assert f"| Cupid | 2 | {pairing} | 1 (0) |" in result.stdout, result.stdout
    assert "| strong |" in result.stdout and "| normal |" in result.stdout
    recorded = list(tmp_path.glob("*-bots.md"))
    assert len(recorded) == 1
    assert "Command: `python -m bench.bots --matches 1 --only cupid" in recorded[0].read_text()
