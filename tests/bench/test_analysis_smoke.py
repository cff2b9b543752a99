"""A short run of the analysis benchmark (bench/analysis.py): one short Cupid match,
recorded in a temporary directory (bench/results/ is left alone). It prints the game's row;
no time or stability is asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_analysis_benchmark_prints_and_records_each_game(tmp_path: Path) -> None:
    command = ["-m", "bench.analysis", "--only", "cupid", "--rival", "heuristic"]
    result = subprocess.run(
        [sys.executable, *command, "--results-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "| Cupid | 1 |" in result.stdout, result.stdout
    recorded = list(tmp_path.glob("*-analysis.md"))
    assert len(recorded) == 1
    text = recorded[0].read_text()
    assert "Command: `python -m bench.analysis --only cupid --rival heuristic" in text
