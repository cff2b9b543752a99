"""A short run of the turn-based benchmark (bench/turn_based.py) on a PostgreSQL database of
the test's own: it writes real tables the room service loads and plays, prints every
figure with no failed act, and records the run in the results directory it is given. No
timing is asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_turn_based_benchmark_acts_in_tables_loaded_from_the_database(
    postgres_url: str, tmp_path: Path
) -> None:
    args = ["--tables", "300", "--minutes", "1", "--speed", "30"]
    result = subprocess.run(
        [sys.executable, "-m", "bench.turn_based", "--database-url", postgres_url, *args,
         "--results-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 acts in" in result.stdout and ", 0 errors" in result.stdout, result.stdout
    for figure in ("server RSS before acting", "act latency", "tables held at start"):
        assert figure in result.stdout, result.stdout
    assert "| tables held at start / at the end | 0 / 0 |" in result.stdout
    (recorded,) = tmp_path.glob("*-turn-based.md")
    assert recorded.read_text(encoding="utf-8").startswith("# Turn-based tables, ")
