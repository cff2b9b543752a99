"""The side-by-side run's rounds: each run is set beside boardgame.io's run of its own
round, and the medians' table takes the median of those ratios (not the ratio of the
medians, which would pair runs minutes apart)."""

from __future__ import annotations

from bench.load.drive import Result
from bench.versus import BGIO, Measured, comparison, tables


def run(label: str, round_: int, moves: float, p99: float, cpu: float) -> Measured:
    result = Result(
        label=label,
        mode="saturated",
        rooms=100,
        connections=200,
        seconds=20.0,
        actions=int(moves * 20),
        actions_per_s=moves,
        p50_ms=p99 / 3,
        p95_ms=p99 / 2,
        p99_ms=p99,
        max_ms=p99 * 2,
        errors={},
        server_cpu_pct=90.0,
        server_cpu_us_per_action=cpu,
        server_main_thread_cpu_pct=70.0,
        server_rss_mb=150.0,
        server_rss_kb_per_conn=750.0,
        generator_cpu_pct=40.0,
        db_cpu_pct=10.0,
        messages_per_action=1.1,
        other_cpu_pct=5.0,
        mean_state_bytes=930.0,
        matches_finished=10,
        rematches=10,
    )
    return Measured(result, (1.0, 1.5), round_)


PG = "Parlour on PostgreSQL"
# The machine slows down in round 2 and speeds up in round 3, for both servers.
ROUNDS = [
    run(BGIO, 1, 4000, 20.0, 200),
    run(PG, 1, 2000, 60.0, 400),
    run(BGIO, 2, 1000, 50.0, 300),
    run(PG, 2, 900, 75.0, 330),
    run(BGIO, 3, 3000, 30.0, 250),
    run(PG, 3, 2100, 60.0, 500),
]


def test_each_run_is_set_beside_boardgameio_in_its_own_round() -> None:
    rows = comparison(ROUNDS)
    assert rows[0].startswith("| round | run |")
    round_two = [row for row in rows if row.startswith(f"| 2 | {PG} |")]
    assert len(round_two) == 1
    assert "| 900 | 0.90x |" in round_two[0]
    assert "| 75.00 | 1.50x |" in round_two[0]


def test_the_medians_are_of_the_rounds_own_ratios() -> None:
    out = tables(ROUNDS)
    at = out.index("") + 1
    assert out[at].startswith("| run | mode | rounds |")
    row = next(line for line in out[at:] if line.startswith(f"| {PG} |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    # moves/s: the median run 2,000, and the median of 0.50, 0.90, 0.70 (the ratio of the
    # medians, 2,000 / 3,000, would be 0.67); p99: 60 ms, median of 3.00, 1.50, 2.00;
    # CPU per move: 400 µs, median of 2.00, 1.10, 2.00.
    assert cells == [PG, "saturated", "3", "2,000", "0.70x", "60.00", "2.00x", "400", "2.00x", "0"]
    bgio = next(line for line in out[at:] if line.startswith(f"| {BGIO} |"))
    assert "| 1.00x |" in bgio


def test_one_round_prints_one_table_without_a_round_column() -> None:
    once = [m for m in ROUNDS if m.round == 1]
    out = tables(once)
    assert "" not in out
    assert out[0].startswith("| run | mode |")
    assert "| 2,000 | 0.50x |" in next(line for line in out if line.startswith(f"| {PG} |"))
