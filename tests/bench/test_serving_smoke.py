"""A short run of the serving benchmark (bench/serving.py): the real app plays its moves
over in-memory sockets, prints the server's CPU per move and records the run in the
results directory it is given (a temporary one, so bench/results/ is left alone). No
timing is asserted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"


def test_serving_benchmark_plays_its_moves_prints_and_records_its_run(tmp_path: Path) -> None:
    before = sorted(RESULTS.iterdir()) if RESULTS.exists() else []
    # A short target makes the run cross matches' ends, so rematches over the socket are in it.
    command = [sys.executable, "-m", "bench.serving", "--tables", "2", "--moves", "60"]
    command += ["--target", "15"]
    result = subprocess.run(
        [*command, "--results-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "60 moves at 2 tables: " in result.stdout
    assert " us of the server's CPU a move" in result.stdout
    ended = re.search(r"; (\d+) matches ended and were rematched", result.stdout)
    assert ended is not None and int(ended.group(1)) >= 1, result.stdout
    recorded = sorted(tmp_path.glob("*-serving.md"))
    assert len(recorded) == 1
    text = recorded[0].read_text(encoding="utf-8")
    assert text.startswith("# The server's work per move, ")
    assert "Command: `python -m bench.serving --tables 2 --moves 60 --target 15" in text
    assert "- 60 moves at 2 tables: " in text
    assert (sorted(RESULTS.iterdir()) if RESULTS.exists() else []) == before
