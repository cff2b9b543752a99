"""A short sharing run of the load benchmark: saturated on one process, then on two
processes sharing every room through PostgreSQL and Redis, in two rounds; it completes
with zero errors, prints each round's figures and the ratio of the medians, and records
them. No timing is asserted; the figures are benchmark output."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench.load_runs import run_load_on_processes


def test_sharing_run_smoke(tmp_path: Path, postgres_url: str) -> None:
    options = ["--runs", "sharing", "--sharing-rounds", "2", "--processes", "2"]
    options += ["--seats", "referee", "--rooms", "4", "--target", "10"]
    options += ["--warmup", "0.5", "--duration", "1.5"]
    result = run_load_on_processes(options, tmp_path, postgres_url)
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert out.count("parlour, one process: saturated, 4 rooms") == 2, out
    assert out.count("parlour, 2 processes, seats at the referee: saturated, 4 rooms") == 2, out
    assert out.count("errors               0 (none)") == 4, out
    rounds = re.search(r"round by round: (\d+)/(\d+), (\d+)/(\d+) us", out)
    assert rounds, out
    medians = re.search(r"medians (\d+) / (\d+) us: 2 processes cost (\d+\.\d\d) x", out)
    assert medians, out
    one_a, shared_a, one_b, shared_b = (int(v) for v in rounds.groups())
    # Each median is the middle of its rounds (of two: their mean), and the ratio is theirs.
    assert int(medians.group(1)) == pytest.approx((one_a + one_b) / 2, abs=1)
    assert int(medians.group(2)) == pytest.approx((shared_a + shared_b) / 2, abs=1)
    ratio = int(medians.group(2)) / int(medians.group(1))
    assert float(medians.group(3)) == pytest.approx(ratio, abs=0.02)
    [recorded] = tmp_path.glob("*-load-postgresql.md")
    assert "2 processes cost" in recorded.read_text()
