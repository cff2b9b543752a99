"""Engine benchmark: full random matches per second and actions per second, per game.

Each figure is the median of several timed runs on one core (this process), playing
self-play matches (games.bots.selfplay) with fixed seeds. Prints a table and records the
run as a new file in bench/results/ (``<date>-<time>-engine.md``), unless ``--no-write``
or ``--only``.

    python -m bench.engine [--runs 5] [--matches 60] [--results-dir DIR] [--no-write]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import games
from bench import machine
from games.bots.selfplay import play_match


def usual_table(rules: games.Rules[Any]) -> tuple[str, str, int, dict[str, Any]]:
    """A game at its usual table: the middle of its seat range, default options."""
    seats = (rules.min_seats + rules.max_seats) // 2
    if rules.min_seats == rules.max_seats:
        return (rules.title, rules.name, seats, {})
    return (f"{rules.title}, defaults, {seats} seats", rules.name, seats, {})


# (label, game, seats, options): every game at its usual table, Cups also with variants on.
CASES: list[tuple[str, str, int, dict[str, Any]]] = [
    *(usual_table(bundle.rules) for bundle in games.GAMES),
    (
        "Cups, all variants on (democratic_league), 4 seats",
        "cups",
        4,
        {
            "cups_aside": True,
            "sit_out": True,
            "shortfall": "democratic_league",
            "graveyard_counts": "double",
        },
    ),
    (
        "Cups, all variants on (magellan), 4 seats",
        "cups",
        4,
        {
            "cups_aside": True,
            "sit_out": True,
            "shortfall": "magellan",
            "graveyard_counts": "double",
        },
    ),
]


def measure(
    game: str, seats: int, options: dict[str, Any], matches: int, runs: int
) -> tuple[float, float, float]:
    """Median matches/s, median actions/s, and mean actions per match."""
    rules = games.get(game)
    match_rates, action_rates, actions_per_match = [], [], []
    for run in range(runs):
        actions = 0
        started = time.perf_counter()
        for i in range(matches):
            _, log = play_match(rules, seats, seed=run * 100_000 + i, options=options)
            actions += len(log)
        elapsed = time.perf_counter() - started
        match_rates.append(matches / elapsed)
        action_rates.append(actions / elapsed)
        actions_per_match.append(actions / matches)
    return (
        statistics.median(match_rates),
        statistics.median(action_rates),
        statistics.mean(actions_per_match),
    )


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="python -m bench.engine",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--runs", type=int, default=5, help="timed runs per game (median)")
    parser.add_argument("--matches", type=int, default=60, help="matches per run")
    parser.add_argument("--only", help="only cases whose game name is this (not recorded)")
    parser.add_argument(
        "--results-dir",
        type=Path,
        default=machine.RESULTS,
        help="where to record the run (default: bench/results)",
    )
    parser.add_argument("--no-write", action="store_true", help="print only; record nothing")
    args = parser.parse_args(argv)

    when = machine.now()
    rows = [
        "| game | matches/s | actions/s | actions per match |",
        "|---|---:|---:|---:|",
    ]
    print(f"Engine benchmark — {machine.describe(when)}")
    for label, game, seats, options in CASES:
        if args.only and game != args.only:
            continue
        per_s, actions_s, per_match = measure(game, seats, options, args.matches, args.runs)
        row = f"| {label} | {per_s:,.0f} | {actions_s:,.0f} | {per_match:,.0f} |"
        rows.append(row)
        print(row, flush=True)
    if not args.no_write and not args.only:
        lines = [
            f"# Engine benchmark, {machine.stamp(when)}, commit {machine.commit()}",
            "",
            f"Command: `{machine.command_line('bench.engine', argv)}`.",
            "",
            f"Measured {machine.describe(when)}.",
            f"Median of {args.runs} runs x {args.matches} self-play matches per game, one core.",
            "",
            *rows,
        ]
        path = machine.write_result(args.results_dir, when, "engine", lines)
        print(f"recorded in {machine.shown(path)}")


if __name__ == "__main__":
    main()
