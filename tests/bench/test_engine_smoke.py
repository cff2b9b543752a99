"""A short run of the engine benchmark (bench/engine.py): it plays every case, prints the
table and records the run in the results directory it is given (a temporary one, so
bench/results/ is left alone). No timing is asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench.engine", "--runs", "1", "--matches", "1", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_engine_benchmark_records_a_new_file_per_run(tmp_path: Path) -> None:
    before = sorted(RESULTS.iterdir()) if RESULTS.exists() else []
    first, second = _run("--results-dir", str(tmp_path)), _run("--results-dir", str(tmp_path))
    for result in (first, second):
        assert result.returncode == 0, result.stdout + result.stderr
        for game in ("Cupid", "Coins", "Cups, defaults", "Royal Wife-Swap", "Usurp"):
            assert f"| {game}" in result.stdout, result.stdout
    recorded = sorted(tmp_path.glob("*-engine*.md"))
    assert len(recorded) == 2, "a second run never overwrites the first"
    text = recorded[0].read_text(encoding="utf-8")
    assert text.startswith("# Engine benchmark, ")
    assert "Command: `python -m bench.engine --runs 1 --matches 1 --results-dir" in text
    assert "| game | matches/s | actions/s | actions per match |" in text
    assert (sorted(RESULTS.iterdir()) if RESULTS.exists() else []) == before


def test_engine_benchmark_no_write_records_nothing(tmp_path: Path) -> None:
    result = _run("--only", "cupid", "--results-dir", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    result = _run("--no-write", "--results-dir", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "recorded in" not in result.stdout
    assert list(tmp_path.iterdir()) == []
